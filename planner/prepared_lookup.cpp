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
  EvalContext ctx;
  std::vector<std::vector<Datum>> values(key_values.size());
  for (size_t k = 0; k < key_values.size(); ++k) {
    for (const ScalarExpr& e : key_values[k]) {
      TANDEM_ASSIGN_OR_RETURN(Datum d, eval(e, params, ctx));
      // `key = NULL` holds for no row.
      if (!d.is_null()) values[k].push_back(d);
    }
    if (values[k].empty()) return std::vector<Row>{};
  }
  return pack_lookup_keys(values);
}

}  // namespace tandem::planner
