// join_fusion: a Join whose inputs are Joins (possibly under Filters and
// Projects, as comma joins and JOIN ... ON chains decorrelate) becomes ONE
// n-ary Join over all the leaf inputs, so that WHERE equalities between any
// two of them can become equivalences and join planning sees every input.
//   Join(.., Project(Filter(Join(A, B), p), cols), ..)
//     => Project(Filter(Join(.., A, B, ..), p'), cols')
// Valid because inner joins are associative and a Filter or Project over a
// join input commutes with the join (predicates and columns are renumbered
// into the flat row). Outer joins never appear as MIR Joins (decorrelation
// expresses them as inner joins plus anti-joins under Lets), so nothing here
// reorders a null-supplying side.
#include <numeric>

#include "planner/optimizer/passes.hpp"

namespace tandem::planner::passes {
namespace {

using mir::Rel;

// A join tree flattened: the leaf inputs, and everything over their
// concatenated row (`outputs` maps the tree's output columns into it).
struct Flat {
  std::vector<Rel> rels;
  size_t width = 0;
  std::vector<std::vector<ScalarExpr>> equivalences;
  std::vector<ScalarExpr> predicates;
  std::vector<size_t> outputs;
};

// True when `rel` is a Join, or Filters/Projects over one.
bool join_below(const Rel& rel) {
  if (std::holds_alternative<mir::Join>(rel.node)) return true;
  if (auto* f = std::get_if<mir::Filter>(&rel.node)) return join_below(*f->input);
  if (auto* p = std::get_if<mir::Project>(&rel.node)) return join_below(*p->input);
  return false;
}

ScalarExpr through(ScalarExpr e, const std::vector<size_t>& outputs) {
  mir::remap_columns(e, [&](size_t c) { return outputs.at(c); });
  return e;
}

Flat flatten(Rel rel) {
  Flat out;
  if (auto* j = std::get_if<mir::Join>(&rel.node)) {
    for (auto& input : j->inputs) {
      Flat f = join_below(input) ? flatten(std::move(input)) : Flat{};
      if (f.rels.empty()) {
        size_t a = mir::arity(input);
        f.rels.push_back(std::move(input));
        f.width = a;
        f.outputs.resize(a);
        std::iota(f.outputs.begin(), f.outputs.end(), size_t{0});
      }
      auto shift = [&](ScalarExpr e) { return mir::shift_columns(std::move(e), static_cast<int64_t>(out.width)); };
      for (auto& cls : f.equivalences) {
        for (auto& e : cls) e = shift(std::move(e));
        out.equivalences.push_back(std::move(cls));
      }
      for (auto& p : f.predicates) out.predicates.push_back(shift(std::move(p)));
      for (size_t c : f.outputs) out.outputs.push_back(c + out.width);
      for (auto& r : f.rels) out.rels.push_back(std::move(r));
      out.width += f.width;
    }
    for (auto& cls : j->equivalences) {
      std::vector<ScalarExpr> mapped;
      for (auto& e : cls) mapped.push_back(through(std::move(e), out.outputs));
      out.equivalences.push_back(std::move(mapped));
    }
  } else if (auto* f = std::get_if<mir::Filter>(&rel.node)) {
    out = flatten(std::move(*f->input));
    for (auto& p : f->predicates) out.predicates.push_back(through(std::move(p), out.outputs));
  } else if (auto* p = std::get_if<mir::Project>(&rel.node)) {
    out = flatten(std::move(*p->input));
    std::vector<size_t> outputs;
    for (size_t c : p->outputs) outputs.push_back(out.outputs.at(c));
    out.outputs = std::move(outputs);
  }
  return out;
}

}  // namespace

Status join_fusion(Rel& root) {
  return bottom_up(root, [](Rel& rel) -> Status {
    auto* j = std::get_if<mir::Join>(&rel.node);
    if (!j) return Status::ok();
    bool nested = false;
    for (const auto& i : j->inputs) nested = nested || join_below(i);
    if (!nested) return Status::ok();
    Rel taken = std::move(rel);
    Flat f = flatten(std::move(taken));
    Rel joined{mir::Join{std::move(f.rels), std::move(f.equivalences), {}}};
    rel = mir::project(mir::filter(std::move(joined), std::move(f.predicates)), std::move(f.outputs));
    return Status::ok();
  });
}

}  // namespace tandem::planner::passes
