#pragma once
// Command-line options of tandem-slt (see sqllogic/README.md).

#include <chrono>
#include <string>
#include <vector>

namespace tandem::slt {

struct Options {
  std::string url;           // --url: run against this server instead of tandemd.
  std::string tandemd_path;  // --tandemd: default is `tandemd` beside tandem-slt.
  std::vector<std::string> server_args;  // --server-arg, repeatable.
  // --condition NAME, repeatable: more names `skipif`/`onlyif` match (the
  // server's configuration, e.g. a resized default cluster).
  std::vector<std::string> conditions;
  bool verbose = false;
  bool stop_on_fail = false;
  bool fresh_db = false;  // --fresh-db: scratch database per file (needs --url).
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};  // 0: none.
  std::vector<std::string> paths;  // Files, or directories to search.
  bool help = false;
};

// Parses argv; false with *error on bad usage. Accepts `--opt value` and
// `--opt=value`.
bool parse_options(int argc, const char* const* argv, Options& options, std::string* error);

std::string usage_text();

}  // namespace tandem::slt
