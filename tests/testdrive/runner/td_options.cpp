#include "tests/testdrive/runner/td_options.hpp"

#include <cstdlib>

#include "sqllogic/runner/arg_reader.hpp"
#include "tests/testdrive/runner/td_values.hpp"

namespace tandem::td {

std::string usage_text() {
  return "usage: tandem-td [options] FILE|DIR...\n"
         "Runs testdrive scripts (a DIR means the *.td files in it), each against a\n"
         "fresh tandemd unless --url is given. The last line counts files.\n"
         "  --url URL               run against an existing server, reset before each file\n"
         "  --no-reset              with --url: do not reset (e.g. for PostgreSQL)\n"
         "  --tandemd PATH          server binary (default: tandemd beside tandem-td)\n"
         "  --server-arg ARG        extra tandemd argument (repeatable)\n"
         "  --default-timeout D     retry budget of a command, e.g. 10s, 500ms (default 10s)\n"
         "  --seed N                value of ${testdrive.seed} (default: random)\n"
         "  --var NAME=VALUE        defines ${arg.NAME} (repeatable)\n"
         "  --verbose               print every command as it passes\n";
}

bool parse_options(int argc, const char* const* argv, Options& options, std::string* error) {
  slt::ArgReader args(argc, argv);
  std::string value;
  while (args.next()) {
    const std::string& arg = args.name();
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--no-reset") {
      options.no_reset = true;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--url") {
      if (!args.value(options.url, error)) return false;
    } else if (arg == "--tandemd") {
      if (!args.value(options.tandemd_path, error)) return false;
    } else if (arg == "--server-arg") {
      if (!args.value(value, error)) return false;
      options.server_args.push_back(value);
    } else if (arg == "--default-timeout") {
      if (!args.value(value, error)) return false;
      const auto duration = parse_duration(value);
      if (!duration || duration->count() <= 0) {
        *error = "bad --default-timeout: " + value + " (e.g. 10s, 500ms)";
        return false;
      }
      options.default_timeout = *duration;
    } else if (arg == "--seed") {
      if (!args.value(value, error)) return false;
      char* end = nullptr;
      const unsigned long long seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || seed > 0xffffffffULL) {
        *error = "bad --seed: " + value;
        return false;
      }
      options.seed = static_cast<std::uint32_t>(seed);
    } else if (arg == "--var") {
      if (!args.value(value, error)) return false;
      const std::size_t equals = value.find('=');
      if (equals == std::string::npos || equals == 0) {
        *error = "bad --var: " + value + " (NAME=VALUE)";
        return false;
      }
      options.vars.emplace_back(value.substr(0, equals), value.substr(equals + 1));
    } else if (arg.starts_with("--")) {
      *error = "unknown option " + arg;
      return false;
    } else {
      options.paths.push_back(arg);
    }
  }
  if (options.paths.empty() && !options.help) {
    *error = "no files given";
    return false;
  }
  return true;
}

}  // namespace tandem::td
