#include <catch2/catch.hpp>

#include "sqllogic/runner/error_match.hpp"

namespace tandem::slt {
namespace {

PgError division_by_zero() {
  PgError error;
  error.sqlstate = "22012";
  error.message = "division by zero";
  error.full = "ERROR:  division by zero";
  return error;
}

TEST_CASE("error regexes are searched in the message renderings") {
  const PgError error = division_by_zero();
  CHECK(error_matches(error, "", ""));
  CHECK(error_matches(error, "division by zero", ""));
  CHECK(error_matches(error, "^division", ""));
  CHECK(error_matches(error, "^db error: ERROR: division by zero$", ""));
  CHECK(error_matches(error, "by z.ro", ""));
  CHECK_FALSE(error_matches(error, "overflow", ""));
  CHECK_FALSE(error_matches(error, "^by zero", ""));
}

TEST_CASE("pgcode must equal the SQLSTATE") {
  const PgError error = division_by_zero();
  CHECK(error_matches(error, "", "22012"));
  CHECK(error_matches(error, "division", "22012"));
  CHECK_FALSE(error_matches(error, "division", "42P01"));
}

TEST_CASE("an invalid regex is matched as a literal") {
  PgError error;
  error.message = "syntax error at or near \"(\"";
  error.full = error.message;
  CHECK(error_matches(error, "near \"(\"", ""));
  CHECK_FALSE(error_matches(error, "near \")\"(", ""));
}

TEST_CASE("client error text carries detail and hint lines") {
  CHECK(client_error_text(division_by_zero()) == "db error: ERROR: division by zero");
  const PgError detailed{.sqlstate = "22012",
                         .message = "division by zero",
                         .detail = "d",
                         .hint = "h",
                         .full = "ERROR:  division by zero"};
  CHECK(client_error_text(detailed) == "db error: ERROR: division by zero\nDETAIL: d\nHINT: h");
}

}  // namespace
}  // namespace tandem::slt
