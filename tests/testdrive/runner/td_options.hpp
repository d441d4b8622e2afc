#pragma once
// Command-line options of tandem-td (see tests/testdrive/README.md).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tandem::td {

struct Options {
  std::string url;                       // --url: an existing server.
  std::string tandemd_path;              // --tandemd: default beside tandem-td.
  std::vector<std::string> server_args;  // --server-arg, repeatable.
  std::chrono::milliseconds default_timeout{std::chrono::seconds(10)};
  std::optional<std::uint32_t> seed;     // --seed: ${testdrive.seed}.
  std::vector<std::pair<std::string, std::string>> vars;  // --var NAME=VALUE: ${arg.NAME}.
  bool no_reset = false;  // --no-reset: with --url, files share the server's state.
  bool verbose = false;
  bool help = false;
  std::vector<std::string> paths;  // Files, or directories of *.td files.
};

// Parses argv; false with *error on bad usage. Accepts `--opt value` and
// `--opt=value`.
bool parse_options(int argc, const char* const* argv, Options& options, std::string* error);

std::string usage_text();

}  // namespace tandem::td
