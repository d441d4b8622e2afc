// tandem-bench: the read-isolation benchmark harness.
//
//   tandem-bench [--quick] [--scenario NAME] --out DIR [--compare OLD.json]
//
// Runs every scenario (or one), each arm against its own fresh tandemd on a
// free loopback port, prints a table per scenario with the ratio between its
// arms, and writes DIR/results.json (results.hpp) and DIR/<scenario>.svg.
// --compare gates the new figures against an older results.json
// (compare.hpp). Exit status: 0 when every scenario produced numbers (and no
// regression), 1 when a scenario could not run, 2 for bad usage, 3 for a
// regression.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/tandem_bench/compare.hpp"
#include "bench/tandem_bench/report.hpp"
#include "bench/tandem_bench/scenario.hpp"
#include "tests/support/tandemd_process.hpp"

namespace {

using namespace tandem::bench;

int usage(const std::string& error) {
  std::fprintf(stderr, "tandem-bench: %s\nusage: tandem-bench [--quick] [--scenario NAME] --out DIR [--compare OLD.json]\n",
               error.c_str());
  return 2;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

ArmResult run_arm(const Scenario& scenario, const Arm& arm, const Scale& scale, RateBook& rates) {
  ArmResult out{arm.name, arm.settings, {}, {}};
  try {
    // Set at boot, so the default cluster (created before any statement)
    // is provisioned with them too.
    std::vector<std::string> args = {"--log-level", "warn"};
    for (const auto& [name, value] : arm.settings) {
      args.push_back("--system-parameter-default");
      args.push_back(name + "=" + value);
    }
    tandem::testing::TandemdProcess server(args);
    ArmContext ctx(scale, server.conninfo(), out, rates);
    scenario.run(ctx);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int main(int argc, char** argv) {
  Scale scale;
  std::string only, out_dir, compare_path;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--quick") scale.quick = true;
    else if (arg == "--scenario") only = value();
    else if (arg == "--out") out_dir = value();
    else if (arg == "--compare") compare_path = value();
    else if (arg == "--help" || arg == "-h") return usage("benchmark scenarios of tandemd");
    else return usage("unknown argument " + arg);
  }
  if (out_dir.empty()) return usage("--out DIR is required");
  auto scenarios = all_scenarios();
  if (!only.empty()) {
    std::erase_if(scenarios, [&](const Scenario& s) { return s.name != only; });
    if (scenarios.empty()) {
      std::string names;
      for (const auto& s : all_scenarios()) names += " " + s.name;
      return usage("no scenario " + only + "; there are:" + names);
    }
  }
  nlohmann::json old_run;
  if (!compare_path.empty()) {
    std::ifstream f(compare_path);
    if (!f) return usage("cannot read " + compare_path);
    try {
      f >> old_run;
    } catch (const std::exception& e) {
      return usage(compare_path + ": " + e.what());
    }
  }
  std::filesystem::create_directories(out_dir);
  RunResult run{scale.quick, utc_now(), {}};
  int failed = 0;
  for (const auto& scenario : scenarios) {
    auto started = std::chrono::steady_clock::now();
    ScenarioResult result{scenario.name, scenario.guards, scenario.contended, {}};
    RateBook rates;
    for (const auto& arm : scenario.arms) result.arms.push_back(run_arm(scenario, arm, scale, rates));
    print_scenario(result);
    std::printf("(%s took %.1f s)\n", scenario.name.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    std::fflush(stdout);
    if (!produced_numbers(result)) ++failed;
    write_file(std::filesystem::path(out_dir) / (scenario.name + ".svg"), scenario_svg(result));
    run.scenarios.push_back(std::move(result));
    write_file(std::filesystem::path(out_dir) / "results.json", to_json(run).dump(1) + "\n");
  }
  std::printf("\nscenarios: %zu produced numbers, %d did not; results in %s/results.json\n",
              scenarios.size() - failed, failed, out_dir.c_str());
  int regressions = 0;
  if (!compare_path.empty()) regressions = print_comparison(compare_runs(old_run, to_json(run)));
  if (failed > 0) return 1;
  return regressions > 0 ? 3 : 0;
}
