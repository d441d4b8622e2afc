#pragma once
// What the bench drivers share: a libpq connection that dies loudly on an
// error, steady_clock helpers and a latency sample set with percentiles.
#include <errno.h>
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

[[noreturn]] inline void die(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", program_invocation_short_name, what.c_str());
  std::exit(1);
}

class Connection {
 public:
  Connection(const char* conninfo, const char* label) : label_(label) {
    conn_ = PQconnectdb(conninfo);
    if (PQstatus(conn_) != CONNECTION_OK) die(label_ + ": " + PQerrorMessage(conn_));
  }
  ~Connection() { PQfinish(conn_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs `sql` with text parameters; returns the rows as text (NULL as "").
  std::vector<std::vector<std::string>> run(const std::string& sql, const std::vector<std::string>& params = {}) {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p.c_str());
    PGresult* res = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                                 nullptr, 0);
    ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      std::string error = PQresultErrorMessage(res);
      PQclear(res);
      die(label_ + ": " + sql + ": " + error);
    }
    std::vector<std::vector<std::string>> rows(PQntuples(res));
    for (int r = 0; r < PQntuples(res); ++r) {
      for (int c = 0; c < PQnfields(res); ++c) rows[r].push_back(PQgetvalue(res, r, c));
    }
    PQclear(res);
    return rows;
  }

  PGconn* raw() { return conn_; }

 private:
  PGconn* conn_ = nullptr;
  std::string label_;
};

struct Samples {
  std::vector<double> us;
  void add(double v) { us.push_back(v); }
  double pct(double p) {
    if (us.empty()) return 0;
    std::sort(us.begin(), us.end());
    size_t i = static_cast<size_t>(p / 100.0 * static_cast<double>(us.size() - 1) + 0.5);
    return us[std::min(i, us.size() - 1)];
  }
  double mean() const {
    double s = 0;
    for (double v : us) s += v;
    return us.empty() ? 0 : s / static_cast<double>(us.size());
  }
};

inline void print_row(const char* name, Samples& s) {
  std::printf("%-42s %7zu %11.0f %11.0f %11.0f %11.0f\n", name, s.us.size(), s.pct(50), s.pct(99), s.pct(100),
              s.mean());
}

inline void print_header() {
  std::printf("%-42s %7s %11s %11s %11s %11s\n", "µs", "n", "p50", "p99", "max", "mean");
}

}  // namespace bench
