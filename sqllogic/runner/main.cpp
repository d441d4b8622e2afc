// tandem-slt: runs sqllogictest files against tandemd (started per file) or
// an existing PostgreSQL-protocol server. See sqllogic/README.md.

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "sqllogic/runner/options.hpp"
#include "sqllogic/runner/script_parser.hpp"
#include "sqllogic/runner/script_runner.hpp"
#include "sqllogic/runner/server_target.hpp"

namespace {

namespace fs = std::filesystem;
using tandem::slt::Counts;

// Files named on the command line, directories expanded to their *.slt and
// *.test files (recursively, sorted).
bool collect_files(const std::vector<std::string>& paths, std::vector<std::string>& files) {
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::recursive_directory_iterator(path, error)) {
        const std::string extension = entry.path().extension().string();
        if (entry.is_regular_file() && (extension == ".slt" || extension == ".test")) {
          found.push_back(entry.path().string());
        }
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(path, error)) {
      files.push_back(path);
    } else {
      std::cerr << "tandem-slt: no such file or directory: " << path << '\n';
      return false;
    }
  }
  return true;
}

std::string default_tandemd_path() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "tandemd";
  return (self.parent_path() / "tandemd").string();
}

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
  if (!collect_files(options.paths, files)) return 2;

  std::unique_ptr<tandem::slt::ServerTarget> target;
  if (!options.url.empty()) {
    target = std::make_unique<tandem::slt::ExistingServer>(options.url, options.fresh_db);
  } else {
    tandem::slt::ServerProcess::Config config;
    config.tandemd_path =
        options.tandemd_path.empty() ? default_tandemd_path() : options.tandemd_path;
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
