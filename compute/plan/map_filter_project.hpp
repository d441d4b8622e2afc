// MapFilterProject: the fused row-wise operator of STYLE #8, as plain data.
//
// Semantics over an input row of `input_arity` columns:
//   1. `expressions` are appended one by one as columns input_arity,
//      input_arity + 1, ...; each may refer to the input and to earlier
//      expressions.
//   2. The row is kept only if every predicate evaluates to true (NULL and
//      false drop it). A predicate is evaluated as soon as the columns it
//      references exist, before any later expression: `WHERE b <> 0` protects
//      a projected `a / b` exactly as in PostgreSQL.
//   3. The output row is the columns named by `projection`, in order.
// Expressions are evaluated lazily: one that neither a predicate nor the
// projection needs is never evaluated (so it cannot fail). An evaluation error
// turns the row into an error update (see compute/dataflow/mfp_eval.hpp).
// Threading: plain value, immutable once built; share freely.
#pragma once

#include <cstddef>
#include <vector>

#include "common/scalar_expr.hpp"

namespace tandem::compute {

struct MapFilterProject {
  std::size_t input_arity = 0;
  std::vector<ScalarExpr> expressions;
  std::vector<ScalarExpr> predicates;
  std::vector<std::size_t> projection;

  // The identity on rows of `arity` columns.
  static MapFilterProject identity(std::size_t arity) {
    MapFilterProject mfp;
    mfp.input_arity = arity;
    for (std::size_t i = 0; i < arity; ++i) mfp.projection.push_back(i);
    return mfp;
  }
  bool is_identity() const {
    if (!expressions.empty() || !predicates.empty() || projection.size() != input_arity) return false;
    for (std::size_t i = 0; i < projection.size(); ++i)
      if (projection[i] != i) return false;
    return true;
  }
  std::size_t output_arity() const { return projection.size(); }
  bool operator==(const MapFilterProject&) const = default;
};

}  // namespace tandem::compute
