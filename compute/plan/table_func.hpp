// Table functions of a FlatMap, as plain data. Each output row of a FlatMap
// is its input row followed by the function's output columns.
//   generate_series(start, stop [, step]) over int4 or int8: one column,
//   start, start+step, ... while <= stop (>= stop for a negative step);
//   NULL arguments give no rows; step 0 is 22023 "step size cannot equal
//   zero".
//   unnest(array): one column of the element type, one row per element in
//   order, NULL elements included; a NULL or empty array gives no rows.
// Threading: plain value.
#pragma once

#include <cstdint>

namespace tandem::compute {

enum class TableFunc : std::uint8_t {
  kGenerateSeriesInt4,
  kGenerateSeriesInt8,
  kUnnest,
};

inline const char* table_func_name(TableFunc f) {
  return f == TableFunc::kUnnest ? "unnest" : "generate_series";
}

}  // namespace tandem::compute
