#pragma once
// SqlSession: a blocking libpq connection for set-up work (DDL, loading,
// ALTER SYSTEM) that throws std::runtime_error with the server's message on
// any failure, so a scenario that cannot be set up reports why and the run
// goes on with the next one. Measured traffic goes through LoadDriver.
// Threading: one thread at a time.

#include <libpq-fe.h>

#include <functional>
#include <string>
#include <vector>

namespace tandem::bench {

class SqlSession {
 public:
  explicit SqlSession(const std::string& conninfo);
  ~SqlSession();
  SqlSession(const SqlSession&) = delete;
  SqlSession& operator=(const SqlSession&) = delete;

  void exec(const std::string& sql);
  // Rows of `sql` as text (NULL as "").
  std::vector<std::vector<std::string>> query(const std::string& sql);
  void prepare(const std::string& name, const std::string& sql);
  // COPY `table` FROM STDIN of `rows` lines; row(i, line) fills line i
  // (tab-separated, without the newline).
  void copy_in(const std::string& table, uint64_t rows, const std::function<void(uint64_t, std::string&)>& row);
  // Hands the connection over (the session no longer owns it).
  PGconn* release();

 private:
  PGconn* conn_ = nullptr;
};

}  // namespace tandem::bench
