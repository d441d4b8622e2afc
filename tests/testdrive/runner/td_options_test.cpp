#include "tests/testdrive/runner/td_options.hpp"

#include <catch2/catch.hpp>

namespace tandem::td {

TEST_CASE("options") {
  Options options;
  std::string error;
  const char* argv[] = {"tandem-td", "--default-timeout=2s", "--seed", "7", "--var", "size=3",
                        "--server-arg", "--workers=2", "a.td", "dir"};
  REQUIRE(parse_options(10, argv, options, &error));
  CHECK(options.default_timeout == std::chrono::seconds(2));
  CHECK(options.seed == std::optional<std::uint32_t>(7));
  REQUIRE(options.vars.size() == 1);
  CHECK(options.vars[0] == std::pair<std::string, std::string>{"size", "3"});
  CHECK(options.server_args == std::vector<std::string>{"--workers=2"});
  CHECK(options.paths == std::vector<std::string>{"a.td", "dir"});

  Options url_mode;
  const char* with_url[] = {"tandem-td", "--url", "postgresql://u@127.0.0.1:1/db", "--no-reset", "x.td"};
  REQUIRE(parse_options(5, with_url, url_mode, &error));
  CHECK(url_mode.url == "postgresql://u@127.0.0.1:1/db");
  CHECK(url_mode.no_reset);

  Options defaults;
  const char* plain[] = {"tandem-td", "x.td"};
  REQUIRE(parse_options(2, plain, defaults, &error));
  CHECK(defaults.default_timeout == std::chrono::seconds(10));
  CHECK_FALSE(defaults.no_reset);

  Options bad;
  const char* bad_timeout[] = {"tandem-td", "--default-timeout", "10", "x.td"};
  CHECK_FALSE(parse_options(4, bad_timeout, bad, &error));
  const char* bad_var[] = {"tandem-td", "--var", "novalue", "x.td"};
  CHECK_FALSE(parse_options(4, bad_var, bad, &error));
  const char* no_files[] = {"tandem-td"};
  CHECK_FALSE(parse_options(1, no_files, bad, &error));
  const char* unknown[] = {"tandem-td", "--frobnicate", "x.td"};
  CHECK_FALSE(parse_options(3, unknown, bad, &error));
}

}  // namespace tandem::td
