#pragma once
// The request bodies of the SQL APIs (reference: http-api.md), decoded from
// JSON into plain values, with a clear error for anything malformed:
//  * simple:   {"query": "SELECT 1; SELECT 2"}  (any number of statements)
//  * extended: {"queries": [{"query": "SELECT $1::int", "params": ["2"]}]}
//              (one statement per entry; text parameters, null = SQL NULL)
//  * the WebSocket's first message: {"user", "password", "options"}
//  * session options: a JSON object of name: value (the `options` URL
//    parameter of /api/sql, the WebSocket's first message).
// Errors are 08P01 statuses whose message says what is wrong; the HTTP
// endpoint answers them with 400.
//
// Threading: pure functions.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.hpp"

namespace tandem::frontend::http {

struct SqlQuery {
  std::string sql;
  // Extended bodies only: one text value per parameter, nullopt = NULL.
  std::vector<std::optional<std::string>> params;
};

struct SqlRequest {
  bool extended = false;
  std::vector<SqlQuery> queries;  // simple: exactly one (its text may hold several statements)
};

using SessionOptions = std::vector<std::pair<std::string, std::string>>;

Result<SqlRequest> parse_sql_request(std::string_view body);

// A JSON object of name: value; values may be strings, numbers or booleans
// (their text is the variable's value).
Result<SessionOptions> parse_session_options(std::string_view json_text);

struct WebSocketAuth {
  std::optional<std::string> user;
  std::optional<std::string> password;
  SessionOptions options;
};
Result<WebSocketAuth> parse_websocket_auth(std::string_view text);

// The percent-decoded value of the query parameter `name` of a request
// target ("/api/sql?options=%7B...%7D"); nullopt when absent.
Result<std::optional<std::string>> url_query_parameter(std::string_view target, std::string_view name);
// The target's path, without the query.
std::string_view url_path(std::string_view target);

}  // namespace tandem::frontend::http
