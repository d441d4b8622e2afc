// libpqxx 6 against tandemd (or PostgreSQL with CLIENTS_TARGET=postgres),
// as C++ code uses it: pqxx::work and nontransaction, exec_params with
// typed parameters (a bytea sent in binary), connection::prepare and
// exec_prepared, subtransaction, pqxx::sql_error's sqlstate, the result's
// column metadata, stream_to / stream_from (COPY, read as raw lines), and a SUBSCRIBE read
// with DECLARE/FETCH. The server comes from the PG* variables. Each case
// prints ok/FAIL; the last line counts them.
#include <pqxx/pqxx>

#include <cstdlib>
#include <algorithm>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

int passed = 0;
int failed = 0;
const bool kTandem = std::getenv("CLIENTS_TARGET") == nullptr || std::string(std::getenv("CLIENTS_TARGET")) != "postgres";
const std::string T = "pqxx_items";

struct CheckFailed {
  std::string what;
};

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) throw CheckFailed{std::string(#cond) + " (line " + std::to_string(__LINE__) + ")"}; \
  } while (0)

void run(const std::string& name, const std::function<void()>& body) {
  try {
    body();
    std::cout << "ok " << name << "\n";
    ++passed;
  } catch (const CheckFailed& f) {
    std::cout << "FAIL " << name << ": " << f.what << "\n";
    ++failed;
  } catch (const std::exception& e) {
    std::cout << "FAIL " << name << ": " << e.what() << "\n";
    ++failed;
  }
}

void reset(pqxx::connection& c) {
  pqxx::nontransaction n(c);
  n.exec("DELETE FROM " + T);
}

}  // namespace

int main() {
  pqxx::connection conn;
  {
    pqxx::nontransaction n(conn);
    n.exec("DROP TABLE IF EXISTS " + T);
    n.exec("CREATE TABLE " + T + " (id int PRIMARY KEY, name text NOT NULL, qty bigint, raw bytea, ok boolean)");
  }

  run("parameterised DML and SELECT", [&] {
    reset(conn);
    pqxx::work w(conn);
    pqxx::binarystring raw(std::string("\x00\xff\x10", 3));
    w.exec_params("INSERT INTO " + T + " VALUES ($1, $2, $3, $4, $5)", 1, "one", 1LL << 40, raw, true);
    w.exec_params("INSERT INTO " + T + " (id, name) VALUES ($1, $2)", 2, std::string("it's"));
    pqxx::result upd = w.exec_params("UPDATE " + T + " SET qty = qty + $1 WHERE id = $2", 1, 1);
    CHECK(upd.affected_rows() == 1);
    pqxx::result r = w.exec_params("SELECT id, name, qty, raw, ok FROM " + T + " WHERE id >= $1 ORDER BY id", 1);
    CHECK(r.size() == 2);
    CHECK(r[0][0].as<int>() == 1);
    CHECK(r[0]["name"].as<std::string>() == "one");
    CHECK(r[0]["qty"].as<long long>() == (1LL << 40) + 1);
    CHECK(pqxx::binarystring(r[0]["raw"]).str() == std::string("\x00\xff\x10", 3));
    CHECK(r[0]["ok"].as<bool>());
    CHECK(r[1]["name"].as<std::string>() == "it's");
    CHECK(r[1]["qty"].is_null());
    CHECK(r.column_name(2) == std::string("qty"));
    CHECK(r.column_type(2) == 20);
    CHECK(r.column_table(0) == r.column_table(1));
    w.commit();
  });

  run("prepared statements", [&] {
    reset(conn);
    conn.prepare("pqxx_ins", "INSERT INTO " + T + " (id, name) VALUES ($1, $2)");
    conn.prepare("pqxx_get", "SELECT name FROM " + T + " WHERE id = $1");
    pqxx::work w(conn);
    for (int i = 1; i <= 3; ++i) w.exec_prepared("pqxx_ins", i, "n" + std::to_string(i));
    for (int i : {3, 1, 2}) CHECK(w.exec_prepared1("pqxx_get", i)[0].as<std::string>() == "n" + std::to_string(i));
    CHECK(w.exec_prepared("pqxx_get", 9).empty());
    w.commit();
    conn.unprepare("pqxx_get");
  });

  run("commit, rollback and a subtransaction", [&] {
    reset(conn);
    {
      pqxx::work w(conn);
      w.exec0("INSERT INTO " + T + " (id, name) VALUES (1, 'kept')");
      w.commit();
    }
    {
      pqxx::work w(conn);
      w.exec0("INSERT INTO " + T + " (id, name) VALUES (2, 'lost')");
      w.abort();
    }
    {
      pqxx::work w(conn);
      w.exec0("INSERT INTO " + T + " (id, name) VALUES (3, 'outer')");
      {
        pqxx::subtransaction s(w, "inner");
        s.exec0("INSERT INTO " + T + " (id, name) VALUES (4, 'inner')");
        s.abort();
      }
      w.commit();
    }
    pqxx::connection other;
    pqxx::nontransaction n(other);
    pqxx::result r = n.exec("SELECT id FROM " + T + " ORDER BY id");
    CHECK(r.size() == 2);
    CHECK(r[0][0].as<int>() == 1);
    CHECK(r[1][0].as<int>() == 3);
  });

  run("an error and recovery", [&] {
    reset(conn);
    {
      pqxx::work w(conn);
      w.exec0("INSERT INTO " + T + " (id, name) VALUES (1, 'a')");
      w.commit();
    }
    try {
      pqxx::work w(conn);
      w.exec0("INSERT INTO " + T + " (id, name) VALUES (1, 'dup')");
      w.commit();
      CHECK(false);
    } catch (const pqxx::unique_violation& e) {
      CHECK(e.sqlstate() == "23505");
    }
    try {
      pqxx::work w(conn);
      w.exec("SELECT * FROM pqxx_no_such_table");
      CHECK(false);
    } catch (const pqxx::undefined_table& e) {
      CHECK(e.sqlstate() == "42P01");
      CHECK(e.query() == "SELECT * FROM pqxx_no_such_table");
    }
    try {
      pqxx::work w(conn);
      w.exec_params("SELECT 1 / $1::int", 0);
      CHECK(false);
    } catch (const pqxx::data_exception& e) {
      CHECK(e.sqlstate() == "22012");
    }
    pqxx::work w(conn);
    CHECK(w.exec1("SELECT count(*) FROM " + T)[0].as<int>() == 1);
  });

  run("metadata", [&] {
    CHECK(conn.server_version() >= 90000);
    CHECK(std::string(conn.get_variable("client_encoding")) == "UTF8");
    pqxx::work w(conn);
    pqxx::result r = w.exec_params(
        "SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_attribute a "
        "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relname = $1 AND n.nspname = 'public' AND a.attnum > 0 ORDER BY a.attnum",
        T);
    CHECK(r.size() == 5);
    CHECK(r[3][0].as<std::string>() == "raw");
    CHECK(r[3][1].as<std::string>() == "bytea");
    CHECK(r[0][2].as<bool>());
    pqxx::result pk = w.exec_params(
        "SELECT i.indisprimary, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
        "WHERE c.relname = $1",
        T);
    CHECK(pk.size() == 1);
    CHECK(pk[0][0].as<bool>());
    CHECK(pk[0][1].as<std::string>().find("(id)") != std::string::npos);
  });

  run("COPY through stream_to and stream_from", [&] {
    reset(conn);
    {
      pqxx::work w(conn);
      pqxx::stream_to out(w, T, std::vector<std::string>{"id", "name", "qty"});
      out << std::make_tuple(1, std::string("one"), 10LL);
      out << std::make_tuple(2, std::string("tab\there"), std::optional<long long>());
      out.complete();
      w.commit();
    }
    pqxx::work w(conn);
    pqxx::stream_from in(w, T, std::vector<std::string>{"id", "name"});
    // libpqxx 6.4's tuple extraction miscounts fields; the raw COPY lines
    // are what it reads them from.
    std::vector<std::string> rows;
    std::string line;
    while (in.get_raw_line(line)) rows.push_back(line.substr(0, line.find_last_not_of("\n") + 1));
    in.complete();
    std::sort(rows.begin(), rows.end());
    CHECK(rows.size() == 2);
    CHECK(rows[0] == "1\tone");
    CHECK(rows[1] == "2\ttab\\there");
    pqxx::result q = w.exec("SELECT qty FROM " + T + " ORDER BY id");
    CHECK(q[0][0].as<long long>() == 10);
    CHECK(q[1][0].is_null());
  });

  if (kTandem) {
    run("SUBSCRIBE through DECLARE and FETCH", [&] {
      reset(conn);
      {
        pqxx::work w(conn);
        w.exec0("INSERT INTO " + T + " (id, name) VALUES (1, 'a')");
        w.commit();
      }
      pqxx::work w(conn);
      w.exec0("DECLARE c CURSOR FOR SUBSCRIBE (SELECT id, name FROM " + T + ")");
      pqxx::result first = w.exec("FETCH 1 c WITH (timeout = '10s')");
      CHECK(first.size() == 1);
      CHECK(first[0]["mz_diff"].as<long long>() == 1);
      CHECK(first[0]["name"].as<std::string>() == "a");
      {
        pqxx::connection other;
        pqxx::nontransaction n(other);
        n.exec0("UPDATE " + T + " SET name = 'b' WHERE id = 1");
      }
      pqxx::result second = w.exec("FETCH 2 c WITH (timeout = '10s')");
      CHECK(second.size() == 2);
      long long sum = 0;
      for (const auto& row : second) sum += row["mz_diff"].as<long long>();
      CHECK(sum == 0);
      CHECK(second[0]["mz_timestamp"].as<std::string>() > first[0]["mz_timestamp"].as<std::string>() ||
            second[0]["mz_timestamp"].as<std::string>().size() > first[0]["mz_timestamp"].as<std::string>().size());
      w.commit();
    });
  }

  std::cout << "libpqxx: " << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}
