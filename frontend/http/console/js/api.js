// The console's two ways to tandem: POST /api/sql for the session-less
// reads each view polls, and a WebSocket session (/api/experimental/sql)
// for the SQL shell, where SET, transactions and SUBSCRIBE live. Both
// authenticate as the user typed in (HTTP Basic; the WebSocket's first
// message); with no user, tandemd in trust mode takes `materialize`.

export class ApiError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

export const settings = {
  user: sessionStorage.getItem("tandem.user") || "",
  password: sessionStorage.getItem("tandem.password") || "",
  cluster: sessionStorage.getItem("tandem.cluster") || "quickstart",
  save() {
    sessionStorage.setItem("tandem.user", this.user);
    sessionStorage.setItem("tandem.password", this.password);
    sessionStorage.setItem("tandem.cluster", this.cluster);
  },
};

function authorization() {
  if (!settings.user && !settings.password) return {};
  const bytes = new TextEncoder().encode(`${settings.user}:${settings.password}`);
  return { Authorization: "Basic " + btoa(String.fromCharCode(...bytes)) };
}

// Runs `query` (one or more statements); resolves to the results array.
// `options` are session variables; the cluster defaults to the chosen one.
export async function sql(query, options = {}) {
  const opts = { cluster: settings.cluster, application_name: "tandem_console", ...options };
  const url = "/api/sql?options=" + encodeURIComponent(JSON.stringify(opts));
  const response = await fetch(url, {
    method: "POST",
    // No browser-kept credentials and no browser login prompt on a 401: the
    // console's login form is the only source of credentials.
    credentials: "omit",
    headers: { "Content-Type": "application/json", ...authorization() },
    body: JSON.stringify({ query }),
  });
  const text = await response.text();
  if (response.status === 401) throw new ApiError("authentication failed: " + text.trim(), "28P01");
  if (!response.ok) throw new ApiError(`HTTP ${response.status}: ${text.trim()}`);
  return JSON.parse(text).results;
}

// The rows of the last statement of `query` as objects keyed by column
// name; an error in any statement throws.
export async function rows(query, options) {
  const results = await sql(query, options);
  for (const r of results) {
    if (r.error) throw new ApiError(r.error.message, r.error.code);
  }
  const last = results[results.length - 1];
  if (!last || !last.desc) return [];
  const names = last.desc.columns.map((c) => c.name);
  return last.rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i]])));
}

// Several independent reads at once: {name: query} to {name: rows}.
export async function rowsOf(queries, options) {
  const names = Object.keys(queries);
  const all = await Promise.all(names.map((n) => rows(queries[n], options)));
  return Object.fromEntries(names.map((n, i) => [n, all[i]]));
}

// A long-lived WebSocket session. `run(query, handler)` sends one request
// and calls handler(type, payload) for each message until ReadyForQuery;
// requests queue one at a time, as the protocol wants.
export class WsSession {
  constructor(onClose) {
    this.onClose = onClose;
    this.queue = [];
    this.current = null;
    this.ready = this.open();
  }

  open() {
    return new Promise((resolve, reject) => {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${scheme}//${location.host}/api/experimental/sql`);
      this.ws = ws;
      let started = false;
      ws.onopen = () => {
        const auth = { options: { cluster: settings.cluster, application_name: "tandem_console" } };
        if (settings.user) auth.user = settings.user;
        if (settings.password) auth.password = settings.password;
        ws.send(JSON.stringify(auth));
      };
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (!started) {
          if (message.type === "Error") {
            reject(new ApiError(message.payload.message, message.payload.code));
            return;
          }
          if (message.type === "ReadyForQuery") {
            started = true;
            resolve();
          }
          return;
        }
        this.dispatch(message);
      };
      ws.onerror = () => {
        if (!started) reject(new ApiError("the WebSocket could not connect"));
      };
      ws.onclose = () => {
        if (!started) reject(new ApiError("the WebSocket closed during authentication"));
        const current = this.current;
        this.current = null;
        if (current) current.handler("Closed", null), current.done();
        for (const q of this.queue) q.handler("Closed", null), q.done();
        this.queue = [];
        this.closed = true;
        if (this.onClose) this.onClose();
      };
    });
  }

  dispatch(message) {
    if (!this.current) return;
    this.current.handler(message.type, message.payload);
    if (message.type === "ReadyForQuery") {
      this.current.done();
      this.current = null;
      this.next();
    }
  }

  next() {
    if (this.current || this.queue.length === 0 || this.closed) return;
    this.current = this.queue.shift();
    this.ws.send(JSON.stringify({ query: this.current.query }));
  }

  run(query, handler) {
    return new Promise((resolve) => {
      this.queue.push({ query, handler, done: resolve });
      this.ready.then(() => this.next(), () => {});
    });
  }

  busy() {
    return this.current !== null;
  }

  // Closing the socket cancels what runs (a SUBSCRIBE) and ends the session.
  close() {
    this.closed = true;
    this.ws.close();
  }
}
