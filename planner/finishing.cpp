#include <algorithm>

#include "planner/read_plan.hpp"

namespace tandem::planner {

Result<std::vector<Row>> Finishing::apply(const std::vector<std::pair<Row, Diff>>& rows) const {
  std::vector<std::vector<Datum>> expanded;
  RowArena arena;
  for (const auto& [row, diff] : rows) {
    if (diff < 0) return Status::error(sqlstate::kInternalError, "negative multiplicity in a peek result");
    auto datums = unpack(row.ref(), &arena);
    for (Diff i = 0; i < diff; ++i) expanded.push_back(datums);
  }
  if (!order_by.empty()) {
    std::stable_sort(expanded.begin(), expanded.end(), [&](const auto& a, const auto& b) {
      for (const SortKey& k : order_by) {
        const Datum& x = a[k.column];
        const Datum& y = b[k.column];
        if (x.is_null() != y.is_null()) return x.is_null() == k.nulls_first;
        int c = compare_datums(x, y);
        if (c != 0) return k.desc ? c > 0 : c < 0;
      }
      return false;
    });
  }
  size_t begin = std::min(expanded.size(), static_cast<size_t>(std::max<int64_t>(offset, 0)));
  size_t end = expanded.size();
  if (limit && static_cast<size_t>(*limit) < end - begin) end = begin + static_cast<size_t>(*limit);
  std::vector<Row> out;
  for (size_t i = begin; i < end; ++i) {
    Row r;
    RowPacker packer(&r);
    for (size_t c = 0; c < visible; ++c) packer.push(expanded[i][c]);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace tandem::planner
