#pragma once
// Value I/O: PostgreSQL 15's text output and input functions (typoutput /
// typinput) and its wire binary formats (typsend / typreceive) for every
// TypeId. Used by pgwire (DataRow, Bind parameters, COPY) and by casts
// to/from text.
//
// Text output matches PostgreSQL with DateStyle=ISO, IntervalStyle=postgres,
// TimeZone=UTC, extra_float_digits=1 (shortest round-trip floats), bytea_output
// =hex. Input errors carry PostgreSQL's messages and SQLSTATEs (22P02 bad
// syntax, 22003 out of range, 22007/22008 date/time, 22001 too long).
// Var-length results are allocated in the caller's RowArena.
// Threading: pure functions.

#include <string>
#include <string_view>

#include "common/datum.hpp"
#include "common/row_arena.hpp"
#include "common/status.hpp"
#include "common/types.hpp"

namespace tandem {

// Appends the text form of a non-null datum of the given type.
void format_datum(const Datum& d, const ColumnType& type, std::string* out);
std::string datum_to_text(const Datum& d, const ColumnType& type);

// Parses the text form of a value of `type` (typmods enforced as the input
// function does: varchar(n) too long -> 22001, char(n) padded, numeric(p,s)
// rounded/checked). Never returns NULL.
Result<Datum> parse_datum(std::string_view text, const ColumnType& type, RowArena& arena);

// Binary wire format. send appends the value bytes (without the int32 length).
void send_datum(const Datum& d, const ColumnType& type, std::string* out);
Result<Datum> recv_datum(std::string_view bytes, const ColumnType& type, RowArena& arena);

// Pieces exposed for casts and other layers.
void format_float8(double v, std::string* out);
void format_float4(float v, std::string* out);
Result<double> parse_float8(std::string_view text);
Result<float> parse_float4(std::string_view text);
// int2/int4/int8/oid input functions, range checked for `type`.
Result<int64_t> parse_integer(std::string_view text, TypeId type);
Result<bool> parse_bool(std::string_view text);
void format_bytea(std::string_view bytes, std::string* out);
Result<std::string_view> parse_bytea(std::string_view text, RowArena& arena);
// varchar(n)/char(n) coercion. `explicit_cast` truncates silently (SQL cast
// semantics); otherwise excess non-space characters are 22001. Lengths count
// UTF-8 characters. May allocate the padded result in the arena.
Result<std::string_view> coerce_char_length(std::string_view s, const ColumnType& type, bool explicit_cast,
                                            RowArena& arena);
size_t utf8_length(std::string_view s);

}  // namespace tandem
