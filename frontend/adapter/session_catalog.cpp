#include "frontend/adapter/session_catalog.hpp"

#include "catalog/builtin_relations.hpp"
#include "common/sqlstate.hpp"
#include "frontend/adapter/introspection.hpp"
#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"

namespace tandem::frontend {

namespace {

// The defining query of CREATE [MATERIALIZED] VIEW name [(columns)] AS
// <query>, its columns renamed by the aliases.
std::string defining_sql(const sql::Query& query, const std::vector<std::string>& columns) {
  std::string text = sql::print(query);
  if (columns.empty()) return text;
  std::string aliases;
  for (const auto& c : columns) aliases += (aliases.empty() ? "" : ", ") + sql::quote_ident(c);
  return "SELECT * FROM (" + text + ") AS v (" + aliases + ")";
}

bool reads_pending_writes(const catalog::CatalogSnapshot& snapshot, catalog::ItemId id,
                          const std::map<compute::GlobalId, PendingWrites::Updates>& pending, int depth) {
  auto it = pending.find(catalog::to_compute_id(id));
  if (it != pending.end() && !it->second.empty()) return true;
  const catalog::Item* item = snapshot.item(id);
  if (item == nullptr || depth > 64) return false;
  for (catalog::ItemId dep : item->dependencies) {
    if (reads_pending_writes(snapshot, dep, pending, depth + 1)) return true;
  }
  return false;
}

}  // namespace

bool reads_pending_writes(const catalog::CatalogSnapshot& snapshot, catalog::ItemId id,
                          const std::map<compute::GlobalId, PendingWrites::Updates>& pending) {
  return reads_pending_writes(snapshot, id, pending, 0);
}

const planner::CatalogItem* SessionCatalog::resolve(const std::vector<std::string>& name) const {
  if (name.empty() || name.size() > 3) return nullptr;
  catalog::PartialName partial;
  partial.item = name.back();
  if (name.size() >= 2) partial.schema = name[name.size() - 2];
  if (name.size() == 3) partial.database = name[0];
  auto item = snapshot_->resolve_item(partial, path_);
  if (!item.ok()) return nullptr;
  const catalog::Item* found = *item;
  compute::GlobalId id = catalog::to_compute_id(found->id);
  auto& slot = resolved_[id];
  if (!slot) {
    slot = std::make_unique<planner::CatalogItem>();
    slot->id = id;
    slot->name = found->name.to_string();
    slot->desc = found->desc;
    switch (found->kind) {
      case catalog::ItemKind::kTable: slot->kind = planner::ItemKind::kTable; break;
      case catalog::ItemKind::kView: {
        slot->kind = planner::ItemKind::kView;
        // The defining query of CREATE VIEW ... AS <query>.
        auto parsed = sql::parse_one(found->create_sql);
        if (parsed.ok()) {
          if (auto* view = parsed->as<sql::CreateView>()) slot->view_sql = defining_sql(view->query, view->columns);
        }
        break;
      }
      case catalog::ItemKind::kMaterializedView: {
        slot->kind = planner::ItemKind::kMaterializedView;
        if (pending_ != nullptr && reads_pending_writes(*snapshot_, found->id, *pending_)) {
          auto parsed = sql::parse_one(found->create_sql);
          auto* mv = parsed.ok() ? parsed->as<sql::CreateMaterializedView>() : nullptr;
          if (mv != nullptr) {
            slot->kind = planner::ItemKind::kView;
            slot->view_sql = defining_sql(mv->query, mv->columns);
          }
        }
        break;
      }
      case catalog::ItemKind::kIndex: slot->kind = planner::ItemKind::kIndex; break;
      case catalog::ItemKind::kSource: slot->kind = planner::ItemKind::kSystemRelation; break;
    }
    if (catalog::is_builtin_catalog_relation(*found)) {
      catalog::BuiltinContext context{path_, "", {}};
      if (controller_) {
        context.controller = [this] {
          if (!controller_status_) controller_status_ = controller_();
          return controller_status_;
        };
      }
      slot->rows = std::make_shared<const std::vector<Row>>(catalog::builtin_rows(*snapshot_, *found, context));
    }
  }
  return slot.get();
}

std::vector<catalog::ItemId> SessionCatalog::resolved_ids() const {
  std::vector<catalog::ItemId> ids;
  for (const auto& [id, item] : resolved_) ids.push_back(catalog::item_id_from_compute(id));
  return ids;
}

Status SessionCatalog::refuse_builtin_catalog_relations(std::string_view what) const {
  for (const auto& [id, item] : resolved_) {
    if (item->rows) {
      return Status::error(sqlstate::kFeatureNotSupported,
                           std::string(what) + " over catalog relation " + item->name + " is not supported");
    }
  }
  return Status::ok();
}

Status SessionCatalog::refuse_introspection_relations(std::string_view object_type) const {
  std::string names;
  for (const auto& [id, item] : resolved_) {
    const catalog::Item* found = snapshot_->item(catalog::item_id_from_compute(id));
    if (found != nullptr && introspection_variant(*found)) names += (names.empty() ? "" : ", ") + item->name;
  }
  if (names.empty()) return Status::ok();
  return Status::error(sqlstate::kFeatureNotSupported,
                       std::string(object_type) + " objects cannot depend on log sources: " + names);
}

std::vector<planner::IndexInfo> SessionCatalog::indexes_on(compute::GlobalId id) const {
  std::vector<planner::IndexInfo> out;
  const catalog::Item* item = snapshot_->item(catalog::item_id_from_compute(id));
  if (item == nullptr) return out;
  if (auto variant = introspection_variant(*item)) {
    if (!cluster_) return out;
    planner::IndexInfo info;
    info.index_id = introspection_index_id(*variant);
    info.name = introspection_index_name(*variant);
    for (size_t k : introspection_index_key(*variant)) {
      info.key.push_back(ScalarExpr::column(k, item->desc.columns[k].type));
    }
    out.push_back(std::move(info));
    return out;
  }
  for (const catalog::Item* index : snapshot_->indexes_on(item->id)) {
    const catalog::IndexDetails* details = index->index();
    if (details == nullptr) continue;
    if (cluster_ && index->cluster != cluster_) continue;
    planner::IndexInfo info;
    info.index_id = catalog::to_compute_id(index->id);
    info.name = index->name.to_string();
    bool plain = true;
    for (const auto& key : details->keys) {
      // Expression keys are not offered to the planner yet: such an index
      // is still maintained, reads just do not use it.
      if (!key.column) {
        plain = false;
        break;
      }
      info.key.push_back(ScalarExpr::column(*key.column, item->desc.columns[*key.column].type));
    }
    if (plain) out.push_back(std::move(info));
  }
  return out;
}

}  // namespace tandem::frontend
