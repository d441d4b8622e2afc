#include "tests/difftest/conn.hpp"

#include <poll.h>

#include <chrono>

namespace tandem::difftest {

Connection::Connection(std::string conninfo, int timeout_seconds)
    : conninfo_(std::move(conninfo)), timeout_seconds_(timeout_seconds) {}

Connection::~Connection() {
  if (conn_) PQfinish(conn_);
}

bool Connection::connect() {
  if (conn_) PQfinish(conn_);
  conn_ = PQconnectdb(conninfo_.c_str());
  if (PQstatus(conn_) != CONNECTION_OK) {
    PQfinish(conn_);
    conn_ = nullptr;
    return false;
  }
  PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
  return true;
}

bool Connection::connected() const { return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK; }

namespace {

// Waits until the connection has a complete result or the deadline passes.
bool wait_ready(PGconn* c, std::chrono::steady_clock::time_point deadline) {
  while (true) {
    if (!PQconsumeInput(c)) return true;  // the error surfaces in PQgetResult
    if (!PQisBusy(c)) return true;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{PQsocket(c), POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(std::min<long>(left.count(), 1000)));
  }
}

}  // namespace

Result Connection::exec(const std::string& sql) {
  Result out;
  if (!connected()) return out;
  if (!PQsendQuery(conn_, sql.c_str())) {
    out.message = PQerrorMessage(conn_);
    return out;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds_);
  bool timed_out = false;
  if (!wait_ready(conn_, deadline)) {
    timed_out = true;
    PGcancel* cancel = PQgetCancel(conn_);
    char err[256];
    PQcancel(cancel, err, sizeof err);
    PQfreeCancel(cancel);
    if (!wait_ready(conn_, std::chrono::steady_clock::now() + std::chrono::seconds(10))) {
      PQfinish(conn_);
      conn_ = nullptr;
      out.message = "no answer " + std::to_string(timeout_seconds_) + " s after the statement, nor to the cancel";
      return out;
    }
  }
  bool any = false;
  while (PGresult* r = PQgetResult(conn_)) {
    any = true;
    switch (PQresultStatus(r)) {
      case PGRES_TUPLES_OK:
      case PGRES_COMMAND_OK:
      case PGRES_EMPTY_QUERY: {
        out = Result{};
        out.status = Result::Status::kOk;
        out.tag = PQcmdStatus(r);
        const int nf = PQnfields(r);
        for (int c = 0; c < nf; ++c) out.types.push_back(PQftype(r, c));
        for (int i = 0; i < PQntuples(r); ++i) {
          std::vector<std::optional<std::string>> row;
          for (int c = 0; c < nf; ++c) {
            if (PQgetisnull(r, i, c)) {
              row.emplace_back(std::nullopt);
            } else {
              row.emplace_back(std::string(PQgetvalue(r, i, c), static_cast<std::size_t>(PQgetlength(r, i, c))));
            }
          }
          out.rows.push_back(std::move(row));
        }
        break;
      }
      default: {
        out = Result{};
        out.status = Result::Status::kError;
        const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        out.sqlstate = state ? state : "";
        const char* msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        out.message = msg ? msg : PQresultErrorMessage(r);
        break;
      }
    }
    PQclear(r);
  }
  if (!any || PQstatus(conn_) != CONNECTION_OK || (out.status == Result::Status::kError && out.sqlstate.empty())) {
    out.status = Result::Status::kLost;
    if (out.message.empty()) out.message = PQerrorMessage(conn_);
  }
  if (timed_out && out.status == Result::Status::kError) out.message += " (cancelled by difftest after its deadline)";
  return out;
}

}  // namespace tandem::difftest
