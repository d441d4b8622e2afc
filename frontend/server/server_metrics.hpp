#pragma once
// ServerMetrics: counters the front ends keep for GET /metrics (Prometheus
// text, frontend/http/metrics_text.hpp): statements by kind and outcome,
// HTTP requests by endpoint and status class, WebSocket sessions. Counts
// since boot; gauges (connections) are read from their owners.
//
// Threading: every method is thread-safe (relaxed atomics; a scrape may see
// one counter a statement ahead of another).

#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>

#include "planner/parser/ast_statement.hpp"

namespace tandem::frontend {

// Materialize's statement_type label values ("select", "create_table", ...),
// one per kind of sql::Statement.
inline constexpr size_t kStatementKinds = std::variant_size_v<sql::Statement::Node>;
std::string_view statement_kind_name(size_t kind);
inline size_t statement_kind(const sql::Statement& s) { return s.node.index(); }

enum class StatementOutcome : uint8_t { kSuccess, kError, kCanceled };
inline constexpr size_t kStatementOutcomes = 3;
std::string_view statement_outcome_name(StatementOutcome outcome);

// The endpoints the HTTP listener serves, for the request counter's label.
enum class HttpEndpoint : uint8_t { kSql, kWebSocket, kHealth, kMetrics, kConsole, kOther };
inline constexpr size_t kHttpEndpoints = 6;
std::string_view http_endpoint_name(HttpEndpoint endpoint);

class ServerMetrics {
 public:
  void count_statement(size_t kind, StatementOutcome outcome) {
    statements_[kind][static_cast<size_t>(outcome)].fetch_add(1, std::memory_order_relaxed);
  }
  uint64_t statements(size_t kind, StatementOutcome outcome) const {
    return statements_[kind][static_cast<size_t>(outcome)].load(std::memory_order_relaxed);
  }
  // `status` is the HTTP status code answered (101 for a WebSocket upgrade).
  void count_http_request(HttpEndpoint endpoint, unsigned status) {
    size_t cls = status / 100;
    if (cls > 5) cls = 5;
    http_requests_[static_cast<size_t>(endpoint)][cls].fetch_add(1, std::memory_order_relaxed);
  }
  // By status class: index 1 = 1xx ... 5 = 5xx.
  uint64_t http_requests(HttpEndpoint endpoint, size_t status_class) const {
    return http_requests_[static_cast<size_t>(endpoint)][status_class].load(std::memory_order_relaxed);
  }
  // Open connections of each listener.
  std::atomic<int64_t> pgwire_connections{0};
  std::atomic<int64_t> http_connections{0};
  std::atomic<int64_t> websocket_sessions{0};

 private:
  std::array<std::array<std::atomic<uint64_t>, kStatementOutcomes>, kStatementKinds> statements_{};
  std::array<std::array<std::atomic<uint64_t>, 6>, kHttpEndpoints> http_requests_{};
};

}  // namespace tandem::frontend
