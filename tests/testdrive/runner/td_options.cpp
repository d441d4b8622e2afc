#include "tests/testdrive/runner/td_options.hpp"

#include <cstdlib>

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
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_inline_value = false;
    if (arg.starts_with("--") && arg.find('=') != std::string::npos) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
      has_inline_value = true;
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
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--no-reset") {
      options.no_reset = true;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--url" || arg == "--tandemd" || arg == "--server-arg" ||
               arg == "--default-timeout" || arg == "--seed" || arg == "--var") {
      if (!take_value()) return false;
      if (arg == "--url") {
        options.url = value;
      } else if (arg == "--tandemd") {
        options.tandemd_path = value;
      } else if (arg == "--server-arg") {
        options.server_args.push_back(value);
      } else if (arg == "--default-timeout") {
        const auto duration = parse_duration(value);
        if (!duration || duration->count() <= 0) {
          *error = "bad --default-timeout: " + value + " (e.g. 10s, 500ms)";
          return false;
        }
        options.default_timeout = *duration;
      } else if (arg == "--seed") {
        char* end = nullptr;
        const unsigned long long seed = std::strtoull(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || seed > 0xffffffffULL) {
          *error = "bad --seed: " + value;
          return false;
        }
        options.seed = static_cast<std::uint32_t>(seed);
      } else {
        const std::size_t equals = value.find('=');
        if (equals == std::string::npos || equals == 0) {
          *error = "bad --var: " + value + " (NAME=VALUE)";
          return false;
        }
        options.vars.emplace_back(value.substr(0, equals), value.substr(equals + 1));
      }
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
