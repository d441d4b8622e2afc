// tandem-difftest: differential testing of tandem against PostgreSQL 15.
// See tests/difftest/README.md.

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "tests/difftest/harness.hpp"
#include "tests/difftest/reporter.hpp"
#include "tests/difftest/round.hpp"
#include "tests/difftest/stop.hpp"

namespace td = tandem::difftest;

namespace {

const char* kUsage = R"(usage: tandem-difftest [options]
Compares tandem with a throwaway PostgreSQL 15 on random schemas, data,
queries, views, indexes, materialized views and data changes.

  --seed N               first round's seed (default 1; --long: 1000)
  --rounds N             stop after N rounds
  --queries N            stop after N comparisons
  --seconds N            stop after N seconds (default 60; 0: no limit)
  --ci                   the CI budget: --seed 1 --rounds 120 (at most 600 s), 3
                         failures minimised
  --long                 a long run: --seed 1000 --seconds 1800, bigger tables,
                         50 failures minimised
  --disable F1,F2,...    switch constructs off (see --list-features)
  --list-features        print the feature names and exit
  --no-rollback          same as --disable rollback
  --numeric-by-value     numeric values equal by value whatever their scale
  --strict-numeric-members
                         numerics equal by value but printed with another
                         scale are wrong even where the statement groups or
                         takes min / max (default: counted apart)
  --ignore-types         do not compare result column types
  --strict-error-class   two errors of different SQLSTATE classes are wrong
                         (default: an error match, counted apart)
  --strict-errors        also: a data error (SQLSTATE class 22 or 21) on one
                         side only is wrong (default: counted apart)
  --out DIR              where repro .sql files go (default difftest-repros)
  --tandemd PATH         the server (default: tandemd beside this program)
  --pg-bindir DIR        PostgreSQL's programs (default /usr/lib/postgresql/15/bin)
  --max-minimise N       failures minimised per run (default 5)
  --minimise-seconds N   time per minimisation (default 30)
  --max-rows N           rows per table at a round's start (default 10)
  --views N              at most N views per round (default 3)
  --queries-per-step N   ad-hoc queries between data changes (default 6)
  --dml-steps N          data-change steps per round (default 4)
  --timeout N            client-side statement deadline in seconds (default 30)
  --verbose              print every query and unsupported statement
Exit status: 0 when nothing was wrong, 1 when something was, 2 on bad usage
or when a server did not start.
)";

bool parse_long(const std::string& s, long* out) {
  char* end = nullptr;
  *out = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0' && *out >= 0;
}

bool parse(int argc, char** argv, td::Options& o, std::string* error) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool seed_given = false;
  for (const auto& a : args) {
    if (a == "--ci") {
      // A fixed set of seeds, so that a pass here is a pass on any machine;
      // the time bound only guards a slow one.
      o.seed = 1;
      o.rounds = 120;
      o.seconds = 600;
      o.max_minimise = 3;
      o.minimise_seconds = 20;
    } else if (a == "--long") {
      o.seed = 1000;
      o.seconds = 1800;
      o.max_minimise = 50;
      o.minimise_seconds = 60;
      o.max_rows = 20;
      o.objects_per_round = 4;
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i], value;
    bool has_value = false;
    if (const auto eq = name.find('='); name.starts_with("--") && eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_value = true;
    }
    auto next = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= args.size()) {
        *error = name + " needs a value";
        return false;
      }
      value = args[++i];
      return true;
    };
    auto number = [&](long* out) -> bool {
      if (!next()) return false;
      if (!parse_long(value, out)) {
        *error = name + ": not a number: " + value;
        return false;
      }
      return true;
    };
    long n = 0;
    if (name == "--ci" || name == "--long") continue;
    if (name == "--seed") {
      if (!number(&n)) return false;
      o.seed = static_cast<std::uint64_t>(n);
      seed_given = true;
    } else if (name == "--rounds") {
      if (!number(&o.rounds)) return false;
    } else if (name == "--queries") {
      if (!number(&o.queries)) return false;
    } else if (name == "--seconds") {
      if (!number(&o.seconds)) return false;
    } else if (name == "--disable") {
      if (!next() || !o.features.disable(value, error)) return false;
    } else if (name == "--no-rollback") {
      o.features.disable("rollback", error);
    } else if (name == "--numeric-by-value") {
      o.compare.numeric_by_value = true;
    } else if (name == "--strict-errors") {
      o.compare.strict_errors = true;
      o.compare.strict_error_class = true;
    } else if (name == "--strict-numeric-members") {
      o.compare.strict_numeric_members = true;
    } else if (name == "--strict-error-class") {
      o.compare.strict_error_class = true;
    } else if (name == "--ignore-types") {
      o.compare.ignore_types = true;
    } else if (name == "--out") {
      if (!next()) return false;
      o.out_dir = value;
    } else if (name == "--tandemd") {
      if (!next()) return false;
      o.tandemd = value;
    } else if (name == "--pg-bindir") {
      if (!next()) return false;
      o.pg_bindir = value;
    } else if (name == "--max-minimise") {
      if (!number(&n)) return false;
      o.max_minimise = static_cast<int>(n);
    } else if (name == "--minimise-seconds") {
      if (!number(&n)) return false;
      o.minimise_seconds = static_cast<int>(n);
    } else if (name == "--max-rows") {
      if (!number(&n)) return false;
      o.max_rows = static_cast<int>(std::max(1L, n));
    } else if (name == "--views") {
      if (!number(&n)) return false;
      o.objects_per_round = static_cast<int>(std::max(1L, n));
    } else if (name == "--queries-per-step") {
      if (!number(&n)) return false;
      o.queries_per_step = static_cast<int>(n);
    } else if (name == "--dml-steps") {
      if (!number(&n)) return false;
      o.dml_steps = static_cast<int>(n);
    } else if (name == "--timeout") {
      if (!number(&n)) return false;
      o.statement_timeout = static_cast<int>(std::max(1L, n));
    } else if (name == "--verbose") {
      o.verbose = true;
    } else if (name == "--help" || name == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (name == "--list-features") {
      for (const auto& f : td::all_features()) std::cout << f.name << "\t" << f.what << "\n";
      std::exit(0);
    } else {
      *error = "unknown option " + name;
      return false;
    }
  }
  (void)seed_given;
  if (o.tandemd.empty()) {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    o.tandemd = (self.parent_path() / "tandemd").string();
  }
  return true;
}

void on_signal(int) {
  td::stop_flag() = true;
  td::kill_servers_from_signal();
}

}  // namespace

int main(int argc, char** argv) {
  td::Options opts;
  std::string error;
  if (!parse(argc, argv, opts, &error)) {
    std::cerr << "tandem-difftest: " << error << "\n" << kUsage;
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);

  std::string disabled;
  for (const auto& f : opts.features.disabled()) disabled += (disabled.empty() ? "" : ",") + f;
  std::cout << "difftest: tandemd " << opts.tandemd << ", seed " << opts.seed << ", budget "
            << (opts.seconds ? std::to_string(opts.seconds) + " s" : "unlimited")
            << (opts.rounds ? ", " + std::to_string(opts.rounds) + " rounds" : "")
            << (opts.queries ? ", " + std::to_string(opts.queries) + " queries" : "")
            << (disabled.empty() ? "" : ", disabled: " + disabled) << std::endl;
  int status = 0;
  td::Stats stats;
  try {
    td::Harness h(opts);
    td::Reporter reporter(h);
    for (std::uint64_t seed = opts.seed; h.budget_left(); ++seed) {
      if (opts.rounds > 0 && h.stats().rounds >= opts.rounds) break;
      td::Round(h, reporter, seed).run();
    }
    stats = h.stats();
  } catch (const std::exception& e) {
    std::cerr << "tandem-difftest: " << e.what() << "\n";
    return 2;
  }
  std::cout << "difftest: " << stats.queries << " queries compared, " << stats.rounds << " rounds, seeds "
            << stats.first_seed << ".." << stats.last_seed << ", " << stats.wrong << " wrong, " << stats.unsupported
            << " unsupported, " << stats.error_match << " expected-error-match" << std::endl;
  if (stats.one_sided_data_errors > 0) {
    std::cout << "difftest: " << stats.one_sided_data_errors
              << " statements failed with a data error on one side only (--strict-errors)" << std::endl;
  }
  if (stats.other_group_member > 0) {
    std::cout << "difftest: " << stats.other_group_member
              << " answers showed another member of a group of equal numerics, such as 1.000 for 1"
                 " (--strict-numeric-members)"
              << std::endl;
  }
  if (stats.error_class_differs > 0) {
    std::cout << "difftest: " << stats.error_class_differs
              << " of the expected-error-match failed with different SQLSTATE classes (--strict-error-class)"
              << std::endl;
  }
  if (td::stop_requested()) {
    std::cout << "difftest: interrupted" << std::endl;
    status = 130;
  }
  if (stats.wrong > 0) status = 1;
  return status;
}
