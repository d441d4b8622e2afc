// Table keys in the catalog relations: a table's PRIMARY KEY and UNIQUE
// constraints (catalog::table_keys) are pg_constraint rows (contype p/u)
// whose conindid is the hash index that enforces them, itself a pg_class
// (relkind i) and pg_index row (indisunique, indisprimary), as PostgreSQL
// shows them, so psql's \d lists them under "Indexes:". Their definitions,
// for pg_get_constraintdef and pg_get_indexdef, are in
// mz_internal.mz_table_keys (tandem's own: PostgreSQL derives them from
// conkey/indkey arrays).
#include "catalog/builtin_relations.hpp"

namespace tandem::catalog::builtin_detail {

void for_each_table_key(const CatalogSnapshot& s, const std::function<void(const Item&, size_t, const TableKey&)>& f) {
  for (const Item* item : s.items()) {
    auto keys = table_keys(*item);
    for (size_t k = 0; k < keys.size(); ++k) f(*item, k, keys[k]);
  }
}

namespace {

using T = TypeId;

Datum str(const std::string& s) { return Datum::from_string(s); }
Datum oid(uint32_t v) { return Datum::from_oid(v); }

std::string column_list(const Item& table, const TableKey& key) {
  std::string out;
  for (size_t c : key.columns) out += (out.empty() ? "" : ", ") + table.desc.columns[c].name;
  return out;
}

std::vector<Row> table_key_rows(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for_each_table_key(s, [&](const Item& table, size_t k, const TableKey& key) {
    std::string columns = column_list(table, key);
    std::string constraint = std::string(key.primary ? "PRIMARY KEY" : "UNIQUE") + " (" + columns + ")";
    std::string index = "CREATE UNIQUE INDEX " + key.name + " ON " + table.name.schema + "." + table.name.item +
                        " USING hash (" + columns + ")";
    rows.push_back(make_row({oid(key_constraint_oid(table.id, k)), oid(key_index_oid(table.id, k)),
                             str(table.id.to_string()), str(key.name), str(key.primary ? "p" : "u"), str(columns),
                             str(constraint), str(index)}));
  });
  return rows;
}

}  // namespace

std::vector<Row> key_constraint_rows(const CatalogSnapshot& s, const BuiltinContext&) {
  std::vector<Row> rows;
  for_each_table_key(s, [&](const Item& table, size_t k, const TableKey& key) {
    const Schema* schema = schema_of(s, table);
    rows.push_back(make_row({oid(key_constraint_oid(table.id, k)), str(key.name),
                             oid(schema ? schema_oid(schema->id) : 0), str(key.primary ? "p" : "u"),
                             Datum::from_bool(false), Datum::from_bool(false), oid(item_oid(table.id)),
                             oid(key_index_oid(table.id, k))}));
  });
  return rows;
}

void add_table_key_relations(std::vector<BuiltinRelation>& out) {
  out.push_back({kMzInternalSchema, "mz_table_keys",
                 {{"constraint_oid", T::kOid, false}, {"index_oid", T::kOid, false}, {"table_id", T::kText, false},
                  {"name", T::kText, false}, {"type", T::kText, false}, {"columns", T::kText, false},
                  {"constraint_definition", T::kText, false}, {"index_definition", T::kText, false}},
                 table_key_rows});
}

}  // namespace tandem::catalog::builtin_detail
