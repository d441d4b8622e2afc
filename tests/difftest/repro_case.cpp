#include "tests/difftest/repro_case.hpp"

namespace tandem::difftest {

std::string expand(const std::string& stmt, const NodePtr& subject) {
  const std::size_t at = stmt.find("{Q}");
  if (at == std::string::npos) return stmt;
  return stmt.substr(0, at) + render(subject) + stmt.substr(at + 3);
}

Comparison compare_command(const Result& pg, const Result& td) {
  CompareOptions opts;
  opts.ignore_types = true;
  Comparison c = compare(pg, td, false, opts);
  if (c.verdict == Verdict::kMatch && pg.tag != td.tag) {
    c.verdict = Verdict::kWrong;
    c.kind = FailureKind::kRows;
    c.detail = "command tag: postgres \"" + pg.tag + "\", tandem \"" + td.tag + "\"";
  }
  return c;
}

namespace {

std::string commented(const std::string& text) {
  std::string out = "-- ";
  for (char ch : text) {
    out += ch;
    if (ch == '\n') out += "-- ";
  }
  return out + "\n";
}

void statements(std::string& out, const std::vector<std::string>& pg, const std::vector<std::string>& td,
                const NodePtr& subject) {
  if (pg == td) {
    for (const auto& s : pg) out += expand(s, subject) + ";\n";
    return;
  }
  out += "\\if :tandem\n";
  for (const auto& s : td) out += expand(s, subject) + ";\n";
  if (!pg.empty()) {
    out += "\\else\n";
    for (const auto& s : pg) out += expand(s, subject) + ";\n";
  }
  out += "\\endif\n";
}

}  // namespace

std::string psql_script(const ReproCase& c, const std::string& headline, const std::string& detail) {
  std::string out;
  out += commented("tandem-difftest repro, seed " + std::to_string(c.seed) + ": " + headline);
  out += commented("found at: " + c.origin);
  out += commented(detail);
  out += "-- replay against tandem:      psql -X -v tandem=true -h 127.0.0.1 -p 6875 -U materialize materialize -f THIS\n";
  out += "-- replay against PostgreSQL:  psql -X -h 127.0.0.1 -p 5432 -U postgres postgres -f THIS\n";
  out += "\\if :{?tandem}\n\\else\n\\set tandem false\n\\endif\n";
  out += "\\set ON_ERROR_STOP false\n";
  statements(out, c.drops_pg, c.drops_td, nullptr);
  for (const auto& s : c.steps) {
    if (!s.note.empty()) out += "-- " + s.note + "\n";
    statements(out, s.pg, s.td, c.subject);
  }
  out += "-- the statement whose answers differ:\n";
  statements(out, {c.check_pg}, {c.check_td}, c.subject);
  return out;
}

}  // namespace tandem::difftest
