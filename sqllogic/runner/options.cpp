#include "sqllogic/runner/options.hpp"

#include "sqllogic/runner/arg_reader.hpp"

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
         "  --condition NAME   a name skipif/onlyif records match, besides\n"
         "                     postgresql and tandem (repeatable)\n"
         "  --timeout SECONDS  per-statement timeout, 0 for none (default 120)\n"
         "  --stop-on-fail     stop at the first failure\n"
         "  --verbose          print every passing record too\n";
}

bool parse_options(int argc, const char* const* argv, Options& options, std::string* error) {
  ArgReader args(argc, argv);
  std::string value;
  while (args.next()) {
    const std::string& arg = args.name();
    if (arg == "--url") {
      if (!args.value(options.url, error)) return false;
    } else if (arg == "--tandemd") {
      if (!args.value(options.tandemd_path, error)) return false;
    } else if (arg == "--server-arg") {
      if (!args.value(value, error)) return false;
      options.server_args.push_back(value);
    } else if (arg == "--condition") {
      if (!args.value(value, error)) return false;
      options.conditions.push_back(value);
    } else if (arg == "--timeout") {
      if (!args.value(value, error)) return false;
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
