// What both workers (run-here-wasm-worker.js for Rust, run-here-worker.js for Python) share with the tool's stdio
// driver (tools/runex/run/stdio.py): lines in, lines out, and the rule that a server gets transcript line N+1 only
// when it reads stdin again after writing the reply it owes to line N. Which lines are owed a reply is what the
// tool's own transcript reader says: run in Pyodide for Python, and written into manifest.json by
// tools/site_assets.py for Rust (which then needs no Python).

const decoder = new TextDecoder();

export function splitLines(data) {
  const lines = [];
  let from = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 10) { lines.push(data.subarray(from, i)); from = i + 1; }
  if (from < data.length) lines.push(data.subarray(from));
  return lines;
}

export function concat(chunks) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

const idKey = (id) => `${typeof id}:${JSON.stringify(id)}`;

// The tool's words (tools/runex/run/stdio.py) for an id, as Python prints it.
const shown = (id) => id === null ? "None" : typeof id === "string" ? `'${id}'` : String(id);

// Byte for byte; on a difference, the first line that differs (1-based) and both sides of it.
export function compareBytes(got, want) {
  if (got.length === want.length && got.every((b, i) => b === want[i])) return { equal: true };
  const a = splitLines(got), b = splitLines(want);
  let i = 0;
  while (i < a.length && i < b.length && a[i].length === b[i].length && a[i].every((x, j) => x === b[i][j])) i++;
  return { equal: false, line: i + 1, got: i < a.length ? decoder.decode(a[i]) : null,
           want: i < b.length ? decoder.decode(b[i]) : null };
}

// One conversation: `lines` (Uint8Arrays without their newline) fed on demand, stdout split into lines as written.
// owed[i] = [number, owed a reply, reply id, null id allowed] for transcript line i+1; a line past them (the
// reader's own) is the last, and nothing waits on its reply.
export class Conversation {
  constructor(lines, owed, onLine) {
    Object.assign(this, { lines, owed, onLine, next: 0, out: [], partial: [], replies: [], answered: 0,
                          stdoutLines: 0, failure: null, linesOutBeforeLast: 0 });
  }

  // The next line with its newline, or null for end of input (all fed, or the server broke the lockstep).
  nextLine() {
    if (this.failure !== null || this.next >= this.lines.length) return null;
    if (this.next > 0 && !this.answeredLine(this.owed[this.next - 1])) return null;
    const line = concat([this.lines[this.next], new Uint8Array([10])]);
    this.next += 1;
    if (this.next === this.lines.length) this.linesOutBeforeLast = this.stdoutLines;
    return line;
  }

  answeredLine(owed) {
    if (!owed || !owed[1]) return true;
    const [number, , id, nullAllowed] = owed;
    const want = new Set([idKey(id)]);
    if (nullAllowed) want.add(idKey(null));
    const seen = this.replies.slice(this.answered);
    if (seen.some((k) => want.has(k))) { this.answered = this.replies.length; return true; }
    this.failure = seen.length
      ? `no reply with id ${shown(id)} to transcript line ${number}; the server answered with id(s) ` +
        `${seen.map((k) => k.slice(k.indexOf(":") + 1)).join(", ")} instead`
      : `hang: no reply to transcript line ${number} (id ${shown(id)}) before the server read its next line; ` +
        `does the server flush stdout after each line?`;
    return false;
  }

  write(chunk) {
    this.out.push(chunk);
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] !== 10) continue;
      this.partial.push(chunk.subarray(from, i));
      from = i + 1;
      const text = decoder.decode(concat(this.partial));
      this.partial = [];
      this.stdoutLines += 1;
      let id;
      try {
        const message = JSON.parse(text);
        if (message && typeof message === "object" && !("method" in message) && ("result" in message || "error" in message)) {
          id = message.id === undefined ? null : message.id;
          this.replies.push(idKey(id));
        }
      } catch (_) { /* not JSON: a stray line, shown as it is */ }
      this.onLine({ number: this.stdoutLines, text, id });
    }
    if (from < chunk.length) this.partial.push(chunk.subarray(from));
  }

  // After the server exits: an unterminated last line is still shown.
  finish() {
    if (this.partial.length) this.onLine({ number: this.stdoutLines + 1, text: decoder.decode(concat(this.partial)), unterminated: true });
    return concat(this.out);
  }
}
