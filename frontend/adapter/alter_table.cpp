// ALTER TABLE ... ADD PRIMARY KEY / UNIQUE: a key added to a table with
// rows. The key is a change of the table's CREATE TABLE: the stored
// statement gets the constraint appended and is planned again (table_spec
// validates it as CREATE TABLE would: the columns exist, one primary key),
// so the key is re-created from create_sql at boot like any other. Before
// the catalog changes, the coordinator checks the rows present and from
// then on enforces the key on every write (add_unique_key, under its write
// lock, so no write slips between the check and the enforcement).

#include "catalog/catalog_errors.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"

namespace tandem::frontend {

Result<ExecResult> alter_table_add_constraint(Engine& engine, const catalog::SearchPath& path,
                                              const sql::AlterTableAddConstraint& alter) {
  ExecResult r;
  r.tag = "ALTER TABLE";
  auto snapshot = engine.catalog.snapshot();
  auto found = snapshot->resolve_item(partial_name(alter.name), path);
  if (!found.ok()) {
    if (!alter.if_exists) return found.status();
    r.notices.push_back(ResultNotice{
        ResultNotice::Severity::kNotice,
        Status::error(sqlstate::kUndefinedTable, "relation \"" + alter.name.parts.back() + "\" does not exist, skipping")});
    return r;
  }
  const catalog::Item* item = *found;
  if (item->id.is_system()) return catalog::errors::system_object("item", item->name.to_string());
  const catalog::TableDetails* old = item->table();
  if (old == nullptr) {
    return Status::error(sqlstate::kWrongObjectType,
                         "ALTER action ADD CONSTRAINT cannot be performed on relation \"" + item->name.item + "\"")
        .with_detail("This operation is not supported for " + std::string(catalog::item_kind_noun(item->kind)) + "s.");
  }

  auto parsed = sql::parse_one(item->create_sql);
  if (!parsed.ok()) return parsed.status();
  const auto* stored = parsed->as<sql::CreateTable>();
  if (stored == nullptr) return Status::error(sqlstate::kInternalError, "table without a CREATE TABLE statement");
  sql::CreateTable altered = *stored;
  altered.constraints.push_back(alter.constraint);
  // Resolved against the table's own qualified name, as at boot.
  TANDEM_ASSIGN_OR_RETURN(catalog::ItemSpec spec, table_spec(*snapshot, catalog::SearchPath{}, altered));
  auto& details = std::get<catalog::TableDetails>(spec.details);
  details.shard = old->shard;

  catalog::Item next = *item;
  next.desc = spec.desc;
  next.details = details;
  // The added key: the primary key is listed first, a unique key last.
  std::vector<catalog::TableKey> before = catalog::table_keys(*item);
  std::vector<catalog::TableKey> after = catalog::table_keys(next);
  if (after.size() != before.size() + 1) return Status::error(sqlstate::kInternalError, "ALTER TABLE added no key");
  std::optional<catalog::TableKey> added = alter.constraint.primary_key ? after.front() : after.back();
  // PostgreSQL would name a second UNIQUE on the same columns t_a_key1;
  // tandem derives key names from the columns, so it refuses the repeat.
  for (const auto& k : before) {
    if (k.name == added->name) return catalog::errors::item_exists(added->name);
  }
  if (snapshot->find_item(catalog::QualifiedName{item->name.database, item->name.schema, added->name}) != nullptr) {
    return catalog::errors::item_exists(added->name);
  }

  const compute::GlobalId table = catalog::to_compute_id(item->id);
  std::function<Status(size_t)> null_key;
  if (added->primary) {
    null_key = [&](size_t column) {
      return Status::error(sqlstate::kNotNullViolation, "column \"" + item->desc.columns[column].name +
                                                            "\" of relation \"" + item->name.item +
                                                            "\" contains null values");
    };
  }
  UniqueKey key{added->name, added->columns};
  for (size_t c : key.columns) {
    key.column_names.push_back(next.desc.columns[c].name);
    key.column_types.push_back(next.desc.columns[c].type);
  }
  TANDEM_RETURN_IF_ERROR(engine.coordinator.add_unique_key(table, std::move(key), null_key));
  Status altered_catalog = engine.catalog.alter_table(item->id, spec.create_sql, spec.desc, details);
  if (!altered_catalog.is_ok()) {
    engine.coordinator.drop_unique_key(table, added->name);
    return altered_catalog;
  }
  return r;
}

}  // namespace tandem::frontend
