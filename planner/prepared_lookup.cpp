#include "planner/prepared_lookup.hpp"

#include "common/eval.hpp"
#include "common/eval_context.hpp"

namespace tandem::planner {

std::vector<Row> pack_lookup_keys(const std::vector<std::vector<Datum>>& values) {
  std::vector<Row> rows{Row()};
  for (const auto& column : values) {
    std::vector<Row> next;
    next.reserve(rows.size() * column.size());
    for (const Row& prefix : rows) {
      for (const Datum& d : column) {
        std::string bytes(prefix.bytes());
        RowPacker packer(&bytes);
        packer.set_normalize_numeric(true);
        packer.push(d);
        next.push_back(Row(std::move(bytes)));
      }
    }
    rows = std::move(next);
  }
  return rows;
}

Result<std::vector<Row>> PreparedLookup::keys(std::span<const Datum> params) const {
  if (key_values.size() == 1 && key_values[0].size() == 1) {
    // The common `key = $n`: no evaluation, one key.
    if (auto* param = std::get_if<ColumnRef>(&key_values[0][0].node); param && param->index < params.size()) {
      const Datum& d = params[param->index];
      std::vector<Row> one;
      if (d.is_null()) return one;
      Row& key = one.emplace_back();
      RowPacker packer(&key);
      packer.set_normalize_numeric(true);
      packer.push(d);
      return one;
    }
  }
  std::optional<EvalContext> ctx;  // its arena allocates: only when evaluating
  std::vector<std::vector<Datum>> values(key_values.size());
  for (size_t k = 0; k < key_values.size(); ++k) {
    for (const ScalarExpr& e : key_values[k]) {
      if (!ctx) ctx.emplace();
      TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, params, *ctx));
      // `key = NULL` holds for no row.
      if (!d.is_null()) values[k].push_back(d);
    }
    if (values[k].empty()) return std::vector<Row>{};
  }
  return pack_lookup_keys(values);
}

}  // namespace tandem::planner
