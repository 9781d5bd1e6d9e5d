// The "Run it here" worker (a module worker started by run-here.js when the reader presses the button).
//
// It loads Pyodide from the site's own copy (assets/run/pyodide/, copied from the npm package by
// tools/site_assets.py; no CDN, no package downloads), then runs an example's Python twin exactly as
// `python server.py` would (__name__ == "__main__", sys.argv == ["server.py"], the file unmodified), feeding it the
// transcript one line at a time the way tools/run_examples.py does: Python's stdin asks for more only when the
// server reads, and before line N+1 is handed over, the reply to line N (if it is owed one) must already be on
// stdout. stdout and stderr are captured as raw bytes, so the comparison with the answer key is byte for byte.
// The wire check of a reader's own line is the tool's own code (tools/runex, copied to assets/run/runex/) run here.
import { loadPyodide } from "../assets/run/pyodide/pyodide.mjs";

const RUN = new URL("../assets/run/", import.meta.url);
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let pyodide = null;
const loaded = new Set();  // examples whose files are in Pyodide's file system

async function bytes(path) {
  const response = await fetch(new URL(path, RUN));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function start() {
  if (pyodide) return;
  pyodide = await loadPyodide({ indexURL: new URL("pyodide/", RUN).href, stdout: () => {}, stderr: () => {} });
  const manifest = JSON.parse(decoder.decode(await bytes("manifest.json")));
  for (const name of manifest.runex) {  // runex/__init__.py and the wire package (tools/runex/wire/)
    pyodide.FS.mkdirTree(`/tool/runex/${name}`.replace(/\/[^/]*$/, ""));
    pyodide.FS.writeFile(`/tool/runex/${name}`, await bytes(`runex/${name}`));
  }
  // The tool is imported from /tool, then /tool leaves sys.path: the twin sees a path as `python server.py` gives it.
  pyodide.runPython(`
import sys
sys.path.insert(0, "/tool")
from runex.wire import transcript as _runex_transcript, check as _runex_wire
sys.path.remove("/tool")
`);
}

async function files(example) {
  const dir = `/examples/${example}`;
  if (!loaded.has(example)) {
    pyodide.FS.mkdirTree(dir);
    for (const name of ["server.py", "transcript.jsonl", "answer_key.jsonl"])
      pyodide.FS.writeFile(`${dir}/${name}`, await bytes(`examples/${example}/${name}`));
    loaded.add(example);
  }
  return dir;
}

function splitLines(data) {
  const lines = [];
  let from = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 10) { lines.push(data.subarray(from, i)); from = i + 1; }
  if (from < data.length) lines.push(data.subarray(from));
  return lines;
}

function concat(chunks) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

function idKey(id) { return `${typeof id}:${JSON.stringify(id)}`; }

// The transcript as the tool reads it (runex.wire.transcript.read): which lines are owed a reply, and with which id.
function classify(path, rel) {
  const found = pyodide.runPython(`
import json
_lines, _ = _runex_transcript.read(__import__("pathlib").Path(${JSON.stringify(path)}), ${JSON.stringify(rel)})
json.dumps([[l.number, l.expects_reply, l.reply_id, l.null_reply_allowed] for l in _lines])
`);
  return JSON.parse(found).map(([number, expects, id, nullAllowed]) => ({ number, expects, id, nullAllowed }));
}

// The tool's own wire check on a run's stdout: transcript problems, late cancels and stdout problems, as text.
function wireProblems(path, rel, stdout) {
  pyodide.globals.set("_runex_stdout", stdout);
  const found = pyodide.runPython(`
import json, pathlib
_lines, _problems = _runex_transcript.read(pathlib.Path(${JSON.stringify(path)}), ${JSON.stringify(rel)})
_problems += _runex_wire.check_late_cancels(_lines, ${JSON.stringify(rel)})
_problems += _runex_wire.check_stdout(bytes(_runex_stdout.to_py()), _lines, "stdout", ${JSON.stringify(rel)})
json.dumps([[p.rule, p.file, p.line, str(p)] for p in _problems])
`);
  pyodide.globals.delete("_runex_stdout");
  return JSON.parse(found).map(([rule, file, line, text]) => ({ rule, file, line, text }));
}

// One run: the transcript (plus the reader's line, if any) fed to a fresh run of server.py, then end of input.
async function run({ example, extra, job }) {
  const say = (message) => postMessage({ ...message, job });
  const started = performance.now();
  await start();
  const dir = await files(example);
  const rel = `examples/${example}/transcript.jsonl`;
  let transcript = pyodide.FS.readFile(`${dir}/transcript.jsonl`);
  const baseLines = splitLines(transcript);
  if (extra != null) {
    transcript = concat([transcript, encoder.encode(extra.replace(/\n/g, " ") + "\n")]);
  }
  const path = extra != null ? `${dir}/with-your-line.jsonl` : `${dir}/transcript.jsonl`;
  if (extra != null) pyodide.FS.writeFile(path, transcript);
  const lines = splitLines(transcript);
  const owed = classify(path, rel);
  say({ type: "started", loadMs: performance.now() - started,
                transcript: baseLines.map(l => decoder.decode(l)) });

  const out = [], err = [];
  let partial = [];  // stdout bytes after the last newline
  const replies = [];  // id keys of the replies seen on stdout, in order (null id: "object:null")
  let stdoutLines = 0;
  setStdoutLines();
  function setStdoutLines() {
    pyodide.setStdout({ write(buffer) {
      const chunk = buffer.slice();
      out.push(chunk);
      let from = 0;
      for (let i = 0; i < chunk.length; i++) {
        if (chunk[i] !== 10) continue;
        partial.push(chunk.subarray(from, i));
        from = i + 1;
        const text = decoder.decode(concat(partial));
        partial = [];
        stdoutLines += 1;
        let id;
        try {
          const message = JSON.parse(text);
          if (message && typeof message === "object" && !("method" in message) && ("result" in message || "error" in message)) {
            id = message.id === undefined ? null : message.id;
            replies.push(idKey(id));
          }
        } catch (_) { /* not JSON: a stray line, shown as it is */ }
        say({ type: "stdout-line", number: stdoutLines, text, id, ms: performance.now() - started });
      }
      if (from < chunk.length) partial.push(chunk.subarray(from));
      return chunk.length;
    } });
  }
  pyodide.setStderr({ write(buffer) { err.push(buffer.slice()); return buffer.length; } });

  // stdin: the next line only when the server asks for it, and only once the previous line's reply is out.
  let next = 0, pending = null, answered = 0, failure = null, linesOutBeforeLast = 0;
  pyodide.setStdin({ read(buffer) {
    if (pending === null || pending.length === 0) {
      if (failure !== null || next >= lines.length) return 0;  // end of input: the server should exit
      if (next > 0) {
        const line = owed[next - 1];
        if (line && line.expects) {
          const want = new Set([idKey(line.id)]);
          if (line.nullAllowed) want.add(idKey(null));
          const seen = replies.slice(answered);
          if (!seen.some(k => want.has(k))) {
            // In the tool's words (tools/runex/run/stdio.py), for a server that asks for line N+1 before it
            // answers line N: the tool would wait for the reply and time out; here the server's read says it now.
            const shown = line.id === null ? "None" : typeof line.id === "string" ? `'${line.id}'` : String(line.id);
            failure = seen.length
              ? `no reply with id ${shown} to transcript line ${line.number}; the server answered with id(s) ` +
                `${seen.map(k => k.slice(k.indexOf(":") + 1)).join(", ")} instead`
              : `hang: no reply to transcript line ${line.number} (id ${shown}) before the server read its next ` +
                `line; does the server flush stdout after each line?`;
            return 0;
          }
          answered = replies.length;
        }
      }
      pending = concat([lines[next], new Uint8Array([10])]);
      next += 1;
      if (next === lines.length) linesOutBeforeLast = stdoutLines;
      say({ type: "fed", line: next });
    }
    const n = Math.min(buffer.length, pending.length);
    buffer.set(pending.subarray(0, n));
    pending = pending.subarray(n);
    return n;
  } });

  pyodide.globals.set("_run_dir", dir);
  const status = pyodide.runPython(`
def _run_as_main(folder):
    # What \`python server.py\` does in the example's folder: argv, sys.path[0], __main__, and its exit status.
    import os, runpy, sys, traceback
    sys.argv = ["server.py"]
    sys.path.insert(0, folder)
    old = os.getcwd()
    os.chdir(folder)
    status = 0
    try:
        runpy.run_path(folder + "/server.py", run_name="__main__")
    except SystemExit as exit:
        if exit.code is None:
            status = 0
        elif isinstance(exit.code, int):
            status = exit.code
        else:
            print(exit.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        sys.path.remove(folder)
        os.chdir(old)
    return status
_run_as_main(_run_dir)
`);
  pyodide.globals.delete("_run_dir");
  const stdout = concat(out);
  if (partial.length) say({ type: "stdout-line", number: stdoutLines + 1, text: decoder.decode(concat(partial)),
                                     unterminated: true, ms: performance.now() - started });
  const problems = wireProblems(path, rel, stdout);
  let compare = null;
  if (extra == null) {
    const key = pyodide.FS.readFile(`${dir}/answer_key.jsonl`);
    compare = compareBytes(stdout, key);
  }
  return { stdout, stderr: concat(err), status, failure, problems, compare, baseLines: baseLines.length, baseLinesOut: linesOutBeforeLast,
           lines: lines.length, ms: performance.now() - started };
}

// Byte for byte; on a difference, the first line that differs (1-based) and both sides of it.
function compareBytes(got, want) {
  if (got.length === want.length && got.every((b, i) => b === want[i])) return { equal: true };
  const a = splitLines(got), b = splitLines(want);
  let i = 0;
  while (i < a.length && i < b.length && a[i].length === b[i].length && a[i].every((x, j) => x === b[i][j])) i++;
  return { equal: false, line: i + 1, got: i < a.length ? decoder.decode(a[i]) : null,
           want: i < b.length ? decoder.decode(b[i]) : null };
}

let queue = Promise.resolve();  // one run at a time: Pyodide has one stdin
onmessage = (event) => {
  const request = event.data;
  queue = queue.then(async () => {
    try {
      const result = await run(request);
      postMessage({ type: "done", job: request.job, ...result }, [result.stdout.buffer, result.stderr.buffer]);
    } catch (error) {
      postMessage({ type: "error", job: request.job, message: String(error && error.message || error) });
    }
  });
};
