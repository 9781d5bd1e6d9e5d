// The "Run it here" worker for Rust (a module worker started by run-here.js when the reader presses the button).
//
// It runs the example's Rust implementation as the tool built it for wasm32-wasip1 (assets/run/examples/NAME/
// server.wasm, copied by tools/site_assets.py from the tool's build cache) under @bjorn3/browser_wasi_shim, the
// site's own copy in assets/run/wasi/. stdin hands over the next transcript line only when the server reads again
// after answering the last (run-here-lines.js); stdout and stderr are kept as raw bytes for a byte-for-byte
// comparison with the answer key. No argument, no environment, no file system: what the sandbox gives it too, less.
// A server that never exits blocks this worker; run-here.js terminates it after its time limit.
import { WASI, Fd, wasi as defs } from "../assets/run/wasi/index.js";
import { Conversation, compareBytes, concat, splitLines } from "./run-here-lines.js";

const RUN = new URL("../assets/run/", import.meta.url);
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let manifest = null;
const loaded = new Map();  // example -> {module, transcript, key, owed}: compiled once per page

async function bytes(path) {
  const response = await fetch(new URL(path, RUN));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function load(example) {
  if (loaded.has(example)) return loaded.get(example);
  if (!manifest) manifest = JSON.parse(decoder.decode(await bytes("manifest.json")));
  const entry = manifest.examples[example];
  if (!entry || !entry.rust) throw new Error(`this site has no Rust module for ${example}`);
  const [wasm, transcript, key] = await Promise.all(
    ["server.wasm", "transcript.jsonl", "answer_key.jsonl"].map((name) => bytes(`examples/${example}/${name}`)));
  const files = { module: await WebAssembly.compile(wasm), transcript, key, owed: entry.rust.owed };
  loaded.set(example, files);
  return files;
}

// A character device, as a terminal or a pipe looks to the server.
const characterDevice = () => ({ ret: defs.ERRNO_SUCCESS, fdstat: new defs.Fdstat(defs.FILETYPE_CHARACTER_DEVICE, 0) });

class Stdin extends Fd {
  constructor(conversation) { super(); this.conversation = conversation; this.pending = new Uint8Array(0); }
  fd_fdstat_get() { return characterDevice(); }
  fd_read(size) {
    if (this.pending.length === 0) this.pending = this.conversation.nextLine() || new Uint8Array(0);
    const data = this.pending.slice(0, size);
    this.pending = this.pending.subarray(data.length);
    return { ret: defs.ERRNO_SUCCESS, data };
  }
}

class Sink extends Fd {
  constructor(write) { super(); this.write = write; }
  fd_fdstat_get() { return characterDevice(); }
  fd_write(data) { this.write(data.slice()); return { ret: defs.ERRNO_SUCCESS, nwritten: data.byteLength }; }
}

async function run({ example, extra, job }) {
  const say = (message) => postMessage({ ...message, job });
  const started = performance.now();
  const files = await load(example);
  const baseLines = splitLines(files.transcript);
  const lines = extra == null ? baseLines : [...baseLines, encoder.encode(extra.replace(/\n/g, " "))];
  say({ type: "started", loadMs: performance.now() - started, transcript: baseLines.map((l) => decoder.decode(l)) });

  const conversation = new Conversation(lines, files.owed,
    (line) => say({ type: "stdout-line", ...line, ms: performance.now() - started }));
  const err = [];
  const wasi = new WASI(["server"], [], [new Stdin(conversation), new Sink((c) => conversation.write(c)),
                                         new Sink((c) => err.push(c))]);
  const instance = await WebAssembly.instantiate(files.module, { wasi_snapshot_preview1: wasi.wasiImport });
  let status = 0, trap = null;
  try {
    status = wasi.start(instance);
  } catch (error) {  // a panic aborts: wasm's `unreachable`, where a native build would exit with 101
    trap = `the server stopped with a WebAssembly trap (${error && error.message || error}), as a panic does`;
    status = null;
  }
  const stdout = conversation.finish();
  const failure = [conversation.failure, trap].filter(Boolean).join("; ") || null;
  return { stdout, stderr: concat(err), status, failure, problems: null,
           compare: extra == null ? compareBytes(stdout, files.key) : null, baseLines: baseLines.length,
           baseLinesOut: conversation.linesOutBeforeLast, lines: lines.length, ms: performance.now() - started };
}

let queue = Promise.resolve();  // one run at a time, in the order asked
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
