#include "frontend/http/sql_request.hpp"

#include <nlohmann/json.hpp>

namespace tandem::frontend::http {

using nlohmann::json;

namespace {

Status bad_request(std::string message) { return Status::error(sqlstate::kProtocolViolation, std::move(message)); }

Result<json> parse_json(std::string_view text, std::string_view what) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return bad_request(std::string(what) + " is not valid JSON");
  return value;
}

std::string json_kind(const json& v) { return v.type_name(); }

Result<SessionOptions> options_from_json(const json& object, std::string_view what) {
  if (!object.is_object()) {
    return bad_request(std::string(what) + " must be a JSON object of name: value, not " + json_kind(object));
  }
  SessionOptions out;
  for (const auto& [name, value] : object.items()) {
    if (value.is_string()) {
      out.emplace_back(name, value.get<std::string>());
    } else if (value.is_number() || value.is_boolean()) {
      out.emplace_back(name, value.dump());
    } else {
      return bad_request(std::string(what) + ": the value of \"" + name + "\" must be a string, not " +
                         json_kind(value));
    }
  }
  return out;
}

}  // namespace

Result<SqlRequest> parse_sql_request(std::string_view body) {
  TANDEM_ASSIGN_OR_RETURN(json value, parse_json(body, "the request body"));
  if (!value.is_object()) {
    return bad_request("the request body must be a JSON object with \"query\" or \"queries\", not " +
                       json_kind(value));
  }
  SqlRequest request;
  const bool simple = value.contains("query");
  const bool extended = value.contains("queries");
  if (simple == extended) {
    return bad_request("the request body must have exactly one of \"query\" (a string) or \"queries\" (an array)");
  }
  for (const auto& [key, unused] : value.items()) {
    if (key != "query" && key != "queries") return bad_request("unknown field \"" + key + "\" in the request body");
  }
  if (simple) {
    const json& query = value["query"];
    if (!query.is_string()) return bad_request("\"query\" must be a string, not " + json_kind(query));
    request.queries.push_back(SqlQuery{query.get<std::string>(), {}});
    return request;
  }
  request.extended = true;
  const json& queries = value["queries"];
  if (!queries.is_array()) return bad_request("\"queries\" must be an array, not " + json_kind(queries));
  for (size_t i = 0; i < queries.size(); ++i) {
    const json& entry = queries[i];
    const std::string where = "queries[" + std::to_string(i) + "]";
    if (!entry.is_object()) return bad_request(where + " must be an object, not " + json_kind(entry));
    SqlQuery query;
    for (const auto& [key, field] : entry.items()) {
      if (key == "query") {
        if (!field.is_string()) return bad_request(where + ".query must be a string, not " + json_kind(field));
        query.sql = field.get<std::string>();
      } else if (key == "params") {
        if (!field.is_array()) return bad_request(where + ".params must be an array, not " + json_kind(field));
        for (size_t p = 0; p < field.size(); ++p) {
          const json& param = field[p];
          if (param.is_null()) {
            query.params.emplace_back(std::nullopt);
          } else if (param.is_string()) {
            query.params.emplace_back(param.get<std::string>());
          } else {
            return bad_request(where + ".params[" + std::to_string(p) + "] must be a string or null, not " +
                               json_kind(param));
          }
        }
      } else {
        return bad_request("unknown field \"" + key + "\" in " + where);
      }
    }
    if (!entry.contains("query")) return bad_request(where + " has no \"query\"");
    request.queries.push_back(std::move(query));
  }
  return request;
}

Result<SessionOptions> parse_session_options(std::string_view json_text) {
  TANDEM_ASSIGN_OR_RETURN(json value, parse_json(json_text, "options"));
  return options_from_json(value, "options");
}

Result<WebSocketAuth> parse_websocket_auth(std::string_view text) {
  TANDEM_ASSIGN_OR_RETURN(json value, parse_json(text, "the authentication message"));
  if (!value.is_object()) {
    return bad_request("the first message must be a JSON object {\"user\", \"password\", \"options\"}, not " +
                       json_kind(value));
  }
  WebSocketAuth auth;
  for (const auto& [key, field] : value.items()) {
    if (key == "user" || key == "password") {
      if (!field.is_string()) return bad_request("\"" + key + "\" must be a string, not " + json_kind(field));
      (key == "user" ? auth.user : auth.password) = field.get<std::string>();
    } else if (key == "options") {
      TANDEM_ASSIGN_OR_RETURN(auth.options, options_from_json(field, "\"options\""));
    } else {
      return bad_request("unknown field \"" + key +
                         "\" in the authentication message (expected \"user\", \"password\", \"options\")");
    }
  }
  return auth;
}

std::string_view url_path(std::string_view target) { return target.substr(0, target.find('?')); }

Result<std::optional<std::string>> url_query_parameter(std::string_view target, std::string_view name) {
  size_t q = target.find('?');
  if (q == std::string_view::npos) return std::optional<std::string>();
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    size_t eq = pair.find('=');
    if (pair.substr(0, eq) != name) continue;
    std::string_view raw = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    std::string value;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '+') {
        value.push_back(' ');
      } else if (raw[i] == '%') {
        auto hex = [](char c) -> int {
          if (c >= '0' && c <= '9') return c - '0';
          if (c >= 'a' && c <= 'f') return c - 'a' + 10;
          if (c >= 'A' && c <= 'F') return c - 'A' + 10;
          return -1;
        };
        int hi = i + 2 < raw.size() ? hex(raw[i + 1]) : -1;
        int lo = i + 2 < raw.size() ? hex(raw[i + 2]) : -1;
        if (hi < 0 || lo < 0) return bad_request("malformed percent-encoding in the URL parameter " + std::string(name));
        value.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
      } else {
        value.push_back(raw[i]);
      }
    }
    return std::optional<std::string>(std::move(value));
  }
  return std::optional<std::string>();
}

}  // namespace tandem::frontend::http
