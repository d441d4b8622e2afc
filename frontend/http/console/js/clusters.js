// Clusters: each cluster's replica, its cpu and memory (the process's: all
// replicas run in tandemd), peek dataflow admission, and the dataflows it
// runs with their arrangement sizes and hydration; the process's
// arrangement memory budget and block cache.

import { rows, rowsOf } from "./api.js";
import { el, objectTable, bytes, showError } from "./ui.js";

const pct = (v) => (v === null || v === undefined ? "NULL" : Number(v).toFixed(1) + " %");

async function clusterDataflows(cluster, objects, byQualifiedName, hydration) {
  const r = await rowsOf({
    sizes: `SELECT id, name, records, batches, size, resident_bytes, spilled_bytes
            FROM mz_introspection.mz_dataflow_arrangement_sizes ORDER BY id`,
    dataflows: "SELECT id, name FROM mz_introspection.mz_dataflows ORDER BY id",
    exports: "SELECT export_id, dataflow_id FROM mz_introspection.mz_compute_exports",
  }, { cluster: cluster.name });
  const sizes = new Map(r.sizes.map((s) => [Number(s.id), s]));
  const exportsOf = new Map();
  for (const e of r.exports) {
    const d = Number(e.dataflow_id);
    if (!exportsOf.has(d)) exportsOf.set(d, []);
    exportsOf.get(d).push(e.export_id);
  }
  return r.dataflows.map((d) => {
    const s = sizes.get(Number(d.id)) || {};
    // A materialized view's dataflow exports its sink (a transient id); the
    // dataflow's name names the view.
    const named = byQualifiedName.get(d.name.replace(/^Dataflow: /, ""));
    const exports = [...new Set((exportsOf.get(Number(d.id)) || [])
      .map((id) => (objects.has(id) || !named ? id : named.id)))];
    const names = exports.map((id) => (objects.get(id) ? objects.get(id).name : id));
    const states = exports.map((id) => hydration.get(id)).filter((h) => h !== undefined);
    return {
      id: d.id, name: d.name, exports: names.join(", "),
      hydrated: states.length === 0 ? null : states.every((h) => h === true),
      records: s.records ?? 0, batches: s.batches ?? 0, size: s.size ?? 0,
      resident_bytes: s.resident_bytes ?? 0, spilled_bytes: s.spilled_bytes ?? 0,
    };
  });
}

export async function refreshClusters() {
  const list = document.getElementById("cluster-list");
  const detail = document.getElementById("cluster-detail");
  try {
    const r = await rowsOf({
      clusters: `SELECT c.id, c.name, c.size, r.id AS replica_id, r.name AS replica
                 FROM mz_catalog.mz_clusters c LEFT JOIN mz_catalog.mz_cluster_replicas r ON r.cluster_id = c.id
                 ORDER BY c.name`,
      utilization: "SELECT replica_id, cpu_percent, memory_percent FROM mz_internal.mz_cluster_replica_utilization",
      metrics: "SELECT replica_id, memory_bytes FROM mz_internal.mz_cluster_replica_metrics",
      admission: "SELECT cluster_id, max_concurrent, active, queued, admitted_total FROM mz_internal.mz_interactive_admission",
      memory: "SELECT limit_bytes, resident_bytes, spilled_bytes, spills_total FROM mz_internal.mz_arrangement_memory",
      cache: "SELECT capacity_bytes, cached_bytes, hits, misses, hit_rate FROM mz_internal.mz_arrangement_block_cache",
      objects: `SELECT o.id, o.name, s.name AS schema, d.name AS database FROM mz_catalog.mz_objects o
                JOIN mz_catalog.mz_schemas s ON s.id = o.schema_id
                LEFT JOIN mz_catalog.mz_databases d ON d.id = s.database_id WHERE o.cluster_id IS NOT NULL`,
      hydration: "SELECT object_id, hydrated FROM mz_internal.mz_hydration_statuses",
    });
    const util = new Map(r.utilization.map((u) => [u.replica_id, u]));
    const metrics = new Map(r.metrics.map((m) => [m.replica_id, m]));
    const admission = new Map(r.admission.map((a) => [a.cluster_id, a]));
    const clusters = r.clusters.map((c) => ({
      ...c,
      cpu: util.get(c.replica_id)?.cpu_percent ?? null,
      memory: util.get(c.replica_id)?.memory_percent ?? null,
      memory_bytes: metrics.get(c.replica_id)?.memory_bytes ?? null,
      peeks: admission.has(c.replica_id)
        ? `${admission.get(c.replica_id).active} running, ${admission.get(c.replica_id).queued} queued, ${admission.get(c.replica_id).admitted_total} admitted`
        : "",
    }));
    const parts = [el("h2", {}, "Clusters"),
      objectTable(clusters, [["name", "cluster"], ["size", "size"], ["replica", "replica"], ["cpu", "cpu (process)", pct],
        ["memory", "memory (process)", pct], ["memory_bytes", "resident", bytes], ["peeks", "peek dataflows"]],
      { className: "grid cluster-table" })];
    if (r.memory.length) {
      const m = r.memory[0];
      parts.push(el("h3", {}, "Arrangement memory"),
        objectTable([{ ...m, ...(r.cache[0] || {}) }], [["limit_bytes", "budget", bytes], ["resident_bytes", "resident", bytes],
          ["spilled_bytes", "spilled", bytes], ["spills_total", "spills"], ["cached_bytes", "block cache", bytes],
          ["hit_rate", "cache hit rate", (v) => (v === null ? "—" : (100 * v).toFixed(1) + " %")]]));
    }
    list.replaceChildren(...parts);

    const objects = new Map(r.objects.map((o) => [o.id, o]));
    const byQualifiedName = new Map(r.objects.map((o) => [`${o.database}.${o.schema}.${o.name}`, o]));
    const hydration = new Map(r.hydration.map((h) => [h.object_id, h.hydrated]));
    const withReplica = clusters.filter((c) => c.replica_id);
    const dataflows = await Promise.all(withReplica.map((c) => clusterDataflows(c, objects, byQualifiedName, hydration)
      .catch((error) => error)));
    const sections = withReplica.map((c, i) => {
      const d = dataflows[i];
      const body = d instanceof Error ? el("p", { class: "error" }, d.message)
        : d.length === 0 ? el("p", { class: "muted" }, "no dataflows")
          : objectTable(d, [["id", "id"], ["name", "dataflow"], ["exports", "exports"],
            ["hydrated", "hydrated", (v) => (v === null ? "—" : v ? "yes" : "hydrating")],
            ["records", "records"], ["batches", "batches"], ["size", "arrangement size", bytes],
            ["resident_bytes", "resident", bytes], ["spilled_bytes", "spilled", bytes]], { className: "grid dataflows" });
      return el("section", { class: "cluster", dataset: { cluster: c.name } }, el("h3", {}, `Dataflows on ${c.name}`), body);
    });
    detail.replaceChildren(...sections);
  } catch (error) {
    showError(list, error);
  }
}
