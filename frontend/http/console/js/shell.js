// The SQL shell: statements run on one WebSocket session (so SET, BEGIN and
// cursors carry over between runs). A plain result is a table; a streaming
// one (SUBSCRIBE) is shown live as its current contents (each update's
// mz_diff applied) above the most recent updates. Stop closes the socket,
// which cancels the running statement; the next run opens a new session.

import { WsSession, ApiError } from "./api.js";
import { el, table, cellText, showError } from "./ui.js";

const kMaxRowsShown = 1000;
const kUpdatesShown = 50;

let session = null;
let running = false;

function sessionOrNew(setState) {
  if (!session || session.closed) {
    session = new WsSession(() => {
      if (!running) setState("session closed; the next run opens a new one");
    });
  }
  return session;
}

// One statement's output box, fed the session's messages.
class ResultBox {
  constructor(container) {
    this.node = el("div", { class: "result" });
    container.append(this.node);
    this.columns = null;
    this.rows = [];
    this.rowCount = 0;
    this.streaming = false;
    this.scheduled = false;
  }

  starting(payload) {
    this.streaming = payload.is_streaming;
    if (this.streaming) {
      this.state = new Map();  // values as JSON -> [values, count]
      this.updates = [];
      this.node.classList.add("streaming");
    }
  }

  describe(payload) {
    this.columns = payload.columns.map((c) => c.name);
    if (this.streaming) {
      this.timeIndex = this.columns.indexOf("mz_timestamp");
      this.diffIndex = this.columns.indexOf("mz_diff");
      this.progressIndex = this.columns.indexOf("mz_progressed");
    }
    this.render();
  }

  row(values) {
    this.rowCount++;
    if (this.streaming) {
      this.applyUpdate(values);
    } else if (this.rows.length < kMaxRowsShown) {
      this.rows.push(values);
    }
    this.schedule();
  }

  applyUpdate(values) {
    if (this.progressIndex >= 0 && values[this.progressIndex] === true) {
      this.lastTime = values[this.timeIndex];
      return;
    }
    const data = values.filter((_, i) => i !== this.timeIndex && i !== this.diffIndex && i !== this.progressIndex);
    const key = JSON.stringify(data);
    const diff = this.diffIndex >= 0 ? Number(values[this.diffIndex]) : 1;
    const entry = this.state.get(key) || [data, 0];
    entry[1] += diff;
    if (entry[1] === 0) this.state.delete(key);
    else this.state.set(key, entry);
    this.lastTime = this.timeIndex >= 0 ? values[this.timeIndex] : this.lastTime;
    this.updates.push(values);
    if (this.updates.length > kUpdatesShown) this.updates.shift();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.render();
    });
  }

  complete(tag) {
    this.tag = tag;
    this.live = false;
    this.render();
  }

  error(payload) {
    this.errorText = `ERROR: ${payload.message}` + (payload.code ? ` (${payload.code})` : "") +
      (payload.detail ? `\nDETAIL: ${payload.detail}` : "") + (payload.hint ? `\nHINT: ${payload.hint}` : "");
    this.live = false;
    this.render();
  }

  notice(payload) {
    this.notices = this.notices || [];
    this.notices.push(`${(payload.severity || "notice").toUpperCase()}: ${payload.message}`);
    this.render();
  }

  render() {
    const parts = [];
    if (this.notices) parts.push(el("pre", { class: "notice" }, this.notices.join("\n")));
    if (this.columns && this.streaming) {
      const dataColumns = this.columns.filter((_, i) => i !== this.timeIndex && i !== this.diffIndex &&
                                                        i !== this.progressIndex);
      const current = [...this.state.values()].slice(0, kMaxRowsShown).map(([data, count]) => [...data, count]);
      parts.push(el("div", { class: "live-head" },
        el("span", { class: this.tag || this.errorText ? "badge" : "badge live" }, this.tag || this.errorText ? "ended" : "live"),
        ` ${this.rowCount} updates, ${this.state.size} distinct rows`,
        this.lastTime ? ` — as of ${this.lastTime}` : ""));
      parts.push(el("h4", {}, "Current contents"));
      parts.push(table([...dataColumns, "count"], current, { className: "grid subscribe-state" }));
      parts.push(el("h4", {}, `Recent updates (last ${kUpdatesShown})`));
      parts.push(table(this.columns, [...this.updates].reverse(), { className: "grid subscribe-updates" }));
    } else if (this.columns) {
      parts.push(table(this.columns, this.rows, { className: "grid query-result" }));
      if (this.rowCount > this.rows.length) parts.push(el("p", { class: "muted" }, `showing ${this.rows.length} of ${this.rowCount} rows`));
    }
    if (this.errorText) parts.push(el("pre", { class: "error" }, this.errorText));
    if (this.tag) parts.push(el("p", { class: "tag" }, this.tag));
    this.node.replaceChildren(...parts);
  }
}

export function initShell() {
  const input = document.getElementById("sql");
  const runButton = document.getElementById("run");
  const stopButton = document.getElementById("stop");
  const state = document.getElementById("shell-state");
  const results = document.getElementById("results");
  const setState = (text) => (state.textContent = text);

  async function run() {
    const query = input.value.trim();
    if (!query || running) return;
    running = true;
    runButton.disabled = true;
    stopButton.disabled = false;
    setState("running…");
    results.replaceChildren();
    const s = sessionOrNew(setState);
    let box = null;
    let closed = false;
    const started = performance.now();
    try {
      await s.ready;
      await s.run(query, (type, payload) => {
        switch (type) {
          case "CommandStarting":
            box = new ResultBox(results);
            box.starting(payload);
            if (payload.is_streaming) setState("streaming — Stop ends it");
            break;
          case "Rows":
            box.describe(payload);
            break;
          case "Row":
            box.row(payload);
            break;
          case "CommandComplete":
            box.complete(payload);
            break;
          case "Error":
            (box || (box = new ResultBox(results))).error(payload);
            break;
          case "Notice":
            (box || (box = new ResultBox(results))).notice(payload);
            break;
          case "Closed":
            closed = true;
            break;
        }
      });
      const ms = Math.round(performance.now() - started);
      setState(closed ? `stopped after ${ms} ms (the session was closed)` : `done in ${ms} ms`);
    } catch (error) {
      showError(results, error instanceof ApiError ? error : new ApiError(String(error)));
      session = null;
      setState("failed");
    } finally {
      running = false;
      runButton.disabled = false;
      stopButton.disabled = true;
    }
  }

  runButton.addEventListener("click", run);
  stopButton.addEventListener("click", () => {
    if (session) session.close();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run();
    }
  });
}

// A new login or cluster: the next run opens a session with them.
export function resetShellSession() {
  if (session && !running) session.close();
  if (!running) session = null;
}
