#include "bench/tandem_bench/sql_session.hpp"

#include <stdexcept>

namespace tandem::bench {
namespace {

// Takes ownership of `res`; throws when it is not a success.
PGresult* checked(PGconn* conn, PGresult* res, const std::string& what) {
  ExecStatusType status = PQresultStatus(res);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_COPY_IN) return res;
  std::string error = res ? PQresultErrorMessage(res) : PQerrorMessage(conn);
  PQclear(res);
  while (!error.empty() && error.back() == '\n') error.pop_back();
  throw std::runtime_error(what + ": " + error);
}

}  // namespace

SqlSession::SqlSession(const std::string& conninfo) {
  conn_ = PQconnectdb(conninfo.c_str());
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string error = PQerrorMessage(conn_);
    PQfinish(conn_);
    throw std::runtime_error("connect: " + error);
  }
  // Notices (e.g. "already exists, skipping") are not results: keep them
  // out of the benchmark's output.
  PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
}

SqlSession::~SqlSession() {
  if (conn_) PQfinish(conn_);
}

void SqlSession::exec(const std::string& sql) { PQclear(checked(conn_, PQexec(conn_, sql.c_str()), sql)); }

std::vector<std::vector<std::string>> SqlSession::query(const std::string& sql) {
  PGresult* res = checked(conn_, PQexec(conn_, sql.c_str()), sql);
  std::vector<std::vector<std::string>> rows(PQntuples(res));
  for (int r = 0; r < PQntuples(res); ++r)
    for (int c = 0; c < PQnfields(res); ++c) rows[r].push_back(PQgetvalue(res, r, c));
  PQclear(res);
  return rows;
}

void SqlSession::prepare(const std::string& name, const std::string& sql) {
  PQclear(checked(conn_, PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr), "PREPARE " + sql));
}

void SqlSession::copy_in(const std::string& table, uint64_t rows,
                         const std::function<void(uint64_t, std::string&)>& row) {
  std::string sql = "COPY " + table + " FROM STDIN";
  PQclear(checked(conn_, PQexec(conn_, sql.c_str()), sql));
  std::string chunk, line;
  for (uint64_t i = 0; i < rows; ++i) {
    line.clear();
    row(i, line);
    chunk += line;
    chunk += '\n';
    if (chunk.size() >= (1 << 20) || i + 1 == rows) {
      if (PQputCopyData(conn_, chunk.data(), static_cast<int>(chunk.size())) != 1)
        throw std::runtime_error(sql + ": " + PQerrorMessage(conn_));
      chunk.clear();
    }
  }
  if (PQputCopyEnd(conn_, nullptr) != 1) throw std::runtime_error(sql + ": " + PQerrorMessage(conn_));
  PQclear(checked(conn_, PQgetResult(conn_), sql));
  while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);
}

PGconn* SqlSession::release() {
  PGconn* conn = conn_;
  conn_ = nullptr;
  return conn;
}

}  // namespace tandem::bench
