// The object explorer: schemas and their objects (mz_objects), and for the
// object picked its columns, definition, indexes, what it reads and what
// reads it (mz_internal.mz_object_dependencies), frontiers and hydration.

import { rows, rowsOf } from "./api.js";
import { el, objectTable, quoteLiteral, showError, timestamp, millis } from "./ui.js";

const kUserSchemas = new Set(["public"]);
const kTypeOrder = ["table", "view", "materialized-view", "index", "source", "sink"];
const kTypeTitles = {
  table: "Tables", view: "Views", "materialized-view": "Materialized views", index: "Indexes", source: "Sources",
  sink: "Sinks", other: "Other",
};

let selected = null;

async function loadTree(tree) {
  const objects = await rows(`
    SELECT o.id, o.name, o.type, s.name AS schema, c.name AS cluster
    FROM mz_catalog.mz_objects o
    JOIN mz_catalog.mz_schemas s ON s.id = o.schema_id
    LEFT JOIN mz_catalog.mz_clusters c ON c.id = o.cluster_id
    ORDER BY s.name, o.name`);
  const bySchema = new Map();
  for (const o of objects) {
    if (!bySchema.has(o.schema)) bySchema.set(o.schema, []);
    bySchema.get(o.schema).push(o);
  }
  const schemas = [...bySchema.keys()].sort((a, b) =>
    (kUserSchemas.has(a) || !a.startsWith("mz_") && !a.startsWith("pg_") && a !== "information_schema" ? 0 : 1) -
    (kUserSchemas.has(b) || !b.startsWith("mz_") && !b.startsWith("pg_") && b !== "information_schema" ? 0 : 1) ||
    a.localeCompare(b));
  // A refresh keeps the schemas the user opened or closed as they were.
  const wasOpen = new Map([...tree.querySelectorAll("details.schema")].map((d) => [d.dataset.schema, d.open]));
  const nodes = schemas.map((schema) => {
    const items = bySchema.get(schema);
    const system = schema.startsWith("mz_") || schema.startsWith("pg_") || schema === "information_schema";
    const byType = kTypeOrder.map((t) => [t, items.filter((o) => o.type === t)])
      .concat([["other", items.filter((o) => !kTypeOrder.includes(o.type))]])
      .filter(([, list]) => list.length > 0);
    return el("details", { class: "schema", open: wasOpen.has(schema) ? wasOpen.get(schema) : !system, dataset: { schema } },
      el("summary", {}, `${schema} (${items.length})`),
      byType.map(([type, list]) => el("div", { class: "type-group" },
        el("div", { class: "type-name" }, kTypeTitles[type]),
        list.map((o) => el("a", {
          href: "#", class: "object" + (selected === o.id ? " selected" : ""), dataset: { id: o.id, name: o.name },
          onclick: (e) => {
            e.preventDefault();
            selected = o.id;
            tree.querySelectorAll("a.object.selected").forEach((a) => a.classList.remove("selected"));
            e.target.classList.add("selected");
            showObject(o);
          },
        }, o.name)))));
  });
  tree.replaceChildren(...nodes);
}

async function showObject(o) {
  const detail = document.getElementById("object-detail");
  detail.replaceChildren(el("p", { class: "muted" }, "loading…"));
  const id = quoteLiteral(o.id);
  try {
    const r = await rowsOf({
      columns: `SELECT position, name, type, nullable, "default" FROM mz_catalog.mz_columns WHERE id = ${id} ORDER BY position`,
      sql: `SELECT create_sql, NULL::text AS definition FROM mz_catalog.mz_tables WHERE id = ${id}
            UNION ALL SELECT create_sql, definition FROM mz_catalog.mz_views WHERE id = ${id}
            UNION ALL SELECT create_sql, definition FROM mz_catalog.mz_materialized_views WHERE id = ${id}
            UNION ALL SELECT create_sql, NULL::text FROM mz_catalog.mz_indexes WHERE id = ${id}`,
      indexes: `SELECT i.name, c.name AS cluster, i.create_sql FROM mz_catalog.mz_indexes i
                LEFT JOIN mz_catalog.mz_clusters c ON c.id = i.cluster_id WHERE i.on_id = ${id} ORDER BY i.name`,
      uses: `SELECT o.id, o.name, o.type FROM mz_internal.mz_object_dependencies d
             JOIN mz_catalog.mz_objects o ON o.id = d.referenced_object_id WHERE d.object_id = ${id} ORDER BY o.name`,
      usedBy: `SELECT o.id, o.name, o.type FROM mz_internal.mz_object_dependencies d
               JOIN mz_catalog.mz_objects o ON o.id = d.object_id WHERE d.referenced_object_id = ${id} ORDER BY o.name`,
      frontiers: `SELECT read_frontier, write_frontier FROM mz_internal.mz_frontiers WHERE object_id = ${id}`,
      hydration: `SELECT h.replica_id, h.hydrated, ch.hydration_time::text AS hydration_time
                  FROM mz_internal.mz_hydration_statuses h
                  LEFT JOIN mz_internal.mz_compute_hydration_statuses ch
                    ON ch.object_id = h.object_id AND ch.replica_id = h.replica_id
                  WHERE h.object_id = ${id}`,
    });
    if (selected !== o.id) return;
    const parts = [el("h2", {}, `${o.schema}.${o.name}`),
      el("p", { class: "muted" }, `${o.type} ${o.id}` + (o.cluster ? ` on cluster ${o.cluster}` : ""))];
    if (r.columns.length) {
      parts.push(el("h3", {}, "Columns"),
        objectTable(r.columns, [["position", "#"], ["name", "name"], ["type", "type"], ["nullable", "nullable"],
          ["default", "default"]], { className: "grid columns" }));
    }
    const s = r.sql[0];
    if (s && s.definition) parts.push(el("h3", {}, "Definition"), el("pre", { class: "sql" }, s.definition));
    if (s && s.create_sql) parts.push(el("h3", {}, "CREATE statement"), el("pre", { class: "sql" }, s.create_sql));
    if (r.indexes.length) {
      parts.push(el("h3", {}, "Indexes"),
        objectTable(r.indexes, [["name", "name"], ["cluster", "cluster"], ["create_sql", "definition"]]));
    }
    const link = (d) => `${d.name} (${d.type})`;
    parts.push(el("h3", {}, "Dependencies"),
      el("div", { class: "deps" },
        el("div", {}, el("h4", {}, "Reads"), r.uses.length ? el("ul", { class: "uses" }, r.uses.map((d) => el("li", {}, link(d)))) : el("p", { class: "muted" }, "nothing")),
        el("div", {}, el("h4", {}, "Read by"), r.usedBy.length ? el("ul", { class: "used-by" }, r.usedBy.map((d) => el("li", {}, link(d)))) : el("p", { class: "muted" }, "nothing"))));
    if (r.frontiers.length) {
      const f = r.frontiers[0];
      const lag = f.write_frontier === null ? null : Date.now() - Number(f.write_frontier);
      parts.push(el("h3", {}, "Freshness"),
        objectTable([{ ...f, lag }], [["read_frontier", "read frontier", timestamp], ["write_frontier", "write frontier", timestamp],
          ["lag", "behind wall clock", millis]]));
    }
    if (r.hydration.length) {
      parts.push(el("h3", {}, "Hydration"),
        objectTable(r.hydration, [["replica_id", "replica"], ["hydrated", "hydrated"], ["hydration_time", "took"]]));
    }
    detail.replaceChildren(...parts);
  } catch (error) {
    showError(detail, error);
  }
}

export async function refreshExplorer() {
  const tree = document.getElementById("object-tree");
  try {
    await loadTree(tree);
  } catch (error) {
    showError(tree, error);
  }
}
