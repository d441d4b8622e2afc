// tandem-td: runs testdrive (.td) scripts against tandemd (started per file)
// or an existing server. See tests/testdrive/README.md.

#include <libpq-fe.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "sqllogic/runner/script_files.hpp"
#include "sqllogic/runner/server_target.hpp"
#include "tests/testdrive/runner/td_options.hpp"
#include "tests/testdrive/runner/td_parser.hpp"
#include "tests/testdrive/runner/td_reset.hpp"
#include "tests/testdrive/runner/td_runner.hpp"
#include "tests/testdrive/runner/td_values.hpp"

namespace {

namespace fs = std::filesystem;

// host:port of a connection string or URL, as ${testdrive.materialize-sql-addr}.
std::string sql_address(const std::string& conninfo) {
  std::string host = "127.0.0.1", port = "5432";
  char* error = nullptr;
  if (PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error)) {
    for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
      if (o->val == nullptr || *o->val == '\0') continue;
      if (std::string(o->keyword) == "host") host = o->val;
      if (std::string(o->keyword) == "port") port = o->val;
    }
    PQconninfoFree(options);
  }
  if (error != nullptr) PQfreemem(error);
  return host + ":" + port;
}

// Runs one file; prints its outcome line. True if it passed.
bool run_file(const std::string& file, const tandem::td::Options& options, std::uint32_t seed,
              tandem::slt::ServerTarget& target) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cout << file << ": failed: cannot read\n";
    return false;
  }
  auto parsed = tandem::td::parse_td(text.str());
  if (auto* error = std::get_if<tandem::td::ParseError>(&parsed)) {
    std::cout << file << ":" << error->line << ": FAILED: parse error: " << error->message << "\n"
              << file << ": failed\n";
    return false;
  }
  std::string error;
  if (!target.begin_file(&error)) {
    std::cout << file << ": failed: cannot start the server: " << error << '\n';
    return false;
  }
  std::string temp_dir = (fs::temp_directory_path() / "tandem-td-XXXXXX").string();
  if (mkdtemp(temp_dir.data()) == nullptr) {
    target.end_file();
    std::cout << file << ": failed: cannot create a temporary directory\n";
    return false;
  }

  const tandem::slt::ConnectTarget connect = target.connect_target();
  if (!options.url.empty() && !options.no_reset) {
    if (auto reset_error = tandem::td::reset_catalog(connect)) {
      target.end_file();
      std::error_code ignored;
      fs::remove_all(temp_dir, ignored);
      std::cout << file << ": failed: cannot reset the server (--no-reset skips it): " << *reset_error << '\n';
      return false;
    }
  }
  const std::string address = sql_address(connect.conninfo);
  tandem::td::Variables variables;
  variables.set("testdrive.seed", std::to_string(seed));
  variables.set("testdrive.temp-dir", temp_dir);
  variables.set("testdrive.materialize-sql-addr", address);
  variables.set("testdrive.materialize-internal-sql-addr", address);
  variables.set("testdrive.materialize-user", "materialize");
  variables.set("testdrive.default-timeout", tandem::td::format_duration(options.default_timeout));
  for (const auto& [name, value] : options.vars) variables.set("arg." + name, value);

  tandem::td::RunConfig config;
  config.default_timeout = options.default_timeout;
  config.verbose = options.verbose;
  tandem::td::FileRunner runner(config, std::move(variables), connect,
                                [&target] { return target.diagnostics(); }, std::cout);
  const tandem::td::FileResult result = runner.run(file, std::get<tandem::td::Script>(parsed));
  target.end_file();
  std::error_code ignored;
  fs::remove_all(temp_dir, ignored);

  std::cout << file << ": " << (result.passed ? "passed" : "failed") << " (" << result.commands_run
            << " commands passed" << (result.skipped ? ", rest skipped by $ skip-if" : "") << ")\n";
  std::cout.flush();
  return result.passed;
}

}  // namespace

int main(int argc, char** argv) {
  tandem::td::Options options;
  std::string error;
  if (!tandem::td::parse_options(argc, argv, options, &error)) {
    std::cerr << "tandem-td: " << error << "\n" << tandem::td::usage_text();
    return 2;
  }
  if (options.help) {
    std::cout << tandem::td::usage_text();
    return 0;
  }
  // A directory means its *.td files, not those of subdirectories (such as
  // negative/, whose scripts must fail).
  std::vector<std::string> files;
  if (!tandem::slt::collect_script_files(options.paths, {".td"}, /*recursive=*/false, files, &error)) {
    std::cerr << "tandem-td: " << error << '\n';
    return 2;
  }

  std::unique_ptr<tandem::slt::ServerTarget> target;
  if (!options.url.empty()) {
    target = std::make_unique<tandem::slt::ExistingServer>(options.url, /*fresh_db=*/false);
  } else {
    tandem::slt::ServerProcess::Config config;
    config.tandemd_path = options.tandemd_path.empty() ? tandem::slt::tandemd_beside_self() : options.tandemd_path;
    config.extra_args = options.server_args;
    if (access(config.tandemd_path.c_str(), X_OK) != 0) {
      std::cerr << "tandem-td: cannot execute " << config.tandemd_path
                << " (use --tandemd PATH or --url URL)\n";
      return 2;
    }
    target = std::make_unique<tandem::slt::SpawnedServer>(std::move(config));
  }

  const std::uint32_t seed = options.seed ? *options.seed : std::random_device{}();
  std::size_t passed = 0, failed = 0;
  for (const std::string& file : files) {
    if (run_file(file, options, seed, *target)) {
      ++passed;
    } else {
      ++failed;
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed > 0 ? 1 : 0;
}
