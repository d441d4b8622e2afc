#include "tests/difftest/round.hpp"

#include <cctype>
#include <iostream>

#include "tests/difftest/stop.hpp"

namespace tandem::difftest {

Round::Round(Harness& h, Reporter& reporter, std::uint64_t seed)
    : h_(h), reporter_(reporter), seed_(seed), rng_(seed) {
  const Features& f = h.opts().features;
  schema_opts_.zero_column_tables = f.on("zero-column-tables");
  schema_opts_.numeric = f.on("numeric");
  schema_opts_.floats = f.on("floats");
  schema_opts_.special_floats = f.on("special-floats");
  schema_opts_.dates = f.on("dates");
  schema_opts_.jsonb = f.on("jsonb");
  schema_opts_.max_rows = h.opts().max_rows;
}

bool Round::budget_left() const { return !over_ && h_.budget_left(); }

bool Round::account(const Comparison& c, const std::string& sql) {
  // A stop request kills the servers: what follows is not an answer.
  if (stop_requested()) {
    over_ = true;
    return false;
  }
  Stats& s = h_.stats();
  ++s.queries;
  switch (c.verdict) {
    case Verdict::kMatch: break;
    case Verdict::kErrorMatch:
      ++s.error_match;
      if (c.class_differs) {
        ++s.error_class_differs;
        if (h_.opts().verbose) std::cout << "error classes differ [seed " << seed_ << "]:\n" << c.detail << "\n";
      }
      break;
    case Verdict::kUnsupported:
      ++s.unsupported;
      if (h_.opts().verbose) std::cout << "unsupported [seed " << seed_ << "]: " << c.detail << "\n";
      break;
    case Verdict::kOneSidedDataError:
      ++s.one_sided_data_errors;
      if (h_.opts().verbose) std::cout << "one-sided data error [seed " << seed_ << "]:\n" << c.detail << "\n";
      break;
    case Verdict::kWrong:
      if (c.kind == FailureKind::kNumericText && !h_.opts().compare.strict_numeric_members &&
          chooses_group_member(with_view_bodies(sql))) {
        ++s.other_group_member;
        if (h_.opts().verbose) std::cout << "another group member [seed " << seed_ << "]:\n" << c.detail << "\n";
        break;
      }
      ++s.wrong;
      return true;
  }
  return false;
}

std::string Round::with_view_bodies(const std::string& sql) const {
  auto reads = [](const std::string& text, const std::string& name) {
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      const std::size_t end = at + name.size();
      const auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
      if ((at == 0 || !word(text[at - 1])) && (end == text.size() || !word(text[end]))) return true;
    }
    return false;
  };
  std::string out = sql;
  // Views read only earlier views: one pass from the newest covers the closure.
  for (auto v = views_.rbegin(); v != views_.rend(); ++v) {
    if (reads(out, v->name)) out += "\n" + render(v->query.node);
  }
  return out;
}

std::vector<std::string> Round::drops(bool tandem) const {
  std::vector<std::string> out;
  for (auto v = views_.rbegin(); v != views_.rend(); ++v) {
    const bool mv = tandem && v->kind.find("materialized") != std::string::npos;
    out.push_back(std::string(mv ? "DROP MATERIALIZED VIEW IF EXISTS " : "DROP VIEW IF EXISTS ") + v->name +
                  " CASCADE");
  }
  for (const auto& t : tables_) out.push_back("DROP TABLE IF EXISTS " + t.name + " CASCADE");
  return out;
}

void Round::cleanup() {
  h_.pg().exec("ROLLBACK");
  h_.td().exec("ROLLBACK");
  for (const auto& d : drops(false)) h_.pg().exec(d);
  for (const auto& d : drops(true)) {
    const Result r = h_.td().exec(d);
    if (r.status == Result::Status::kLost && !stop_requested()) h_.recover_tandem();
  }
}

ReproCase Round::base_case(const std::string& origin) {
  ReproCase c;
  c.seed = seed_;
  c.origin = origin;
  c.drops_pg = drops(false);
  c.drops_td = drops(true);
  return c;
}

namespace {

// A view's CREATE step with its body replaced by "{Q}", so that the
// minimiser's simplifications of the view's query reach both servers.
Step subject_step(Step s) {
  s.removable = false;
  for (auto* list : {&s.pg, &s.td}) {
    for (auto& stmt : *list) {
      if (stmt.starts_with("CREATE") && stmt.find("INDEX") == std::string::npos) {
        stmt = stmt.substr(0, stmt.find(" AS ") + 4) + "{Q}";
      }
    }
  }
  return s;
}

}  // namespace

// The round's current state as a fresh load: each table with the rows
// PostgreSQL holds now, then the views.
ReproCase Round::flattened(ReproCase c, const View* subject_view) {
  for (const auto& t : tables_) {
    c.steps.push_back({{create_table_sql(t)}, {create_table_sql(t)}, true, "table " + t.name});
    const Result rows = h_.pg().exec("SELECT * FROM " + t.name);
    for (const auto& r : rows.rows) {
      std::vector<std::string> lits;
      for (std::size_t i = 0; i < r.size(); ++i) {
        lits.push_back(r[i] ? literal_from_text(t.columns[i].type, *r[i]) : "NULL");
      }
      const std::string ins = insert_row_sql(t, lits);
      c.steps.push_back({{ins}, {ins}, true, ""});
    }
  }
  for (const auto& v : views_) {
    c.steps.push_back(&v == subject_view ? subject_step(history_[v.step]) : history_[v.step]);
  }
  return c;
}

// The round's statements from its start.
ReproCase Round::from_history(ReproCase c, const View* subject_view) {
  c.steps = history_;
  if (subject_view != nullptr) c.steps[subject_view->step] = subject_step(c.steps[subject_view->step]);
  return c;
}

bool Round::load_tables() {
  tables_ = random_tables(rng_, schema_opts_);
  for (const auto& t : tables_) {
    std::vector<std::string> stmts = {create_table_sql(t)};
    for (const auto& row : t.rows) stmts.push_back(insert_row_sql(t, row));
    for (std::size_t i = 0; i < stmts.size(); ++i) {
      const Result pg = h_.pg().exec(stmts[i]);
      const Result td = h_.td().exec(stmts[i]);
      const Comparison c = compare_command(pg, td);
      if (account(c, stmts[i])) {
        ReproCase rc = base_case("loading table " + t.name);
        rc.steps = history_;
        rc.mode = CheckMode::kCommand;
        rc.check_pg = rc.check_td = stmts[i];
        reporter_.report({rc}, c, pg, td);
        over_ = true;
        return false;
      }
      history_.push_back({{stmts[i]}, {stmts[i]}, i > 0, i == 0 ? "table " + t.name : ""});
    }
    relations_.push_back({t.name, t.columns});
  }
  return true;
}

void Round::create_views() {
  const Features& f = h_.opts().features;
  if (!f.on("views") && !f.on("materialized-views")) return;
  const int n = rng_.range(1, h_.opts().objects_per_round);
  for (int i = 1; i <= n && budget_left(); ++i) {
    std::vector<int> weights = {f.on("views") ? 2 : 0, f.on("views") && f.on("indexes") ? 2 : 0,
                                f.on("views") && f.on("indexes") ? 1 : 0, f.on("materialized-views") ? 2 : 0,
                                f.on("materialized-views") && f.on("indexes") ? 1 : 0};
    static const std::vector<std::string> kinds = {"view", "view with default index", "view with column index",
                                                   "materialized view", "materialized view with default index"};
    const std::size_t kind = rng_.weighted(weights);
    View v{"v" + std::to_string(i), kinds[kind], QueryGen(rng_, relations_, f).view_query(), history_.size()};
    const std::string body = render(v.query.node);
    Step s{{"CREATE VIEW " + v.name + " AS " + body}, {}, true, v.name + ": " + v.kind};
    s.td.push_back(std::string(kind >= 3 ? "CREATE MATERIALIZED VIEW " : "CREATE VIEW ") + v.name + " AS " + body);
    if (kind == 1 || kind == 4) s.td.push_back("CREATE DEFAULT INDEX ON " + v.name);
    if (kind == 2) {
      const std::string col = v.query.columns.empty() ? "" : rng_.pick(v.query.columns).name;
      s.td.push_back(col.empty() ? "CREATE DEFAULT INDEX ON " + v.name
                                 : "CREATE INDEX " + v.name + "_idx ON " + v.name + " (" + col + ")");
    }
    const Result pg = h_.pg().exec(s.pg[0]);
    bool unsupported = false;
    for (std::size_t j = 0; j < s.td.size(); ++j) {
      Result ok;
      ok.status = Result::Status::kOk;
      const Result td = h_.td().exec(s.td[j]);
      const Result& expected = j == 0 ? pg : ok;
      // Outcomes compare, command tags not (CREATE VIEW vs CREATE MATERIALIZED VIEW).
      const Comparison c = compare(expected, td, false, h_.opts().compare);
      if (account(c, s.td[j])) {
        if (td.status == Result::Status::kLost) h_.recover_tandem();
        ReproCase rc = base_case("creating " + v.name + " (" + v.kind + ")");
        rc.mode = CheckMode::kCommand;
        rc.subject = clone(v.query.node);
        rc.check_pg = j == 0 ? "CREATE VIEW " + v.name + " AS {Q}" : "SELECT 1";
        rc.check_td = j == 0 ? s.td[0].substr(0, s.td[0].find(" AS ") + 4) + "{Q}" : s.td[j];
        std::vector<ReproCase> cands;
        if (td.status != Result::Status::kLost) cands.push_back(flattened(rc, nullptr));
        rc.steps = history_;
        if (j > 0) rc.steps.push_back({{}, {s.td[0]}, false, ""});
        cands.push_back(rc);
        reporter_.report(cands, c, expected, td);
        over_ = true;
        return;
      }
      if (!td.ok()) {
        unsupported = true;
        break;
      }
    }
    if (!pg.ok() || unsupported) {
      // Keep the catalogs alike: drop whatever one side created.
      h_.pg().exec("DROP VIEW IF EXISTS " + v.name);
      h_.td().exec(std::string(kind >= 3 ? "DROP MATERIALIZED VIEW IF EXISTS " : "DROP VIEW IF EXISTS ") + v.name +
                   " CASCADE");
      continue;
    }
    history_.push_back(s);
    relations_.push_back({v.name, v.query.columns});
    views_.push_back(std::move(v));
  }
}

bool Round::check_query(const Query& q, int number) {
  const std::string sql = render(q.node);
  if (h_.opts().verbose) std::cout << "[seed " << seed_ << "] " << sql << "\n";
  const Result pg = h_.pg().exec(sql);
  const Result td = h_.td().exec(sql);
  const Comparison c = compare(pg, td, q.total_order, h_.opts().compare);
  if (!account(c, sql)) return true;
  const bool lost = td.status == Result::Status::kLost;
  if (lost && stop_requested()) return false;
  std::string how;
  if (lost) how = h_.recover_tandem();
  ReproCase rc = base_case("ad-hoc query " + std::to_string(number) + (how.empty() ? "" : " (" + how + ")"));
  rc.subject = clone(q.node);
  rc.check_pg = rc.check_td = "{Q}";
  rc.ordered = q.total_order;
  std::vector<ReproCase> cands;
  cands.push_back(flattened(rc, nullptr));
  cands.push_back(from_history(rc, nullptr));
  reporter_.report(cands, c, pg, td);
  over_ = true;
  return false;
}

bool Round::check_views(const std::string& when) {
  for (const auto& v : views_) {
    if (!budget_left()) return false;
    const std::string sql = "SELECT * FROM " + v.name;
    const Result pg = h_.pg().exec(sql);
    const Result td = h_.td().exec(sql);
    const Comparison c = compare(pg, td, false, h_.opts().compare);
    if (!account(c, sql)) continue;
    const bool lost = td.status == Result::Status::kLost;
    if (lost && stop_requested()) return false;
    std::string how;
    if (lost) how = h_.recover_tandem();
    ReproCase rc = base_case(v.name + " (" + v.kind + ") " + when + (how.empty() ? "" : " (" + how + ")"));
    rc.subject = clone(v.query.node);
    rc.check_pg = rc.check_td = sql;
    std::vector<ReproCase> cands;
    if (!lost) cands.push_back(flattened(rc, &v));
    cands.push_back(from_history(rc, &v));
    reporter_.report(cands, c, pg, td);
    over_ = true;
    return false;
  }
  return true;
}

bool Round::change_data(int step) {
  const Features& f = h_.opts().features;
  const std::size_t how = rng_.weighted({5, f.on("transactions") ? 3 : 0, f.on("rollback") ? 2 : 0});
  std::vector<std::string> stmts;
  if (how > 0) stmts.push_back("BEGIN");
  for (int i = rng_.range(1, 3); i > 0; --i) stmts.push_back(random_dml(rng_, rng_.pick(tables_), schema_opts_));
  if (how == 1) stmts.push_back("COMMIT");
  if (how == 2) stmts.push_back("ROLLBACK");
  for (std::size_t i = 0; i < stmts.size(); ++i) {
    const Result pg = h_.pg().exec(stmts[i]);
    const Result td = h_.td().exec(stmts[i]);
    const Comparison c = compare_command(pg, td);
    if (!account(c, stmts[i])) continue;
    const bool lost = td.status == Result::Status::kLost;
    if (lost && stop_requested()) return false;
    std::string note;
    if (lost) note = " (" + h_.recover_tandem() + ")";
    ReproCase rc = base_case("data change " + std::to_string(step) + note);
    rc.mode = CheckMode::kCommand;
    rc.steps = history_;
    std::vector<std::string> prefix(stmts.begin(), stmts.begin() + static_cast<long>(i));
    if (!prefix.empty()) rc.steps.push_back({prefix, prefix, false, ""});
    rc.check_pg = rc.check_td = stmts[i];
    reporter_.report({rc}, c, pg, td);
    over_ = true;
    return false;
  }
  history_.push_back({stmts, stmts, true, "data change " + std::to_string(step)});
  return true;
}

void Round::run() {
  Stats& s = h_.stats();
  if (s.rounds == 0) s.first_seed = seed_;
  s.last_seed = seed_;
  ++s.rounds;
  if (load_tables()) {
    create_views();
    int number = 0;
    if (!over_ && check_views("after creation")) {
      const Features& f = h_.opts().features;
      for (int step = 1; step <= h_.opts().dml_steps + 1 && budget_left(); ++step) {
        QueryGen gen(rng_, relations_, f);
        for (int i = 0; i < h_.opts().queries_per_step && budget_left(); ++i) {
          if (!check_query(gen.top_query(), ++number)) break;
        }
        if (step > h_.opts().dml_steps || !f.on("dml") || !budget_left()) break;
        if (!change_data(step)) break;
        if (!check_views("after data change " + std::to_string(step))) break;
      }
    }
  }
  if (!stop_requested()) cleanup();
}

}  // namespace tandem::difftest
