#pragma once
// Matching of a statement's error against a `statement error` / `query
// error` expectation.
//
// The expectation's regex (ECMAScript syntax, close to the Rust regexes of
// Materialize's test files) is searched, unanchored, in three renderings of
// the error: the primary message, Materialize's client form
// "db error: ERROR: <message>", and libpq's full text. An empty regex
// matches any error. A regex std::regex cannot compile is treated as a
// literal substring. A non-empty pgcode must equal the SQLSTATE.

#include <string>

#include "sqllogic/runner/pg_session.hpp"

namespace tandem::slt {

bool error_matches(const PgError& error, const std::string& regex, const std::string& pgcode);

// The lines Materialize's runner prints for an error in `simple` output.
std::string client_error_text(const PgError& error);

}  // namespace tandem::slt
