// Live plots with Chart.js (served by tandemd from Debian's libjs-chart.js):
// step durations of the selected cluster's two runtimes, as the median and
// 99th percentile of each sampling interval (differences of
// mz_runtime_step_durations_histogram, whose buckets are powers of two), and
// the latency of each recent read (mz_recent_peeks) by runtime and path.

import { rowsOf, settings } from "./api.js";
import { millis } from "./ui.js";

// The plots scroll: they show (and keep) the last two minutes.
const kWindowMs = 2 * 60 * 1000;
const kColors = {
  "maintenance p99": "#c0392b", "maintenance p50": "#e6a39b",
  "interactive p99": "#1f6fb2", "interactive p50": "#9cc3e6",
};
const kPathColors = ["#1f6fb2", "#27ae60", "#8e44ad", "#d35400", "#c0392b", "#7f8c8d"];

let stepChart = null;
let readChart = null;
let lastHistogram = null;
let lastCluster = null;
let lastPeekTime = 0;

function clock(ms) {
  const d = new Date(ms);
  return d.toLocaleTimeString([], { hour12: false });
}

function makeChart(canvas, yTitle, showLine) {
  return new window.Chart(canvas, {
    type: "line",
    data: { datasets: [] },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      maintainAspectRatio: false,
      showLine,
      spanGaps: false,
      scales: {
        x: { type: "linear", ticks: { callback: (v) => clock(v), maxTicksLimit: 8 } },
        y: { type: "logarithmic", title: { display: true, text: yTitle } },
      },
      plugins: {
        tooltip: { callbacks: { title: (items) => (items.length ? clock(items[0].parsed.x) : ""),
          label: (item) => `${item.dataset.label}: ${millis(item.parsed.y)}` } },
      },
    },
  });
}

function dataset(chart, label, color) {
  let d = chart.data.datasets.find((x) => x.label === label);
  if (!d) {
    d = { label, data: [], borderColor: color, backgroundColor: color, pointRadius: 2, borderWidth: 1.5 };
    chart.data.datasets.push(d);
  }
  return d;
}

// The bucket below which `fraction` of the interval's steps fall (ns).
function quantile(buckets, fraction) {
  const total = buckets.reduce((s, [, c]) => s + c, 0);
  let seen = 0;
  for (const [ns, c] of buckets) {
    seen += c;
    if (seen >= fraction * total) return ns;
  }
  return buckets.length ? buckets[buckets.length - 1][0] : null;
}

function trim(chart, now) {
  chart.options.scales.x.min = now - kWindowMs;
  chart.options.scales.x.max = now;
  for (const d of chart.data.datasets) {
    while (d.data.length && d.data[0].x < now - kWindowMs) d.data.shift();
  }
}

export function initPlots() {
  if (typeof window.Chart !== "function") {
    const missing = document.getElementById("chart-missing");
    missing.hidden = false;
    missing.textContent = "Chart.js is not available, so there are no plots: tandemd serves it from " +
      "/usr/share/javascript/chart.js, which Debian's libjs-chart.js installs (scripts/install-deps.sh --run). " +
      "Install it and reload.";
    return false;
  }
  stepChart = makeChart(document.getElementById("chart-steps"), "step duration (ms)", true);
  readChart = makeChart(document.getElementById("chart-reads"), "read latency (ms)", false);
  return true;
}

export async function samplePlots() {
  if (!stepChart) return;
  if (lastCluster !== settings.cluster) {
    // Another cluster's runtimes: start over.
    lastCluster = settings.cluster;
    lastHistogram = null;
    lastPeekTime = 0;
    for (const chart of [stepChart, readChart]) chart.data.datasets = [];
  }
  const r = await rowsOf({
    steps: "SELECT runtime, duration_ns, count FROM mz_introspection.mz_runtime_step_durations_histogram",
    peeks: `SELECT runtime, path, duration_ns, finished_at FROM mz_introspection.mz_recent_peeks
            WHERE finished_at > ${Number(lastPeekTime)}::mz_timestamp`,
  });
  const now = Date.now();
  const histogram = new Map(r.steps.map((s) => [`${s.runtime}/${s.duration_ns}`, Number(s.count)]));
  if (lastHistogram) {
    for (const runtime of ["maintenance", "interactive"]) {
      const buckets = r.steps.filter((s) => s.runtime === runtime)
        .map((s) => [Number(s.duration_ns), Number(s.count) - (lastHistogram.get(`${runtime}/${s.duration_ns}`) || 0)])
        .filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
      for (const [q, name] of [[0.99, "p99"], [0.5, "p50"]]) {
        const ns = buckets.length ? quantile(buckets, q) : null;
        dataset(stepChart, `${runtime} ${name}`, kColors[`${runtime} ${name}`]).data.push({ x: now, y: ns === null ? null : ns / 1e6 });
      }
    }
  }
  lastHistogram = histogram;
  r.peeks.sort((a, b) => Number(a.finished_at) - Number(b.finished_at));
  for (const p of r.peeks) {
    const t = Number(p.finished_at);
    lastPeekTime = Math.max(lastPeekTime, t);
    const label = `${p.runtime} ${p.path}`;
    const existing = readChart.data.datasets.length;
    const d = dataset(readChart, label, kPathColors[existing % kPathColors.length]);
    d.data.push({ x: t, y: Math.max(Number(p.duration_ns) / 1e6, 0.001) });
  }
  trim(stepChart, now);
  trim(readChart, now);
  stepChart.update("none");
  readChart.update("none");
}
