// "Run it here": a button above every conversation view whose example the reader's browser can run (the view carries
// data-example, and data-rust and/or data-python; tools/runex/paste/run_here.py decides, and data-not-here says why a
// language cannot). Nothing loads until it is pressed: then a worker runs the chosen server on the transcript, the
// Rust implementation built for wasm32-wasip1 (run-here-wasm-worker.js) or the Python twin in Pyodide
// (run-here-worker.js), or both side by side. Without JavaScript, or with the button never pressed, the page is
// exactly the pasted view.
(function () {
  "use strict";
  const script = document.currentScript;
  const base = new URL("./", script ? script.src : location.href);  // .../javascripts/
  // A server's run, from its start (once loaded) to its exit; a server that loops is stopped then. The examples
  // answer a whole transcript in milliseconds, so this only ever catches a server that never exits.
  const TIME_LIMIT_MS = 10000;
  const RUNTIMES = {
    rust: { worker: "run-here-wasm-worker.js", label: "Rust", loading: "Loading the Rust server (WebAssembly)…",
            running: "The Rust server is running…" },
    python: { worker: "run-here-worker.js", label: "Python", loading: "Starting Python in your browser…",
              running: "Python is running the twin…" },
  };

  // One worker per language, made on first use; a run past the time limit terminates it (the next run makes anew).
  function runner(kind) {
    let worker = null, jobs = 0;
    const waiting = new Map();  // job -> {onEvent, resolve, timer}
    function stop(reason) {
      if (worker) worker.terminate();
      worker = null;
      for (const [job, entry] of waiting) { clearTimeout(entry.timer); entry.resolve({ type: reason.type, job, message: reason.message }); }
      waiting.clear();
    }
    function get() {
      if (worker) return worker;
      worker = new Worker(new URL(RUNTIMES[kind].worker, base), { type: "module" });
      worker.onmessage = (event) => {
        const message = event.data, entry = waiting.get(message.job);
        if (!entry) return;
        if (message.type === "started") {
          entry.timer = setTimeout(() => stop({ type: "timeout",
            message: `the ${RUNTIMES[kind].label} server did not exit within ${TIME_LIMIT_MS / 1000} s of its start ` +
                     `and was stopped (its worker terminated); a server must exit when its stdin ends` }), TIME_LIMIT_MS);
        }
        if (message.type === "done" || message.type === "error") {
          clearTimeout(entry.timer); waiting.delete(message.job); entry.resolve(message);
        } else entry.onEvent(message);
      };
      worker.onerror = (event) => stop({ type: "error", message: event.message || "the worker failed to start" });
      return worker;
    }
    return (example, extra, onEvent) => new Promise((resolve) => {
      const job = ++jobs;
      const w = get();
      waiting.set(job, { onEvent, resolve, timer: null });
      w.postMessage({ type: "run", job, example, extra });
    });
  }
  const runners = { rust: runner("rust"), python: runner("python") };

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  const decoder = new TextDecoder();

  // A control busy with a run says so (aria-disabled) and ignores presses, but keeps the keyboard's focus, which
  // `disabled` would drop to the top of the page.
  function busy(control, on) {
    if (on) control.setAttribute("aria-disabled", "true"); else control.removeAttribute("aria-disabled");
  }
  const isBusy = (control) => control.getAttribute("aria-disabled") === "true";

  // Output that scrolls is reached and scrolled with the keyboard, and named for a screen reader.
  function scrollBox(className, name) {
    const box = el("pre", className);
    box.tabIndex = 0;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", name);
    return box;
  }

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

  function note(view) {
    const { rust, python } = view.dataset;
    const servers = [rust && "the Rust server (WebAssembly, built by CI)", python && "the Python twin (Pyodide, 13 MB)"];
    return `Runs ${servers.filter(Boolean).join(" or ")}${rust && python ? ", or both side by side," : ""} in your ` +
      `browser, fed the transcript one message at a time as the tool does; nothing loads before you press. ` +
      (rust && python ? "CI holds both to the same answer key." : "CI holds it to this answer key.");
  }

  function chooser(view, box) {
    const kinds = ["rust", "python"].filter((k) => view.dataset[k]);
    if (kinds.length === 2) kinds.push("both");
    const field = el("fieldset", "run-choice");
    field.append(el("legend", null, "Server"));
    for (const kind of kinds) {
      const label = el("label"), input = el("input");
      Object.assign(input, { type: "radio", name: `run-choice-${box.dataset.example}`, value: kind, checked: kind === kinds[0] });
      label.append(input, " " + (kind === "both" ? "Both" : RUNTIMES[kind].label));
      field.append(label);
    }
    if (kinds.length === 1) field.hidden = true;
    return field;
  }

  const chosen = (box) => {
    const kind = box.querySelector(".run-choice input:checked").value;
    return kind === "both" ? ["rust", "python"] : [kind];
  };

  // Why a language cannot run here: data-not-here is [[language, reason], ...], one reason per language.
  function whyNot(reasons) {
    const why = el("div", "run-here-why");
    why.append(el("p", null, "Not in your browser:"));
    const list = el("ul");
    for (const [language, reason] of reasons) {
      const item = el("li");
      item.append(el("strong", null, language), `: ${reason.replace(/\.$/, "")}.`);
      list.append(item);
    }
    why.append(list);
    return why;
  }

  function setUp(view) {
    const example = view.dataset.example;
    const runs = view.dataset.rust || view.dataset.python;
    // An example that runs in no language here says why once per page, however many parts of its view the page shows.
    if (!runs && document.querySelector(`.run-here[data-example="${CSS.escape(example)}"]`)) return;
    const box = el("div", "run-here");
    box.dataset.example = example;
    view.before(box);
    if (view.dataset.notHere) box.append(whyNot(JSON.parse(view.dataset.notHere)));
    if (!runs) return;
    const button = el("button", "md-button run-here-button", "Run it here");
    button.type = "button";
    const head = el("div", "run-here-head");  // button, choice and note on one line: the view moves down by little
    head.append(button, chooser(view, box), el("p", "run-here-note", note(view)));
    box.prepend(head);

    button.addEventListener("click", async () => {
      if (isBusy(button)) return;
      busy(button, true);
      const pressed = performance.now();
      for (const key of ["firstReplyMs", "state"]) delete box.dataset[key];
      const kinds = chosen(box);
      const output = el("div", "run-output");  // a run again replaces the last run's output
      output.dataset.lanes = String(kinds.length);
      const previous = box.querySelector(".run-output");
      if (previous) previous.replaceWith(output); else head.after(output);
      for (const old of view.querySelectorAll(".run-mark")) old.remove();
      let transcript = [];
      const results = await Promise.all(kinds.map((kind) => runLane(view, box, output, kind, pressed, (lines) => { transcript = lines; })));
      const states = results.map((r) => r.type === "done" ? "done" : r.type === "timeout" ? "stopped" : "error");
      box.dataset.state = states.find((s) => s !== "done") || "done";
      if (kinds.length === 1 && results[0].type === "done") box.runHereStdout = results[0].stdout;
      busy(button, false);
      button.textContent = "Run it again";
      if (box.dataset.state === "done" && !box.querySelector(".run-edit")) box.append(editor(example, transcript, box));
    });
  }

  // One language's run of the transcript, in its own lane of the output.
  async function runLane(view, box, output, kind, pressed, onTranscript) {
    const key = `examples/${box.dataset.example}/answer_key.jsonl`;
    const lane = el("div", "run-lane");
    lane.dataset.runtime = kind;
    const status = el("p", "run-status", RUNTIMES[kind].loading);
    status.setAttribute("role", "status");  // read out as it changes: loading, running, done
    const who = RUNTIMES[kind].label;
    const stdout = scrollBox("run-stdout", `${who}: stdout (the wire)`), stderr = scrollBox("run-stderr", `${who}: stderr (the log)`);
    const verdict = el("p", "run-verdict");
    verdict.setAttribute("role", "status");
    lane.append(el("p", "run-lane-title", `${RUNTIMES[kind].label}: ${view.dataset[kind]}`), status,
                el("p", "run-label", "stdout (the wire)"), stdout, el("p", "run-label", "stderr (the log)"), stderr, verdict);
    output.append(lane);
    const result = await runners[kind](box.dataset.example, null, (message) => {
      if (message.type === "started") { onTranscript(message.transcript); status.textContent = RUNTIMES[kind].running; }
      if (message.type === "stdout-line") {
        stdout.textContent += message.text + (message.unterminated ? "" : "\n");
        const ms = String(Math.round(performance.now() - pressed));
        if (!lane.dataset.firstReplyMs) lane.dataset.firstReplyMs = ms;
        if (!box.dataset.firstReplyMs) box.dataset.firstReplyMs = ms;
        markExchange(view, message, kind);
      }
    });
    lane.dataset.state = result.type;
    if (result.type !== "done") {
      status.textContent = result.type === "timeout" ? `Stopped: ${result.message}.`
        : `${RUNTIMES[kind].label} could not run here: ${result.message}`;
      return result;
    }
    stderr.textContent = decoder.decode(result.stderr);
    status.textContent = `Done: the server exited with status ${result.status ?? "(none)"} after ${result.lines} lines` +
      (result.failure ? `; ${result.failure}` : "") + ` (${(result.ms / 1000).toFixed(1)} s).`;
    stdout.dataset.bytes = String(result.stdout.length);
    const c = result.compare;
    verdict.dataset.equal = String(c.equal);
    verdict.textContent = c.equal ? `The browser's stdout equals ${key} byte for byte.`
      : `The browser's stdout differs from ${key} at line ${c.line}: the answer key has ` +
        `${c.want === null ? "no line" : JSON.stringify(c.want)}, the browser wrote ${c.got === null ? "no line" : JSON.stringify(c.got)}.`;
    lane.runHereStdout = result.stdout;  // the exact bytes, for anyone who wants to compare them (the browser tests do)
    return result;
  }

  // Mark the exchange a reply belongs to, as it arrives, with whether it equals the checked-in reply line: the first
  // exchange not marked yet whose pasted reply is this very line, else the first with the reply's id (a line the
  // server answers with a null id, such as one it cannot parse, is paired by the view in order, not by id).
  function markExchange(view, message, kind) {
    if (message.id === undefined) return;
    const raw = (e) => { const code = e.querySelector(".exchange-reply details.raw-line pre code"); return code && code.textContent.replace(/\n$/, ""); };
    const open = [...view.querySelectorAll(".exchange[data-id]")].filter((e) => !e.querySelector(`.run-mark[data-runtime="${kind}"]`));
    const same = open.find((e) => raw(e) === message.text);
    const exchange = same || open.find((e) => e.dataset.id === JSON.stringify(message.id));
    if (!exchange) return;
    const who = RUNTIMES[kind].label;
    const mark = el("p", "run-mark", same ? `${who} in your browser: the same reply line.`
      : `${who} in your browser replied differently: ${message.text}`);
    mark.dataset.same = String(Boolean(same));
    mark.dataset.runtime = kind;
    exchange.append(mark);
  }

  // The reader's own line, sent after the transcript to the server chosen above (or both). A server may keep state in
  // memory (state-handles does), so "the running server" is reproduced by running it again on the whole transcript
  // followed by the new line; the reply is what it writes after the transcript's replies.
  function editor(example, transcript, runBox) {
    const box = el("div", "run-edit");
    const label = el("label", "run-label", "Send a line of your own after the transcript, to the server chosen above (edit it, or write a new one):");
    const field = el("textarea", "run-line");
    label.htmlFor = field.id = `run-line-${example}`;
    box.append(label);
    Object.assign(field, { rows: 3, spellcheck: false, value: prefill(transcript) });
    const send = el("button", "md-button run-send", "Send");
    send.type = "button";
    const replies = el("div", "run-replies"), summary = el("p", "run-diff-summary");
    box.append(field, send, replies, summary);
    send.addEventListener("click", async () => {
      if (isBusy(send)) return;
      busy(send, true);
      box.dataset.state = "running";
      const kinds = chosen(runBox);
      replies.replaceChildren();
      replies.dataset.lanes = String(kinds.length);
      summary.textContent = "";
      delete summary.dataset.same;
      const lanes = kinds.map((kind) => replyLane(kind));
      replies.append(...lanes.map((l) => l.node));
      const results = await Promise.all(kinds.map((kind, i) => runners[kind](example, field.value, () => {})
        .then((result) => showReply(lanes[i], kind, result, kinds.length))));
      busy(send, false);
      box.dataset.state = results.every(Boolean) ? "done" : "error";
      if (kinds.length === 2 && results.every(Boolean)) markDifferences(lanes, results, summary);
    });
    return box;
  }

  function replyLane(kind) {
    const node = el("div", "run-reply-lane");
    node.dataset.runtime = kind;
    const said = el("p", "run-edit-status", "Running…"), problems = el("ul", "run-problems");
    said.setAttribute("role", "status");
    const reply = scrollBox("run-reply", `${RUNTIMES[kind].label}: the reply to your line`);
    node.append(el("p", "run-lane-title", RUNTIMES[kind].label), said, reply, problems);
    return { node, said, reply, problems };
  }

  // The lines the server wrote after the transcript's own replies, or null when it did not run.
  function showReply(lane, kind, result, lanes) {
    const who = RUNTIMES[kind].label;
    if (result.type !== "done") {
      lane.said.textContent = result.type === "timeout" ? `Stopped: ${result.message}.` : `${who} could not run here: ${result.message}`;
      return null;
    }
    const mine = decoder.decode(result.stdout).split("\n").slice(result.baseLinesOut ?? 0).filter((l) => l !== "");
    lane.reply.textContent = mine.length ? mine.join("\n") : "(no reply on stdout)";
    const ownLine = result.lines;  // the reader's line is the transcript's last
    const found = (result.problems || []).filter((p) => (p.file !== "stdout" && p.line === ownLine) ||
                                                       (p.file === "stdout" && p.line > (result.baseLinesOut ?? 0)));
    for (const p of found) lane.problems.append(el("li", "run-problem", p.text));
    if (result.failure) lane.problems.append(el("li", "run-problem", result.failure));
    lane.said.textContent = result.problems === null
      ? (result.failure ? "The run reports:" : lanes === 2 ? "The Rust server's reply; the tool's wire check of your line is Python's."
        : "The Rust server's reply. (The tool's wire check of your line runs with Python: choose Python or Both.)")
      : found.length || result.failure ? "The tool's wire check reports:" : "No wire problem: the tool's check passes this line.";
    return mine;
  }

  // Both servers' replies to the same line: each line that differs is marked from its first differing character.
  function markDifferences(lanes, [a, b], summary) {
    let first = null;
    for (const [lane, mine, other] of [[lanes[0], a, b], [lanes[1], b, a]]) {
      lane.reply.replaceChildren();
      mine.forEach((line, i) => {
        const theirs = other[i] ?? "";
        let at = 0;
        while (at < line.length && line[at] === theirs[at]) at++;
        if (i > 0) lane.reply.append("\n");
        if (line === theirs) { lane.reply.append(line); return; }
        if (first === null) first = { line: i + 1, column: at + 1 };
        lane.reply.append(line.slice(0, at), el("mark", "run-diff", line.slice(at) || " "));
      });
    }
    if (a.length !== b.length && first === null) first = { line: Math.min(a.length, b.length) + 1, column: 1 };
    summary.dataset.same = String(first === null);
    summary.textContent = first === null ? "Rust and Python wrote the same reply, byte for byte."
      : `Rust and Python wrote different replies: the first difference is at line ${first.line}, character ${first.column} (marked).`;
  }

  function init() {
    for (const view of document.querySelectorAll(".conversation[data-example]")) {
      if (!view.previousElementSibling || !view.previousElementSibling.classList.contains("run-here")) setUp(view);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
