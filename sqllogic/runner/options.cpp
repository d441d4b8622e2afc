#include "sqllogic/runner/options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace tandem::slt {

std::string usage_text() {
  return "usage: tandem-slt [options] FILE|DIR...\n"
         "Runs sqllogictest files (a DIR means every *.slt and *.test below it).\n"
         "  --url URL          run against an existing server (postgresql://...)\n"
         "  --fresh-db         with --url: a scratch database per file\n"
         "  --tandemd PATH     server binary (default: tandemd beside tandem-slt)\n"
         "  --server-arg ARG   extra tandemd argument (repeatable)\n"
         "  --timeout SECONDS  per-statement timeout, 0 for none (default 120)\n"
         "  --stop-on-fail     stop at the first failure\n"
         "  --verbose          print every passing record too\n";
}

bool parse_options(int argc, const char* const* argv, Options& options, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_inline_value = false;
    if (arg.starts_with("--")) {
      const std::size_t equals = arg.find('=');
      if (equals != std::string::npos) {
        value = arg.substr(equals + 1);
        arg = arg.substr(0, equals);
        has_inline_value = true;
      }
    }
    auto take_value = [&]() -> bool {
      if (has_inline_value) return true;
      if (i + 1 >= argc) {
        *error = arg + " needs a value";
        return false;
      }
      value = argv[++i];
      return true;
    };
    if (arg == "--url") {
      if (!take_value()) return false;
      options.url = value;
    } else if (arg == "--tandemd") {
      if (!take_value()) return false;
      options.tandemd_path = value;
    } else if (arg == "--server-arg") {
      if (!take_value()) return false;
      options.server_args.push_back(value);
    } else if (arg == "--timeout") {
      if (!take_value()) return false;
      char* end = nullptr;
      const double seconds = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(seconds >= 0) || !std::isfinite(seconds)) {
        *error = "bad --timeout: " + value;
        return false;
      }
      options.timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbose = true;
    } else if (arg == "--stop-on-fail") {
      options.stop_on_fail = true;
    } else if (arg == "--fresh-db") {
      options.fresh_db = true;
    } else if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg.starts_with("-") && arg != "-") {
      *error = "unknown option: " + arg;
      return false;
    } else {
      options.paths.push_back(arg);
    }
  }
  if (options.fresh_db && options.url.empty()) {
    *error = "--fresh-db needs --url";
    return false;
  }
  if (options.paths.empty() && !options.help) {
    *error = "no test files given";
    return false;
  }
  return true;
}

}  // namespace tandem::slt
