// Small DOM helpers shared by the views: element building, tables, and the
// formats of bytes, durations and mz_timestamps.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function cellText(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

// A table of `rows` (arrays) under `columns` (names); `format` maps a
// column index to a function of the value giving text or a node.
export function table(columns, rows, { format = {}, className = "grid" } = {}) {
  const head = el("tr", {}, columns.map((c) => el("th", {}, c)));
  const body = rows.map((row) =>
    el("tr", {}, row.map((v, i) => {
      const shown = format[i] ? format[i](v) : cellText(v);
      return el("td", { class: v === null ? "null" : typeof v === "number" ? "num" : null }, shown);
    })),
  );
  return el("table", { class: className }, el("thead", {}, head), el("tbody", {}, body));
}

// A table of objects (from api.rows) showing `columns`: [[key, title, fmt?]].
export function objectTable(objects, columns, options = {}) {
  const format = {};
  columns.forEach(([, , fmt], i) => {
    if (fmt) format[i] = fmt;
  });
  return table(columns.map(([, title]) => title), objects.map((o) => columns.map(([k]) => o[k])), {
    ...options,
    format,
  });
}

export function bytes(v) {
  if (v === null || v === undefined) return "NULL";
  const n = Number(v);
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  let x = n;
  while (Math.abs(x) >= 1024 && i < units.length - 1) x /= 1024, i++;
  return (i === 0 ? String(x) : x.toFixed(1)) + " " + units[i];
}

export function nanos(v) {
  if (v === null || v === undefined) return "NULL";
  const n = Number(v);
  if (n < 1e3) return n + " ns";
  if (n < 1e6) return (n / 1e3).toFixed(1) + " µs";
  if (n < 1e9) return (n / 1e6).toFixed(2) + " ms";
  return (n / 1e9).toFixed(2) + " s";
}

export function millis(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  if (Math.abs(ms) < 1000) return Math.round(ms) + " ms";
  if (Math.abs(ms) < 120000) return (ms / 1000).toFixed(1) + " s";
  return (ms / 60000).toFixed(1) + " min";
}

// An mz_timestamp (milliseconds since the epoch, as text) as a local time.
export function timestamp(v) {
  if (v === null || v === undefined) return "NULL";
  const d = new Date(Number(v));
  return Number.isNaN(d.getTime()) ? String(v) : d.toLocaleTimeString([], { hour12: false }) + "." +
    String(d.getMilliseconds()).padStart(3, "0");
}

export function quoteLiteral(s) {
  return "'" + String(s).replaceAll("'", "''") + "'";
}

export function showError(container, error) {
  container.replaceChildren(el("p", { class: "error" }, error.code ? `${error.message} (${error.code})` : error.message));
}
