#pragma once
// One-dimensional arrays (PostgreSQL's anyarray restricted to one dimension
// with lower bound 1, which is every array PostgreSQL itself builds with
// ARRAY[...], array_agg, string_to_array and '{...}' literals).
//
// Representation: an array Datum (DatumKind::kArray) borrows the packed Row
// of its elements (common/row.hpp), NULL elements included. In a Row an
// array is its tag, the elements' datums and an end byte below every tag,
// so memcmp order is PostgreSQL's array order: element by element, NULL
// elements last, a prefix first.
//
// Text I/O is array_in/array_out: `{1,2,NULL}`, elements quoted when empty,
// "NULL", or holding whitespace or one of `{}",\` (`{"a b","x\"y"}`).
// Input errors: 22P02 `malformed array literal: "..."` with PostgreSQL's
// detail; a multidimensional literal or explicit bounds (`[0:1]={..}`) is
// 0A000. Binary I/O is array_send/array_recv (ndim, has-nulls flag,
// element OID, then dimension and lower bound, then length-prefixed
// elements).
// Threading: pure functions; results borrow from the caller's RowArena.

#include <string>
#include <string_view>

#include "common/datum.hpp"
#include "common/row.hpp"
#include "common/row_arena.hpp"
#include "common/status.hpp"
#include "common/types.hpp"

namespace tandem {

// Collects elements, then hands out the array datum (bytes in `arena`).
class ArrayBuilder {
 public:
  ArrayBuilder() : packer_(&bytes_) {}
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;
  void push(const Datum& element) { packer_.push(element); }
  // Appends the elements of another array datum.
  void append(const Datum& array) { bytes_.append(array.as_array()); }
  Datum finish(RowArena& arena) const { return Datum::from_array(arena.push(bytes_)); }

 private:
  std::string bytes_;
  RowPacker packer_;
};

// Number of elements.
size_t array_size(const Datum& array);
// Element i (0-based); REQUIRES i < array_size(array).
Datum array_element(const Datum& array, size_t i, RowArena& arena);

void format_array(const Datum& array, std::string* out);
Result<Datum> parse_array(std::string_view text, const ColumnType& type, RowArena& arena);
void send_array(const Datum& array, const ColumnType& type, std::string* out);
Result<Datum> recv_array(std::string_view bytes, const ColumnType& type, RowArena& arena);

// Element-wise cast between array types (int4[] -> int8[], text[] -> int2[]).
Result<Datum> cast_array(const Datum& array, const ColumnType& from, const ColumnType& to, bool explicit_cast,
                         RowArena& arena);

}  // namespace tandem
