#include "tests/testdrive/runner/td_reset.hpp"

#include <cctype>
#include <chrono>
#include <memory>
#include <vector>

namespace tandem::td {
namespace {

constexpr std::chrono::seconds kStatementTimeout{30};
constexpr int kMaxRounds = 5;
const char* const kBuiltinClusters[] = {"quickstart", "mz_system", "mz_catalog_server"};

// The rows of a query's last result, or nullopt with *error.
std::optional<std::vector<std::vector<std::string>>> rows_of(slt::PgSession& session,
                                                             const std::string& sql,
                                                             std::string* error) {
  const slt::ExecOutcome outcome = session.execute(sql, kStatementTimeout);
  if (outcome.timed_out || outcome.error || outcome.results.empty()) {
    *error = sql + ": " + (outcome.error ? outcome.error->message : std::string("timed out"));
    return std::nullopt;
  }
  const PGresult* result = outcome.results.back().get();
  std::vector<std::vector<std::string>> rows;
  for (int r = 0; r < PQntuples(result); ++r) {
    std::vector<std::string> row;
    for (int c = 0; c < PQnfields(result); ++c) row.emplace_back(PQgetvalue(result, r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::string quote_identifier(const std::string& name) {
  std::string quoted = "\"";
  for (const char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string drop_statement(const std::string& type, const std::string& name) {
  std::string keyword;
  for (const char c : type) keyword += c == '-' ? ' ' : static_cast<char>(std::toupper(c));
  static const char* const kDroppable[] = {"TABLE", "VIEW", "MATERIALIZED VIEW", "INDEX", "SOURCE",
                                           "SINK", "CONNECTION", "SECRET", "TYPE"};
  for (const char* droppable : kDroppable) {
    if (keyword == droppable) return "DROP " + keyword + " IF EXISTS " + quote_identifier(name) + " CASCADE";
  }
  return "";
}

std::optional<std::string> reset_catalog(const slt::ConnectTarget& target) {
  std::string error;
  std::unique_ptr<slt::PgSession> session = slt::PgSession::connect(target, &error);
  if (!session) return "cannot connect: " + error;

  auto clusters = rows_of(*session, "SHOW CLUSTERS", &error);
  if (!clusters) return error;
  for (const auto& row : *clusters) {
    bool builtin = false;
    for (const char* name : kBuiltinClusters) builtin = builtin || row.at(0) == name;
    if (builtin) continue;
    const std::string sql = "DROP CLUSTER IF EXISTS " + quote_identifier(row.at(0)) + " CASCADE";
    const slt::ExecOutcome outcome = session->execute(sql, kStatementTimeout);
    if (outcome.error) return sql + ": " + outcome.error->message;
  }

  for (int round = 0; round < kMaxRounds; ++round) {
    auto objects = rows_of(*session, "SHOW OBJECTS", &error);
    if (!objects) return error;
    if (objects->empty()) return std::nullopt;
    for (const auto& row : *objects) {
      const std::string sql = drop_statement(row.at(1), row.at(0));
      if (sql.empty()) return "cannot drop " + row.at(0) + ", an object of type " + row.at(1);
      // An error here (the object went with an earlier CASCADE, or depends
      // on something dropped later) is retried in the next round.
      session->execute(sql, kStatementTimeout);
    }
  }
  return "objects remain after " + std::to_string(kMaxRounds) + " rounds of DROP";
}

}  // namespace tandem::td
