// Table functions of a FlatMap, as plain data. Each output row of a FlatMap
// is its input row followed by the function's output columns.
//   generate_series(start, stop [, step]) over int4 or int8: one column,
//   start, start+step, ... while <= stop (>= stop for a negative step);
//   NULL arguments give no rows; step 0 is 22023 "step size cannot equal
//   zero".
//   unnest(array): one column of the element type, one row per element in
//   order, NULL elements included; a NULL or empty array gives no rows.
//   jsonb_each[_text](jsonb): two columns (key text, value jsonb|text);
//   jsonb_array_elements[_text](jsonb): one column (value jsonb|text);
//   jsonb_object_keys(jsonb): one column (text); in document order
//   (common/jsonb.hpp's expand_jsonb, with its errors).
// Threading: plain value.
#pragma once

#include <cstdint>

namespace tandem::compute {

enum class TableFunc : std::uint8_t {
  kGenerateSeriesInt4,
  kGenerateSeriesInt8,
  kUnnest,
  kJsonbEach,
  kJsonbEachText,
  kJsonbArrayElements,
  kJsonbArrayElementsText,
  kJsonbObjectKeys,
};

inline const char* table_func_name(TableFunc f) {
  switch (f) {
    case TableFunc::kUnnest: return "unnest";
    case TableFunc::kJsonbEach: return "jsonb_each";
    case TableFunc::kJsonbEachText: return "jsonb_each_text";
    case TableFunc::kJsonbArrayElements: return "jsonb_array_elements";
    case TableFunc::kJsonbArrayElementsText: return "jsonb_array_elements_text";
    case TableFunc::kJsonbObjectKeys: return "jsonb_object_keys";
    default: return "generate_series";
  }
}

}  // namespace tandem::compute
