#include <catch2/catch.hpp>

#include "sqllogic/runner/options.hpp"

namespace tandem::slt {
namespace {

bool parse(std::vector<const char*> args, Options& options, std::string& error) {
  args.insert(args.begin(), "tandem-slt");
  return parse_options(static_cast<int>(args.size()), args.data(), options, &error);
}

TEST_CASE("options in both spellings") {
  Options options;
  std::string error;
  REQUIRE(parse({"--url=postgresql://x@h:1/db", "--fresh-db", "--timeout", "1.5", "--server-arg",
                 "--log-level", "--server-arg=debug", "--stop-on-fail", "a.slt", "dir"},
                options, error));
  CHECK(options.url == "postgresql://x@h:1/db");
  CHECK(options.fresh_db);
  CHECK(options.timeout == std::chrono::milliseconds(1500));
  CHECK(options.server_args == std::vector<std::string>{"--log-level", "debug"});
  CHECK(options.stop_on_fail);
  CHECK(options.paths == std::vector<std::string>{"a.slt", "dir"});
}

TEST_CASE("bad usage is rejected") {
  Options options;
  std::string error;
  CHECK_FALSE(parse({"--fresh-db", "a.slt"}, options, error));
  CHECK(error == "--fresh-db needs --url");
  Options no_files;
  CHECK_FALSE(parse({"--verbose"}, no_files, error));
  Options bad_timeout;
  CHECK_FALSE(parse({"--timeout", "soon", "a.slt"}, bad_timeout, error));
  Options unknown;
  CHECK_FALSE(parse({"--frobnicate", "a.slt"}, unknown, error));
  Options missing_value;
  CHECK_FALSE(parse({"a.slt", "--url"}, missing_value, error));
}

}  // namespace
}  // namespace tandem::slt
