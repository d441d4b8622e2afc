// The console's entry point: tabs, the login form, and one refresh loop
// that polls the visible view and samples the plots. Every read goes
// through POST /api/sql; tandemd answers peeks on the interactive runtime,
// so the console keeps answering while maintenance hydrates an index.

import { rows, settings } from "./api.js";
import { initShell, resetShellSession } from "./shell.js";
import { refreshExplorer } from "./explorer.js";
import { refreshClusters } from "./clusters.js";
import { refreshFreshness } from "./freshness.js";
import { refreshReads } from "./reads.js";
import { initPlots, samplePlots } from "./plots.js";

const kRefreshMs = 1000;
const refreshers = {
  explorer: { fn: refreshExplorer, every: 5000 },
  clusters: { fn: refreshClusters, every: 2000 },
  freshness: { fn: refreshFreshness, every: 1000 },
  reads: { fn: refreshReads, every: 1000 },
};

let activeTab = "shell";
const lastRefresh = {};
const status = document.getElementById("status");

function setStatus(text, ok) {
  status.textContent = text;
  status.className = "status " + (ok ? "ok" : "bad");
}

function showTab(name) {
  activeTab = name;
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  document.querySelectorAll("main > section").forEach((s) => s.classList.toggle("active", s.id === name));
  lastRefresh[name] = 0;
  tick();
}

async function loadClusters() {
  const select = document.getElementById("cluster");
  const clusters = await rows("SELECT name FROM mz_catalog.mz_clusters ORDER BY name");
  const names = clusters.map((c) => c.name);
  if (!names.includes(settings.cluster) && names.length) settings.cluster = names.includes("quickstart") ? "quickstart" : names[0];
  select.replaceChildren(...names.map((n) => {
    const o = document.createElement("option");
    o.textContent = n;
    o.selected = n === settings.cluster;
    return o;
  }));
}

async function connect() {
  setStatus("connecting…", true);
  try {
    const who = await rows("SELECT current_user AS user, mz_version() AS version");
    await loadClusters();
    setStatus(`connected as ${who[0].user}`, true);
    return true;
  } catch (error) {
    setStatus(error.message, false);
    return false;
  }
}

let ticking = false;
async function tick() {
  if (ticking) return;
  ticking = true;
  try {
    const now = Date.now();
    const r = refreshers[activeTab];
    const jobs = [];
    if (r && now - (lastRefresh[activeTab] || 0) >= r.every) {
      lastRefresh[activeTab] = now;
      jobs.push(r.fn());
    }
    jobs.push(samplePlots().catch(() => {}));
    await Promise.all(jobs);
  } finally {
    ticking = false;
  }
}

function init() {
  document.getElementById("user").value = settings.user;
  document.getElementById("password").value = settings.password;
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  document.getElementById("login").addEventListener("submit", async (e) => {
    e.preventDefault();
    settings.user = document.getElementById("user").value.trim();
    settings.password = document.getElementById("password").value;
    settings.save();
    resetShellSession();
    if (await connect()) showTab(activeTab);
  });
  document.getElementById("cluster").addEventListener("change", (e) => {
    settings.cluster = e.target.value;
    settings.save();
    resetShellSession();
    showTab(activeTab);
  });
  document.getElementById("reads-system").addEventListener("change", () => showTab("reads"));
  initShell();
  initPlots();
  connect();
  setInterval(tick, kRefreshMs);
}

init();
