#pragma once
// JSON encoding of results for the HTTP and WebSocket SQL APIs
// (reference: http-api.md), written straight into an output string so a
// streamed result costs no intermediate document per row.
//
// Values: NULL -> null; bool -> true/false; int2/int4/int8/oid and finite
// float4/float8 -> numbers; numeric -> a number when a JSON reader's double
// holds it exactly (at most 15 significant digits), else its text as a
// string (as are NaN and the infinities of every type); mz_timestamp -> its
// digits as a string (a uint64 a double would round); arrays -> JSON arrays
// of their elements; every other type -> its PostgreSQL text form as a
// string.
//
// Threading: pure functions.

#include <span>
#include <string>
#include <string_view>

#include "common/jsonb.hpp"
#include "common/row.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"

namespace tandem::frontend::http {

// A JSON string literal (quoted and escaped): jsonb's (common/jsonb.hpp).
using ::tandem::append_json_string;
// One row as a JSON array of values.
void append_row(std::span<const ResultColumn> columns, const Row& row, RowArena& arena, std::string* out);
// {"columns": [{"name", "type_oid", "type_len", "type_mod"}, ...]}
void append_description(std::span<const ResultColumn> columns, std::string* out);
// {"message", "code"[, "detail", "hint", "position"]}
void append_error(const Status& status, std::string* out);
// {"message", "code", "severity"[, "detail", "hint"]}
void append_notice(const ResultNotice& notice, std::string* out);

}  // namespace tandem::frontend::http
