#include "frontend/session/pending_writes.hpp"

#include <algorithm>

namespace tandem::frontend {

void PendingWrites::add(compute::GlobalId table, Updates updates) {
  Updates& into = tables_[table];
  if (into.empty()) {
    into = std::move(updates);
  } else {
    into.insert(into.end(), std::make_move_iterator(updates.begin()), std::make_move_iterator(updates.end()));
  }
  consolidated_ = false;
}

void PendingWrites::add_read_table(compute::GlobalId table) {
  if (std::find(read_tables_.begin(), read_tables_.end(), table) == read_tables_.end()) read_tables_.push_back(table);
}

const std::map<compute::GlobalId, PendingWrites::Updates>& PendingWrites::consolidated() {
  if (consolidated_) return tables_;
  for (auto& [table, updates] : tables_) {
    std::stable_sort(updates.begin(), updates.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t out = 0;
    for (size_t i = 0; i < updates.size();) {
      Diff sum = 0;
      size_t j = i;
      for (; j < updates.size() && updates[j].first == updates[i].first; ++j) sum += updates[j].second;
      if (sum != 0) {
        if (out != i) updates[out].first = std::move(updates[i].first);
        updates[out].second = sum;
        ++out;
      }
      i = j;
    }
    updates.resize(out);
  }
  consolidated_ = true;
  return tables_;
}

}  // namespace tandem::frontend
