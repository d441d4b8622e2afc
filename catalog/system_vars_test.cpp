#include <catch2/catch.hpp>

#include "catalog/catalog_test_support.hpp"
#include "catalog/system_vars.hpp"

using namespace tandem;
using namespace tandem::catalog;

TEST_CASE("system parameters have typed defaults", "[catalog][system_vars]") {
  SystemVars vars;
  CHECK(vars.get_bool(kEnableComputeInteractiveRuntime));
  CHECK(vars.get_bool(kEnableComputeInteractiveDataflows));
  CHECK(vars.get_int(kComputeIndexPeekInlineBudget) == 1024);
  CHECK(vars.get_bytes(kMaxResultSize) == int64_t{1} << 30);
  CHECK(vars.get_int(kPersistFastPathLimit) == 1000);
  CHECK(*vars.get("max_result_size") == "1GB");
  CHECK(*vars.get("ENABLE_COMPUTE_INTERACTIVE_RUNTIME") == "on");
  CHECK(*vars.get(kIdleInTransactionSessionTimeout) == "2min");
  CHECK(vars.get_duration_us(kIdleInTransactionSessionTimeout) == 120'000'000);
  CHECK(vars.all().size() == system_var_definitions().size());
}

TEST_CASE("system parameters validate and normalize values", "[catalog][system_vars]") {
  SystemVars vars;
  REQUIRE(vars.set("enable_compute_interactive_runtime", "false").is_ok());
  CHECK_FALSE(vars.get_bool(kEnableComputeInteractiveRuntime));
  CHECK(*vars.get(kEnableComputeInteractiveRuntime) == "off");
  REQUIRE(vars.set(kEnableComputeInteractiveRuntime, "ON").is_ok());
  CHECK(vars.get_bool(kEnableComputeInteractiveRuntime));

  REQUIRE(vars.set(kMaxResultSize, "10 MB").is_ok());
  CHECK(vars.get_bytes(kMaxResultSize) == 10 * 1024 * 1024);
  CHECK(*vars.get(kMaxResultSize) == "10MB");
  REQUIRE(vars.set(kMaxResultSize, "1536").is_ok());
  CHECK(*vars.get(kMaxResultSize) == "1536B");
  REQUIRE(vars.set(kMemoryLimit, "2048kB").is_ok());
  CHECK(*vars.get(kMemoryLimit) == "2MB");

  REQUIRE(vars.set(kIdleInTransactionSessionTimeout, "90s").is_ok());
  CHECK(vars.get_duration_us(kIdleInTransactionSessionTimeout) == 90'000'000);
  CHECK(*vars.get(kIdleInTransactionSessionTimeout) == "90s");

  REQUIRE(vars.set(kComputeIndexPeekInlineBudget, "0").is_ok());
  CHECK(vars.get_int(kComputeIndexPeekInlineBudget) == 0);

  Status bad_bool = vars.set(kEnableComputeIndexPeekOffload, "maybe");
  REQUIRE_FALSE(bad_bool.is_ok());
  CHECK(bad_bool.sqlstate() == sqlstate::kInvalidParameterValue);
  CHECK(bad_bool.message() ==
        "invalid value for parameter \"enable_compute_index_peek_offload\": \"maybe\"");
  CHECK_FALSE(vars.set(kComputeIndexPeekInlineBudget, "-1").is_ok());
  CHECK_FALSE(vars.set(kComputeIndexPeekInlineBudget, "12abc").is_ok());
  CHECK_FALSE(vars.set(kComputeIndexPeekInlineBudget, "99999999999999999999").is_ok());
  CHECK_FALSE(vars.set(kMaxResultSize, "1 PB").is_ok());
  CHECK_FALSE(vars.set(kMaxResultSize, "99999999999 TB").is_ok());
  CHECK_FALSE(vars.set(kIdleInTransactionSessionTimeout, "5 fortnights").is_ok());
  // A failed set leaves the previous value.
  CHECK(vars.get_int(kComputeIndexPeekInlineBudget) == 0);

  Status unknown = vars.set("no_such_thing", "1");
  REQUIRE_FALSE(unknown.is_ok());
  CHECK(unknown.sqlstate() == sqlstate::kUndefinedObject);
  CHECK(unknown.message() == "unrecognized configuration parameter \"no_such_thing\"");
  CHECK_FALSE(vars.get("no_such_thing").ok());

  REQUIRE(vars.reset(kComputeIndexPeekInlineBudget).is_ok());
  CHECK(vars.get_int(kComputeIndexPeekInlineBudget) == 1024);
  vars.reset_all();
  CHECK(vars.overrides().empty());
  CHECK(vars.get_bytes(kMaxResultSize) == int64_t{1} << 30);
}

TEST_CASE("ALTER SYSTEM SET persists across reopen, a bad value changes nothing",
          "[catalog][system_vars]") {
  testing::CatalogFixture f;
  REQUIRE(f.catalog().set_system_var("max_result_size", "64MB").is_ok());
  REQUIRE(f.catalog().set_system_var("enable_compute_interactive_runtime", "off").is_ok());
  REQUIRE(f.catalog().set_system_var("persist_fast_path_limit", "0").is_ok());
  uint64_t version = f.catalog().state().version();
  CHECK_FALSE(f.catalog().set_system_var("max_result_size", "lots").is_ok());
  CHECK(f.catalog().state().version() == version);
  CHECK(*f.catalog().snapshot()->system_vars().get("max_result_size") == "64MB");

  f.reopen();
  const SystemVars& vars = f.catalog().snapshot()->system_vars();
  CHECK(vars.get_bytes(kMaxResultSize) == 64 * 1024 * 1024);
  CHECK_FALSE(vars.get_bool(kEnableComputeInteractiveRuntime));
  CHECK(vars.get_int(kPersistFastPathLimit) == 0);

  REQUIRE(f.catalog().reset_system_var("max_result_size").is_ok());
  f.reopen();
  CHECK(*f.catalog().state().system_vars().get("max_result_size") == "1GB");
  CHECK_FALSE(f.catalog().state().system_vars().get_bool(kEnableComputeInteractiveRuntime));

  REQUIRE(f.catalog().reset_all_system_vars().is_ok());
  f.reopen();
  CHECK(f.catalog().state().system_vars().overrides().empty());
}
