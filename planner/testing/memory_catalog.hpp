#pragma once
// MemoryCatalog: an in-memory CatalogReader for planner tests (one schema;
// names resolve by their last part). Not part of the library's behaviour.
#include <map>

#include "planner/catalog_reader.hpp"

namespace tandem::planner::testing {

class MemoryCatalog final : public CatalogReader {
 public:
  void add(CatalogItem item) { items_[item.name] = std::move(item); }
  void add_index(compute::GlobalId on, IndexInfo index) { indexes_[on].push_back(std::move(index)); }
  const CatalogItem* resolve(const std::vector<std::string>& name) const override {
    auto it = items_.find(name.back());
    return it == items_.end() ? nullptr : &it->second;
  }
  std::vector<IndexInfo> indexes_on(compute::GlobalId id) const override {
    auto it = indexes_.find(id);
    return it == indexes_.end() ? std::vector<IndexInfo>{} : it->second;
  }

 private:
  std::map<std::string, CatalogItem> items_;
  std::map<compute::GlobalId, std::vector<IndexInfo>> indexes_;
};

}  // namespace tandem::planner::testing
