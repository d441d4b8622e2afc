#pragma once
// SQL types: the closed set of scalar types tandem supports, with the facts
// PostgreSQL clients and the binder need about each (type OID, typlen, the
// name PostgreSQL prints, typcategory/typispreferred for overload resolution)
// and the parser of type names with all PostgreSQL spellings.
//
// Type modifiers (typmod) use PostgreSQL's encoding so that RowDescription's
// atttypmod matches what PostgreSQL sends:
//   varchar(n), char(n): n + 4;  numeric(p,s): ((p << 16) | s) + 4;
//   time(p)/timestamp(p)/timestamptz(p): p;  -1 = no modifier.
// Threading: pure functions over immutable tables; callable from any thread.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace tandem {

enum class TypeId : uint8_t {
  kUnknown,  // untyped literal or NULL; resolved by the binder
  kBool,
  kInt2,
  kInt4,
  kInt8,
  kFloat4,
  kFloat8,
  kNumeric,
  kText,
  kVarchar,
  kBpchar,  // char(n): blank-padded
  kBytea,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kInterval,
  kOid,
  kMzTimestamp,  // Materialize's uint64 milliseconds timestamp
  kJson,         // validated JSON text, kept as written
  kJsonb,        // decomposed JSON (common/jsonb.hpp)
  // One-dimensional arrays (lower bound 1) of the element types above, with
  // PostgreSQL's array type OIDs (int4[] = 1007, text[] = 1009, ...). An
  // array column's typmod is its elements' (varchar(10)[]). See
  // common/array.hpp for the value representation.
  kBoolArray,
  kInt2Array,
  kInt4Array,
  kInt8Array,
  kFloat4Array,
  kFloat8Array,
  kNumericArray,
  kTextArray,
  kVarcharArray,
  kBpcharArray,
  kByteaArray,
  kDateArray,
  kTimeArray,
  kTimestampArray,
  kTimestampTzArray,
  kIntervalArray,
  kOidArray,
};
inline constexpr int kNumTypeIds = static_cast<int>(TypeId::kOidArray) + 1;

struct ColumnType {
  TypeId id = TypeId::kUnknown;
  int32_t typmod = -1;
  bool nullable = true;

  bool operator==(const ColumnType&) const = default;
  // Same type and modifier; nullability ignored.
  bool same_type(const ColumnType& o) const { return id == o.id && typmod == o.typmod; }
};

// pg_type.typcategory codes.
enum class TypeCategory : char {
  kBoolean = 'B',
  kNumeric = 'N',
  kString = 'S',
  kDateTime = 'D',
  kTimespan = 'T',
  kUserDefined = 'U',
  kArray = 'A',
  kUnknown = 'X',
};

uint32_t type_oid(TypeId id);
// Inverse of type_oid; false when the OID is not one of ours.
bool type_from_oid(uint32_t oid, TypeId* out);
// pg_type.typlen: fixed size in bytes, -1 varlena, -2 C string (unknown).
int16_t type_len(TypeId id);
// The name PostgreSQL's format_type prints without modifiers:
// "integer", "double precision", "timestamp without time zone", ...
std::string_view type_name(TypeId id);
// format_type with modifiers: "character varying(10)", "numeric(10,2)".
std::string format_type(const ColumnType& type);
TypeCategory type_category(TypeId id);
bool type_is_preferred(TypeId id);
bool is_string_type(TypeId id);   // text, varchar, bpchar, unknown
bool is_integer_type(TypeId id);  // int2, int4, int8
bool is_array_type(TypeId id);
// The element type of an array type (REQUIRES: is_array_type), and the array
// type of an element type (kUnknown when tandem has no such array type).
TypeId array_element_type(TypeId array);
TypeId array_type_of(TypeId element);
inline ColumnType array_element_column(const ColumnType& array) {
  return ColumnType{array_element_type(array.id), array.typmod, true};
}

// Parses a type name as written in SQL (case-insensitive, already lowered or
// not) with its parenthesised modifiers. Accepts every PostgreSQL spelling,
// e.g. "int", "double precision", "character varying", "timestamp with time
// zone", "float" with modifier p (p <= 24 -> real, else double precision),
// "decimal", and Materialize's "string"; "int4[]" and PostgreSQL's "_int4"
// name array types. Unknown names: 42704
// `type "foo" does not exist`; bad modifiers: 22023.
Result<ColumnType> type_from_name(std::string_view name, std::span<const int32_t> modifiers = {});

// typmod helpers.
inline int32_t numeric_typmod(int precision, int scale) { return ((precision << 16) | (scale & 0x7ff)) + 4; }
inline int numeric_typmod_precision(int32_t typmod) { return ((typmod - 4) >> 16) & 0xffff; }
inline int numeric_typmod_scale(int32_t typmod) { return (((typmod - 4) & 0x7ff) ^ 1024) - 1024; }
inline int32_t char_typmod(int length) { return length + 4; }
// Declared length of varchar(n)/char(n), or -1.
inline int char_typmod_length(int32_t typmod) { return typmod >= 4 ? typmod - 4 : -1; }

inline constexpr int kNumericMaxPrecision = 1000;

}  // namespace tandem
