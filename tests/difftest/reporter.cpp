#include "tests/difftest/reporter.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "tests/difftest/stop.hpp"

namespace tandem::difftest {

Reporter::Outcome Reporter::replay(const ReproCase& c) {
  ++replays_;
  Outcome out;
  Connection& pg = h_.pg();
  auto td_exec = [&](const std::string& sql) {
    Result r = h_.td().exec(sql);
    if (r.status == Result::Status::kLost && !stop_requested()) h_.recover_tandem();
    return r;
  };
  pg.exec("ROLLBACK");
  td_exec("ROLLBACK");
  for (const auto& d : c.drops_pg) pg.exec(d);
  for (const auto& d : c.drops_td) td_exec(d);
  for (const auto& s : c.steps) {
    for (const auto& stmt : s.pg) pg.exec(expand(stmt, c.subject));
    for (const auto& stmt : s.td) {
      Result r = td_exec(expand(stmt, c.subject));
      if (r.status == Result::Status::kLost) {
        out.td = r;
        out.pg.status = Result::Status::kOk;
        out.cmp = compare(out.pg, out.td, false, h_.opts().compare);
        return out;
      }
    }
  }
  out.pg = pg.exec(expand(c.check_pg, c.subject));
  out.td = td_exec(expand(c.check_td, c.subject));
  out.cmp = c.mode == CheckMode::kRows ? compare(out.pg, out.td, c.ordered, h_.opts().compare)
                                       : compare_command(out.pg, out.td);
  return out;
}

bool Reporter::fails_alike(const ReproCase& c, const Signature& sig) {
  if (stop_requested()) return false;
  Outcome o = replay(c);
  return o.cmp.verdict == Verdict::kWrong && o.cmp.kind == sig.kind && o.pg.ok() == sig.pg_ok &&
         o.td.ok() == sig.td_ok;
}

void Reporter::minimise_steps(ReproCase& c, const Signature& sig) {
  // ddmin over the removable steps: try dropping each of n chunks; on
  // success keep the rest and coarsen, else refine until single steps.
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < c.steps.size(); ++i) {
    if (c.steps[i].removable) keep.push_back(i);
  }
  auto build = [&](const std::vector<std::size_t>& kept) {
    ReproCase out = c;
    out.steps.clear();
    for (std::size_t i = 0; i < c.steps.size(); ++i) {
      if (!c.steps[i].removable || std::find(kept.begin(), kept.end(), i) != kept.end()) {
        out.steps.push_back(c.steps[i]);
      }
    }
    return out;
  };
  if (keep.empty()) return;
  if (fails_alike(build({}), sig)) {
    c = build({});
    return;
  }
  std::size_t n = 2;
  while (keep.size() >= 1 && !out_of_time()) {
    const std::size_t chunk = (keep.size() + n - 1) / n;
    bool reduced = false;
    for (std::size_t start = 0; start < keep.size() && !out_of_time(); start += chunk) {
      std::vector<std::size_t> rest;
      for (std::size_t i = 0; i < keep.size(); ++i) {
        if (i < start || i >= start + chunk) rest.push_back(keep[i]);
      }
      if (fails_alike(build(rest), sig)) {
        keep = rest;
        n = std::max<std::size_t>(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (chunk <= 1) break;
      n = std::min(n * 2, keep.size());
    }
  }
  c = build(keep);
}

void Reporter::simplify_subject(ReproCase& c, const Signature& sig) {
  if (!c.subject) return;
  bool progress = true;
  while (progress && !out_of_time()) {
    progress = false;
    for (SqlNode* n : live_nodes(c.subject)) {
      if (n->choice >= 0) continue;
      for (std::size_t i = 0; i < n->simpler.size() && !progress && !out_of_time(); ++i) {
        n->choice = static_cast<int>(i);
        if (fails_alike(c, sig)) {
          progress = true;
        } else {
          n->choice = -1;
        }
      }
      if (progress || out_of_time()) break;
    }
  }
}

void Reporter::report(std::vector<ReproCase> candidates, const Comparison& cmp, const Result& pg, const Result& td) {
  const ReproCase& first = candidates.front();
  std::string statement = expand(first.check_td, first.subject);
  std::cout << "\nWRONG [seed " << first.seed << "] " << failure_kind_name(cmp.kind) << " at " << first.origin << "\n"
            << "  statement: " << statement << "\n"
            << "  " << cmp.detail << "\n"
            << "  postgres: " << format_result(pg, 6) << "\n"
            << "  tandem:   " << format_result(td, 6) << "\n";

  ReproCase chosen = candidates.back();
  std::string status = "not minimised (minimisation budget of the run spent)";
  if (h_.stats().minimised < h_.opts().max_minimise && !stop_requested()) {
    ++h_.stats().minimised;
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(h_.opts().minimise_seconds);
    replays_ = 0;
    status = "did not reproduce when replayed from an empty database (timing? state outside the statements?)";
    const Signature sig{cmp.kind, pg.ok(), td.ok()};
    for (auto& c : candidates) {
      if (!fails_alike(c, sig)) continue;
      const std::size_t before = c.steps.size();
      minimise_steps(c, sig);
      simplify_subject(c, sig);
      minimise_steps(c, sig);
      status = "minimised from " + std::to_string(before) + " to " + std::to_string(c.steps.size()) + " steps in " +
               std::to_string(replays_) + " replays" + (out_of_time() ? " (time budget reached)" : "");
      chosen = c;
      break;
    }
  }
  Outcome last;
  std::string detail = cmp.detail;
  if (status.starts_with("minimised")) {
    last = replay(chosen);
    detail = last.cmp.detail + "\npostgres: " + format_result(last.pg, 20) + "\ntandem:   " + format_result(last.td, 20);
  }
  std::filesystem::create_directories(h_.opts().out_dir);
  const std::string path = h_.opts().out_dir + "/seed" + std::to_string(chosen.seed) + "-" +
                           std::to_string(++written_) + ".sql";
  const std::string script = psql_script(chosen, failure_kind_name(cmp.kind), detail);
  std::ofstream(path) << script;
  std::cout << "  repro " << status << ": " << path << "\n";
  if (status.starts_with("minimised")) {
    std::cout << "  ---- " << path << "\n" << script << "  ----\n";
  }
  std::cout.flush();
}

}  // namespace tandem::difftest
