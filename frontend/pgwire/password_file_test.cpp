// PasswordFile tests: parsing rules, error positions, loading from disk.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "frontend/pgwire/password_file.hpp"

using namespace tandem;
using namespace tandem::pgwire;

TEST_CASE("password file parsing", "[pgwire][password_file]") {
  auto file = PasswordFile::parse(
      "# users of the test instance\n"
      "\n"
      "materialize:secret\n"
      "   \t\n"
      "  # indented comment\n"
      "alice:pa:ss word \r\n"
      "bob:x");
  INFO((file.ok() ? std::string() : file.status().to_string()));
  REQUIRE(file.ok());
  CHECK(file->size() == 3);
  CHECK(file->lookup("materialize") == std::optional<std::string_view>("secret"));
  CHECK(file->lookup("alice") == std::optional<std::string_view>("pa:ss word "));
  CHECK(file->lookup("bob") == std::optional<std::string_view>("x"));
  CHECK_FALSE(file->lookup("carol").has_value());
  CHECK_FALSE(file->lookup("Alice").has_value());

  auto empty = PasswordFile::parse("");
  REQUIRE(empty.ok());
  CHECK(empty->size() == 0);
}

TEST_CASE("malformed password file lines name the line", "[pgwire][password_file]") {
  auto error_of = [](std::string_view text) {
    auto f = PasswordFile::parse(text);
    REQUIRE_FALSE(f.ok());
    CHECK(f.status().sqlstate() == sqlstate::kConfigFileError);
    return f.status().message();
  };
  CHECK(error_of("a:b\n# c\nnocolon\n") == "invalid password file: line 3: expected user:password");
  CHECK_THAT(error_of(":pw"), Catch::Contains("line 1: empty user name"));
  CHECK_THAT(error_of("\nuser:"), Catch::Contains("line 2: empty password"));
  CHECK_THAT(error_of("u:1\nv:2\nu:3"), Catch::Contains("line 3: duplicate user \"u\""));
}

TEST_CASE("password file loading", "[pgwire][password_file]") {
  const std::string path = "/tmp/tandem_password_file_test_" + std::to_string(::getpid());
  {
    std::ofstream out(path);
    out << "u:p\nbroken\n";
  }
  auto f = PasswordFile::load(path);
  REQUIRE_FALSE(f.ok());
  CHECK_THAT(f.status().message(), Catch::Contains(path + ": invalid password file: line 2"));
  {
    std::ofstream out(path);
    out << "u:p\n";
  }
  f = PasswordFile::load(path);
  REQUIRE(f.ok());
  CHECK(f->lookup("u") == std::optional<std::string_view>("p"));
  std::remove(path.c_str());

  auto missing = PasswordFile::load(path);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().sqlstate() == sqlstate::kIoError);
}
