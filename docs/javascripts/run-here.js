// "Run it here": a button above every conversation view whose example has a stdlib-only Python twin (the view
// carries data-example and data-python; tools/runex/paste/run_here.py decides). Nothing loads until it is pressed: then a
// worker (run-here-worker.js) starts Pyodide from this site's own copy and runs the twin on the transcript.
// Without JavaScript, or with the button never pressed, the page is exactly the pasted view.
(function () {
  "use strict";
  const script = document.currentScript;
  const base = new URL("./", script ? script.src : location.href);  // .../javascripts/
  let worker = null, jobs = 0;
  const waiting = new Map();  // job -> {onEvent, resolve}

  function getWorker() {
    if (worker) return worker;
    worker = new Worker(new URL("run-here-worker.js", base), { type: "module" });
    worker.onmessage = (event) => {
      const message = event.data, entry = waiting.get(message.job);
      if (!entry) return;
      if (message.type === "done" || message.type === "error") { waiting.delete(message.job); entry.resolve(message); }
      else entry.onEvent(message);
    };
    worker.onerror = (event) => {
      for (const [job, entry] of waiting) entry.resolve({ type: "error", job, message: event.message || "the worker failed to start" });
      waiting.clear();
    };
    return worker;
  }

  function run(example, extra, onEvent) {
    const job = ++jobs;
    return new Promise((resolve) => {
      waiting.set(job, { onEvent, resolve });
      getWorker().postMessage({ type: "run", job, example, extra });
    });
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  const decoder = new TextDecoder();

  // A line for the reader to edit: the first tools/call of the transcript (else its last request), with an id the
  // transcript does not use, so the tool's duplicate-id check does not get in the way of the edit.
  function prefill(lines) {
    const parsed = lines.map((text) => { try { return JSON.parse(text); } catch (_) { return null; } });
    const requests = parsed.filter((m) => m && typeof m === "object" && typeof m.method === "string" && "id" in m);
    const chosen = requests.find((m) => m.method === "tools/call") || requests[requests.length - 1];
    if (!chosen) return "";
    const ids = requests.map((m) => m.id).filter((id) => Number.isInteger(id));
    return JSON.stringify({ ...chosen, id: (ids.length ? Math.max(...ids) : 0) + 1 });
  }

  function setUp(view) {
    const example = view.dataset.example, python = view.dataset.python;
    const key = `examples/${example}/answer_key.jsonl`;
    const box = el("div", "run-here");
    box.dataset.example = example;
    const button = el("button", "md-button run-here-button", "Run it here");
    button.type = "button";
    const note = el("p", "run-here-note",
      `Runs the Python twin, ${python}, in your browser (Pyodide, 13 MB from this site, loaded only when pressed), ` +
      `and feeds it the transcript one message at a time, as the tool does. The Rust server is the one CI compiled; CI holds ` +
      `both to the same answer key.`);
    const head = el("div", "run-here-head");  // button and note on one line: the view moves down by little
    head.append(button, note);
    box.append(head);
    view.before(box);

    button.addEventListener("click", async () => {
      button.disabled = true;
      const pressed = performance.now();
      delete box.dataset.firstReplyMs;
      delete box.dataset.state;
      const output = el("div", "run-output");  // a run again replaces the last run's output
      const previous = box.querySelector(".run-output");
      if (previous) previous.replaceWith(output); else head.after(output);
      const status = el("p", "run-status", "Starting Python in your browser…");
      const outLabel = el("p", "run-label", "stdout (the wire)");
      const stdout = el("pre", "run-stdout");
      const errLabel = el("p", "run-label", "stderr (the log)");
      const stderr = el("pre", "run-stderr");
      const verdict = el("p", "run-verdict");
      output.append(status, outLabel, stdout, errLabel, stderr, verdict);
      for (const old of view.querySelectorAll(".run-mark")) old.remove();
      let transcript = [];
      const result = await run(example, null, (message) => {
        if (message.type === "started") { transcript = message.transcript; status.textContent = "Python is running the twin…"; }
        if (message.type === "stdout-line") {
          stdout.textContent += message.text + (message.unterminated ? "" : "\n");
          if (!box.dataset.firstReplyMs) box.dataset.firstReplyMs = String(Math.round(performance.now() - pressed));
          markExchange(view, message);
        }
      });
      if (result.type === "error") {
        status.textContent = `Python could not run here: ${result.message}`;
        box.dataset.state = "error";
        button.disabled = false;
        return;
      }
      stderr.textContent = decoder.decode(result.stderr);
      status.textContent = `Done: the server exited with status ${result.status} after ${result.lines} lines` +
        (result.failure ? `; ${result.failure}` : "") + ` (${(result.ms / 1000).toFixed(1)} s).`;
      stdout.dataset.bytes = String(result.stdout.length);
      if (result.compare.equal) {
        verdict.textContent = `The browser's stdout equals ${key} byte for byte.`;
        verdict.dataset.equal = "true";
      } else {
        const c = result.compare;
        verdict.textContent = `The browser's stdout differs from ${key} at line ${c.line}: the answer key has ` +
          `${c.want === null ? "no line" : JSON.stringify(c.want)}, the browser wrote ${c.got === null ? "no line" : JSON.stringify(c.got)}.`;
        verdict.dataset.equal = "false";
      }
      // Keep the exact bytes for anyone who wants to compare them (the browser tests do).
      box.runHereStdout = result.stdout;
      box.dataset.state = "done";
      button.disabled = false;
      button.textContent = "Run it again";
      if (!box.querySelector(".run-edit")) box.append(editor(example, transcript));
    });
  }

  // Mark the exchange a reply belongs to, as it arrives, with whether it equals the checked-in reply line.
  function markExchange(view, message) {
    if (message.id === undefined) return;
    const exchange = view.querySelector(`.exchange[data-id="${CSS.escape(JSON.stringify(message.id))}"]`);
    if (!exchange || exchange.querySelector(".run-mark")) return;
    const raw = exchange.querySelector('.exchange-reply details.raw-line pre code');
    const same = raw && raw.textContent.replace(/\n$/, "") === message.text;
    const mark = el("p", "run-mark", same ? "The browser's reply: the same line." : "The browser's reply differs: " + message.text);
    mark.dataset.same = String(Boolean(same));
    exchange.append(mark);
  }

  // The reader's own line, sent to the server after the transcript. The protocol is stateless, but a twin may
  // keep state in memory (state-handles does), so "the running server" is reproduced faithfully by running the twin
  // again on the whole transcript followed by the new line; the reply is what it writes after the transcript's
  // replies, and the wire problems are what the tool's own check (tools/runex, run here) reports for that line.
  function editor(example, transcript) {
    const box = el("div", "run-edit");
    box.append(el("p", "run-label", "Send a line of your own after the transcript (edit it, or write a new one):"));
    const field = el("textarea", "run-line");
    field.rows = 3;
    field.spellcheck = false;
    field.value = prefill(transcript);
    const send = el("button", "md-button run-send", "Send");
    send.type = "button";
    const reply = el("pre", "run-reply");
    const problems = el("ul", "run-problems");
    const said = el("p", "run-edit-status");
    box.append(field, send, said, reply, problems);
    send.addEventListener("click", async () => {
      send.disabled = true;
      box.dataset.state = "running";
      said.textContent = "Running…";
      reply.textContent = "";
      problems.replaceChildren();
      const result = await run(example, field.value, () => {});
      send.disabled = false;
      if (result.type === "error") { said.textContent = `Python could not run here: ${result.message}`; box.dataset.state = "error"; return; }
      const text = decoder.decode(result.stdout).split("\n");
      const ownLine = result.lines;  // the reader's line is the transcript's last
      // What the server wrote after the transcript's own replies: the stdout lines past those of a plain run.
      const mine = text.slice(result.baseLinesOut ?? 0).filter((l) => l !== "");
      reply.textContent = mine.length ? mine.join("\n") : "(no reply on stdout)";
      const found = result.problems.filter((p) => (p.file !== "stdout" && p.line === ownLine) ||
                                                  (p.file === "stdout" && p.line > (result.baseLinesOut ?? 0)));
      for (const p of found) problems.append(el("li", "run-problem", p.text));
      if (result.failure) problems.append(el("li", "run-problem", result.failure));
      said.textContent = found.length || result.failure ? "The tool's wire check reports:" : "No wire problem: the tool's check passes this line.";
      box.dataset.state = "done";
    });
    return box;
  }

  function init() {
    for (const view of document.querySelectorAll(".conversation[data-example]")) {
      if (!view.previousElementSibling || !view.previousElementSibling.classList.contains("run-here")) setUp(view);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
