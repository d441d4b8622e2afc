// Freshness: each object's read and write frontier, how far the write
// frontier is behind wall-clock time, its materialization lag behind its
// inputs, and whether it has hydrated.

import { rowsOf } from "./api.js";
import { el, objectTable, timestamp, millis, showError } from "./ui.js";

export async function refreshFreshness() {
  const container = document.getElementById("freshness-table");
  try {
    const r = await rowsOf({
      frontiers: `SELECT f.object_id, o.name, o.type, f.read_frontier, f.write_frontier
                  FROM mz_internal.mz_frontiers f JOIN mz_catalog.mz_objects o ON o.id = f.object_id
                  ORDER BY o.name`,
      lag: "SELECT object_id, local_lag::text AS local_lag, global_lag::text AS global_lag FROM mz_internal.mz_materialization_lag",
      hydration: `SELECT h.object_id, h.hydrated, ch.hydration_time::text AS hydration_time
                  FROM mz_internal.mz_hydration_statuses h LEFT JOIN mz_internal.mz_compute_hydration_statuses ch
                  ON ch.object_id = h.object_id AND ch.replica_id = h.replica_id`,
    });
    const lag = new Map(r.lag.map((l) => [l.object_id, l]));
    const hydration = new Map(r.hydration.map((h) => [h.object_id, h]));
    const now = Date.now();
    const objects = r.frontiers.map((f) => ({
      ...f,
      behind: f.write_frontier === null ? null : now - Number(f.write_frontier),
      local_lag: lag.get(f.object_id)?.local_lag ?? null,
      global_lag: lag.get(f.object_id)?.global_lag ?? null,
      hydrated: hydration.has(f.object_id) ? hydration.get(f.object_id).hydrated : null,
      hydration_time: hydration.get(f.object_id)?.hydration_time ?? null,
    }));
    container.replaceChildren(objectTable(objects, [["name", "object"], ["type", "type"],
      ["read_frontier", "read frontier", timestamp], ["write_frontier", "write frontier", timestamp],
      ["behind", "behind wall clock", millis], ["local_lag", "lag behind inputs"], ["global_lag", "lag behind sources"],
      ["hydrated", "hydrated", (v) => (v === null ? "—" : v ? "yes" : "hydrating")], ["hydration_time", "hydration took"]],
    { className: "grid freshness" }));
  } catch (error) {
    showError(container, error);
  }
}
