// Integration: roles and privileges between two users over libpqxx, with
// SCRAM authentication (--password-file) and in trust mode: a user reads
// and writes only what it owns or was granted, cannot drop another's table
// or the default cluster, and roles, grants, memberships and ownership
// survive a restart.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <pqxx/pqxx>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/tandem-privileges-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

// The SQLSTATE `sql` fails with on `c`, or "" when it succeeds.
std::string sqlstate_of(pqxx::connection& c, const std::string& sql) {
  try {
    pqxx::nontransaction tx(c);
    tx.exec(sql);
    return "";
  } catch (const pqxx::insufficient_privilege&) {
    return "42501";
  } catch (const pqxx::sql_error& e) {
    return e.sqlstate().empty() ? std::string("error: ") + e.what() : e.sqlstate();
  }
}

int64_t count_of(pqxx::connection& c, const std::string& table) {
  pqxx::nontransaction tx(c);
  return tx.exec1("SELECT count(*) FROM " + table)[0].as<int64_t>();
}

}  // namespace

TEST_CASE("two users: ownership and grants, checked over SCRAM sessions and kept across a restart") {
  std::string dir = temp_dir();
  std::string passwords = dir + "/passwords";
  std::ofstream(passwords) << "alice:a-pw\nbob:b-pw\nmz_system:root-pw\n";
  std::string data = dir + "/data";
  {
    TandemdProcess server({"--password-file", passwords}, data);
    pqxx::connection alice(server.conninfo("alice") + " password=a-pw");
    pqxx::connection bob(server.conninfo("bob") + " password=b-pw");
    pqxx::connection root(server.conninfo("mz_system") + " password=root-pw");

    CHECK(sqlstate_of(alice, "CREATE TABLE secrets (x int)") == "");
    CHECK(sqlstate_of(alice, "INSERT INTO secrets VALUES (1), (2), (3)") == "");
    CHECK(sqlstate_of(alice, "CREATE DEFAULT INDEX ON secrets") == "");
    CHECK(count_of(alice, "secrets") == 3);
    // The indexed (fast-path) read, a peek dataflow and a prepared read.
    CHECK(sqlstate_of(bob, "SELECT * FROM secrets") == "42501");
    CHECK(sqlstate_of(bob, "SELECT * FROM secrets WHERE x = 1") == "42501");
    CHECK(sqlstate_of(bob, "SELECT count(*) FROM secrets, secrets s2") == "42501");
    bob.prepare("lookup", "SELECT x FROM secrets WHERE x = $1");
    {
      pqxx::nontransaction tx(bob);
      CHECK_THROWS_AS(tx.exec_prepared("lookup", 1), pqxx::insufficient_privilege);
    }
    CHECK(sqlstate_of(bob, "DROP TABLE secrets") == "42501");
    CHECK(sqlstate_of(bob, "DROP CLUSTER quickstart CASCADE") == "42501");
    CHECK(sqlstate_of(alice, "DROP CLUSTER quickstart CASCADE") == "42501");
    CHECK(sqlstate_of(bob, "INSERT INTO secrets VALUES (4)") == "42501");
    CHECK(sqlstate_of(bob, "COPY secrets TO STDOUT") == "42501");

    CHECK(sqlstate_of(alice, "GRANT SELECT ON secrets TO bob") == "");
    // The prepared lookup is allowed once the grant is in the catalog.
    {
      pqxx::nontransaction tx(bob);
      CHECK(tx.exec_prepared("lookup", 2).size() == 1);
    }
    CHECK(count_of(bob, "secrets") == 3);
    CHECK(sqlstate_of(bob, "INSERT INTO secrets VALUES (4)") == "42501");
    CHECK(sqlstate_of(alice, "REVOKE SELECT ON secrets FROM bob") == "");
    {
      pqxx::nontransaction tx(bob);
      CHECK_THROWS_AS(tx.exec_prepared("lookup", 1), pqxx::insufficient_privilege);
    }

    CHECK(sqlstate_of(root, "CREATE ROLE readers") == "");
    CHECK(sqlstate_of(root, "GRANT readers TO bob") == "");
    CHECK(sqlstate_of(alice, "GRANT SELECT, INSERT ON secrets TO readers") == "");
    CHECK(sqlstate_of(bob, "INSERT INTO secrets VALUES (4)") == "");
    CHECK(count_of(bob, "secrets") == 4);
    CHECK(sqlstate_of(bob, "CREATE TABLE bobs (y int)") == "");
  }
  {
    // Restart: roles, membership, grants and owners come back from RocksDB.
    TandemdProcess server({"--password-file", passwords}, data);
    pqxx::connection alice(server.conninfo("alice") + " password=a-pw");
    pqxx::connection bob(server.conninfo("bob") + " password=b-pw");
    CHECK(count_of(bob, "secrets") == 4);
    CHECK(sqlstate_of(bob, "INSERT INTO secrets VALUES (5)") == "");
    CHECK(sqlstate_of(bob, "DELETE FROM secrets") == "42501");
    CHECK(sqlstate_of(bob, "DROP TABLE secrets") == "42501");
    CHECK(sqlstate_of(alice, "SELECT * FROM bobs") == "42501");
    pqxx::nontransaction tx(alice);
    auto owners = tx.exec(
        "SELECT t.name, r.name FROM mz_tables t JOIN mz_roles r ON r.id = t.owner_id WHERE t.id LIKE 'u%' ORDER BY 1");
    REQUIRE(owners.size() == 2);
    CHECK(owners[0][0].as<std::string>() == "bobs");
    CHECK(owners[0][1].as<std::string>() == "bob");
    CHECK(owners[1][1].as<std::string>() == "alice");
    CHECK(tx.exec1("SELECT relacl::text FROM pg_class WHERE relname = 'secrets'")[0].as<std::string>() ==
          "{alice=arwd/alice,readers=ar/alice}");
    CHECK(tx.exec1("SELECT count(*) FROM mz_role_members")[0].as<int64_t>() == 1);
    CHECK(tx.exec1("SELECT has_table_privilege('bob', 'secrets', 'INSERT')")[0].as<bool>());
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("trust mode: a user's role is created on its first statement and owns what it creates") {
  TandemdProcess server;
  pqxx::connection carol(server.conninfo("carol"));
  pqxx::connection dave(server.conninfo("dave"));
  CHECK(sqlstate_of(carol, "CREATE TABLE c (x int)") == "");
  CHECK(sqlstate_of(dave, "SELECT 1") == "");
  pqxx::nontransaction tx(dave);
  CHECK(tx.exec1("SELECT count(*) FROM pg_roles WHERE rolname IN ('carol', 'dave') AND rolcanlogin")[0].as<int64_t>() ==
        2);
  CHECK(tx.exec1("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'c'")[0].as<std::string>() ==
        "carol");
  CHECK_THROWS_AS(tx.exec("SELECT * FROM c"), pqxx::insufficient_privilege);
}
