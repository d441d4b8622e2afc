// Recent reads on the selected cluster (mz_introspection.mz_recent_peeks):
// the object read, the runtime that answered (interactive or maintenance),
// the path (fast_path, dataflow, offloaded) and how long it took.

import { rowsOf, settings } from "./api.js";
import { el, objectTable, nanos, timestamp, showError } from "./ui.js";

export async function refreshReads() {
  const container = document.getElementById("reads-table");
  const system = document.getElementById("reads-system").checked;
  try {
    const r = await rowsOf({
      peeks: `SELECT id, object_id, runtime, path, duration_ns, finished_at FROM mz_introspection.mz_recent_peeks
              ${system ? "" : "WHERE object_id NOT LIKE 's%'"} ORDER BY finished_at DESC, id DESC LIMIT 200`,
      objects: "SELECT id, name FROM mz_catalog.mz_objects",
    });
    const names = new Map(r.objects.map((o) => [o.id, o.name]));
    const peeks = r.peeks.map((p) => ({ ...p, object: names.get(p.object_id) || p.object_id }));
    container.replaceChildren(
      el("p", { class: "muted" }, `${peeks.length} reads on ${settings.cluster}`),
      objectTable(peeks, [["finished_at", "finished", timestamp], ["object", "object"], ["runtime", "runtime"],
        ["path", "path"], ["duration_ns", "duration", nanos]], { className: "grid reads" }));
  } catch (error) {
    showError(container, error);
  }
}
