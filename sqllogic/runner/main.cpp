// tandem-slt: runs sqllogictest files against tandemd (started per file) or
// an existing PostgreSQL-protocol server. See sqllogic/README.md.

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "sqllogic/runner/options.hpp"
#include "sqllogic/runner/script_files.hpp"
#include "sqllogic/runner/script_parser.hpp"
#include "sqllogic/runner/script_runner.hpp"
#include "sqllogic/runner/server_target.hpp"

namespace {

using tandem::slt::Counts;

void print_counts(std::ostream& out, const Counts& counts) {
  out << counts.passed << " passed, " << counts.failed << " failed, " << counts.skipped
      << " skipped\n";
}

}  // namespace

int main(int argc, char** argv) {
  tandem::slt::Options options;
  std::string error;
  if (!tandem::slt::parse_options(argc, argv, options, &error)) {
    std::cerr << "tandem-slt: " << error << "\n" << tandem::slt::usage_text();
    return 2;
  }
  if (options.help) {
    std::cout << tandem::slt::usage_text();
    return 0;
  }
  std::vector<std::string> files;
  if (!tandem::slt::collect_script_files(options.paths, {".slt", ".test"}, /*recursive=*/true, files,
                                         &error)) {
    std::cerr << "tandem-slt: " << error << '\n';
    return 2;
  }

  std::unique_ptr<tandem::slt::ServerTarget> target;
  if (!options.url.empty()) {
    target = std::make_unique<tandem::slt::ExistingServer>(options.url, options.fresh_db);
  } else {
    tandem::slt::ServerProcess::Config config;
    config.tandemd_path =
        options.tandemd_path.empty() ? tandem::slt::tandemd_beside_self() : options.tandemd_path;
    config.extra_args = options.server_args;
    if (access(config.tandemd_path.c_str(), X_OK) != 0) {
      std::cerr << "tandem-slt: cannot execute " << config.tandemd_path
                << " (use --tandemd PATH or --url URL)\n";
      return 2;
    }
    target = std::make_unique<tandem::slt::SpawnedServer>(std::move(config));
  }

  tandem::slt::RunOptions run_options;
  run_options.verbose = options.verbose;
  run_options.stop_on_fail = options.stop_on_fail;
  run_options.timeout = options.timeout;
  for (const std::string& name : options.conditions) run_options.database_names.push_back(name);
  tandem::slt::ScriptRunner runner(*target, run_options, std::cout);

  Counts total;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::vector<tandem::slt::Record> records = tandem::slt::parse_script(text.str());

    Counts counts;
    bool stopped = false;
    if (!in) {
      std::cout << file << ": cannot read\n";
      counts.failed = 1;
    } else if (!target->begin_file(&error)) {
      std::cout << file << ": cannot start: " << error << '\n';
      counts.failed = 1;
    } else {
      counts = runner.run(file, records, &stopped);
      target->end_file();
    }
    std::cout << file << ": ";
    print_counts(std::cout, counts);
    std::cout.flush();
    total += counts;
    if (options.stop_on_fail && counts.failed > 0) break;
  }
  print_counts(std::cout, total);
  return total.failed > 0 ? 1 : 0;
}
