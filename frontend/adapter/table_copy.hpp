#pragma once
// COPY t [(cols)] FROM STDIN: binding (target columns, defaults, format) at
// Parse, and turning the received data into one write at CopyDone. Every
// value goes through its column type's input function; the first bad line
// fails the whole COPY (nothing is written) with an error naming the line.
// Threading: pure over an immutable catalog snapshot.

#include <memory>
#include <string_view>
#include <vector>

#include "catalog/catalog_snapshot.hpp"
#include "common/eval_context.hpp"
#include "frontend/adapter/copy_format.hpp"
#include "frontend/adapter/table_insert.hpp"
#include "frontend/coord/coordinator.hpp"

namespace tandem::frontend {

struct BoundCopyIn {
  std::shared_ptr<BoundInsert> target;  // table, targets and defaults
  CopyFormat format;
};

Result<std::shared_ptr<const BoundCopyIn>> bind_copy_in(const catalog::CatalogSnapshot& snapshot,
                                                        const catalog::SearchPath& path, const sql::Copy& copy);

// The write adding the rows of `data`; `*rows` counts them.
Result<TableWrite> evaluate_copy_in(const BoundCopyIn& copy, std::string_view data, EvalContext& ctx, size_t* rows);

}  // namespace tandem::frontend
