#include "frontend/adapter/introspection.hpp"

#include <map>

#include "compute/logging/log_variant.hpp"

namespace tandem::frontend {

namespace logging = compute::logging;

Status register_introspection_relations(catalog::Catalog& catalog) {
  for (const logging::LogVariant& v : logging::log_variants()) {
    catalog::ItemSpec spec;
    spec.name = catalog::QualifiedName{"", "mz_introspection", v.name};
    spec.kind = catalog::ItemKind::kSource;
    // Logged rows never carry NULLs.
    for (const auto& c : v.columns) spec.desc.columns.push_back(catalog::Column{c.name, ColumnType{c.type, -1, false}});
    auto id = catalog.register_system_item(std::move(spec));
    if (!id.ok()) return id.status();
  }
  return Status::ok();
}

std::optional<size_t> introspection_variant(const catalog::Item& item) {
  static const std::map<std::string, size_t> by_name = [] {
    std::map<std::string, size_t> m;
    const auto& variants = logging::log_variants();
    for (size_t i = 0; i < variants.size(); ++i) m[variants[i].name] = i;
    return m;
  }();
  if (!item.id.is_system() || item.kind != catalog::ItemKind::kSource || item.name.schema != "mz_introspection") {
    return std::nullopt;
  }
  auto it = by_name.find(item.name.item);
  if (it == by_name.end()) return std::nullopt;
  return it->second;
}

compute::GlobalId introspection_index_id(size_t variant) { return logging::log_index_id(variant); }

std::string introspection_index_name(size_t variant) {
  return std::string("mz_introspection.") + logging::log_variants()[variant].name + "_primary_idx";
}

std::vector<size_t> introspection_index_key(size_t variant) {
  return logging::log_index_key(logging::log_variants()[variant]);
}

}  // namespace tandem::frontend
