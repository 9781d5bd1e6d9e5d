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
import { Conversation, compareBytes, concat, splitLines } from "./run-here-lines.js";

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

  // stdout split into lines as written; stdin: the next line only when the server asks for it, and only once the
  // previous line's reply is out (run-here-lines.js, shared with the Rust worker).
  const conversation = new Conversation(lines, owed.map((l) => [l.number, l.expects, l.id, l.nullAllowed]),
    (line) => say({ type: "stdout-line", ...line, ms: performance.now() - started }));
  const err = [];
  pyodide.setStdout({ write(buffer) { conversation.write(buffer.slice()); return buffer.length; } });
  pyodide.setStderr({ write(buffer) { err.push(buffer.slice()); return buffer.length; } });
  let pending = null;
  pyodide.setStdin({ read(buffer) {
    if (pending === null || pending.length === 0) {
      pending = conversation.nextLine();
      if (pending === null) return 0;  // end of input: the server should exit
      say({ type: "fed", line: conversation.next });
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
  const stdout = conversation.finish();
  const failure = conversation.failure;
  const problems = wireProblems(path, rel, stdout);
  let compare = null;
  if (extra == null) {
    const key = pyodide.FS.readFile(`${dir}/answer_key.jsonl`);
    compare = compareBytes(stdout, key);
  }
  return { stdout, stderr: concat(err), status, failure, problems, compare, baseLines: baseLines.length, baseLinesOut: conversation.linesOutBeforeLast,
           lines: lines.length, ms: performance.now() - started };
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
