// predicate_pushdown: every Filter predicate moves as far toward the leaves
// as the operators it crosses allow, and equalities between join inputs
// become join equivalences (keys), so no join computes a cross product that
// a WHERE clause later cuts down.
//
// Each rule is an identity of MIR's multiset algebra, so the rewrite is exact
// for every input, NULLs included (a Filter keeps a row only when the
// predicate is TRUE; NULL and FALSE both drop it):
//   Filter     its predicates join those being pushed (AND is split).
//   Project    predicates renumbered through the projection.
//   Map        map columns inlined into the predicate, then pushed.
//   Join       a predicate over one input goes to that input; `x = y` with x
//              and y over different inputs becomes an equivalence (a join
//              equivalence also demands non-NULL, exactly what the filter
//              did); the rest stay above the join.
//   Union, Negate, Distinct, Threshold: filters are row-wise, so they
//              distribute over sums, negation and per-row counts.
//   Reduce     predicates over group-key columns only (group keys inlined).
//   TopK       predicates over its group columns only (whole groups).
//   Window     predicates over its partition columns only (whole partitions).
//   FlatMap    predicates over input columns only.
//   Let        into the body (the value is shared: it gets only its own).
// Outer joins need no special case: decorrelation expresses them as inner
// joins, anti-joins (Union with a Negate) and NULL-padding Maps, and the
// rules above are valid for each of those. A predicate on a padded column
// is inlined against the NULL literal on the padded branch, where it folds.
// Predicates without columns are evaluated: TRUE is dropped, FALSE or NULL
// empties the relation (one that fails to evaluate is kept as a filter).
#include "common/eval.hpp"
#include "common/eval_context.hpp"
#include "planner/optimizer/passes.hpp"

namespace tandem::planner::passes {
namespace {

using mir::Rel;

void split_conjuncts(ScalarExpr e, std::vector<ScalarExpr>* out) {
  if (auto* b = std::get_if<CallBinary>(&e.node); b && b->func == BinaryFunc::kAnd) {
    split_conjuncts(std::move(*b->lhs), out);
    split_conjuncts(std::move(*b->rhs), out);
    return;
  }
  out->push_back(std::move(e));
}

// TRUE/FALSE for a column-free predicate that evaluates (NULL is FALSE).
std::optional<bool> constant_truth(const ScalarExpr& e) {
  if (!support(e).empty()) return std::nullopt;
  EvalContext ctx;
  std::vector<Datum> none;
  auto d = eval(e, none, ctx);
  if (!d.ok()) return std::nullopt;
  return !d->is_null() && d->as_bool();
}

bool all_below(const ScalarExpr& e, size_t limit) {
  for (size_t c : support(e)) {
    if (c >= limit) return false;
  }
  return true;
}

// Merges classes that share an expression.
void merge_classes(std::vector<std::vector<ScalarExpr>>* classes) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t a = 0; a < classes->size() && !changed; ++a) {
      for (size_t b = a + 1; b < classes->size() && !changed; ++b) {
        auto& x = (*classes)[a];
        auto& y = (*classes)[b];
        bool shared = false;
        for (const auto& e : y) shared = shared || std::find(x.begin(), x.end(), e) != x.end();
        if (!shared) continue;
        for (auto& e : y) {
          if (std::find(x.begin(), x.end(), e) == x.end()) x.push_back(std::move(e));
        }
        classes->erase(classes->begin() + static_cast<long>(b));
        changed = true;
      }
    }
  }
}

void push(Rel& rel, std::vector<ScalarExpr> incoming);

// Pushes nothing into `rel` but still visits its subtree.
void visit_children(Rel& rel) {
  mir::for_each_child(rel, [](Rel& c) { push(c, {}); });
}

void push(Rel& rel, std::vector<ScalarExpr> incoming) {
  std::vector<ScalarExpr> preds;
  for (auto& p : incoming) split_conjuncts(std::move(p), &preds);
  // Peel Filters, collecting their predicates.
  while (auto* f = std::get_if<mir::Filter>(&rel.node)) {
    for (auto& p : f->predicates) split_conjuncts(std::move(p), &preds);
    Rel in = std::move(*f->input);
    rel = std::move(in);
  }
  std::vector<ScalarExpr> kept;
  for (auto& p : preds) {
    auto truth = constant_truth(p);
    if (truth && *truth) continue;
    if (truth && !*truth) {
      rel = mir::empty(mir::column_types(rel));
      return;
    }
    if (std::find(kept.begin(), kept.end(), p) == kept.end()) kept.push_back(std::move(p));
  }
  preds = std::move(kept);
  std::vector<ScalarExpr> stay;  // predicates that end up right here

  if (auto* p = std::get_if<mir::Project>(&rel.node)) {
    for (auto& e : preds) mir::remap_columns(e, [&](size_t c) { return p->outputs.at(c); });
    push(*p->input, std::move(preds));
  } else if (auto* m = std::get_if<mir::Map>(&rel.node)) {
    size_t base = mir::arity(*m->input);
    std::function<std::optional<ScalarExpr>(size_t)> inline_col = [&](size_t c) -> std::optional<ScalarExpr> {
      if (c < base) return std::nullopt;
      ScalarExpr e = m->scalars.at(c - base);
      substitute(e, inline_col);
      return e;
    };
    for (auto& e : preds) substitute(e, inline_col);
    push(*m->input, std::move(preds));
  } else if (auto* j = std::get_if<mir::Join>(&rel.node)) {
    auto offsets = input_offsets(*j);
    std::vector<std::vector<ScalarExpr>> down(j->inputs.size());
    for (auto& e : preds) {
      if (auto i = input_of(e, offsets)) {
        down[*i].push_back(mir::shift_columns(std::move(e), -static_cast<int64_t>(offsets[*i])));
        continue;
      }
      auto* b = std::get_if<CallBinary>(&e.node);
      if (b && b->func == BinaryFunc::kEq && b->lhs->type().same_type(b->rhs->type())) {
        auto l = input_of(*b->lhs, offsets), r = input_of(*b->rhs, offsets);
        if (l && r && *l != *r) {
          j->equivalences.push_back({*b->lhs, *b->rhs});
          continue;
        }
      }
      stay.push_back(std::move(e));
    }
    merge_classes(&j->equivalences);
    for (size_t i = 0; i < j->inputs.size(); ++i) push(j->inputs[i], std::move(down[i]));
  } else if (auto* u = std::get_if<mir::Union>(&rel.node)) {
    for (auto& i : u->inputs) push(i, preds);
  } else if (auto* n = std::get_if<mir::Negate>(&rel.node)) {
    push(*n->input, std::move(preds));
  } else if (auto* d = std::get_if<mir::Distinct>(&rel.node)) {
    push(*d->input, std::move(preds));
  } else if (auto* t = std::get_if<mir::Threshold>(&rel.node)) {
    push(*t->input, std::move(preds));
  } else if (auto* r = std::get_if<mir::Reduce>(&rel.node)) {
    std::vector<ScalarExpr> down;
    for (auto& e : preds) {
      if (!all_below(e, r->group_key.size())) {
        stay.push_back(std::move(e));
        continue;
      }
      substitute(e, [&](size_t c) -> std::optional<ScalarExpr> { return r->group_key.at(c); });
      down.push_back(std::move(e));
    }
    push(*r->input, std::move(down));
  } else if (auto* k = std::get_if<mir::TopK>(&rel.node)) {
    std::vector<ScalarExpr> down;
    for (auto& e : preds) {
      bool grouped = true;
      for (size_t c : support(e)) {
        grouped = grouped && std::find(k->group_key.begin(), k->group_key.end(), c) != k->group_key.end();
      }
      (grouped ? down : stay).push_back(std::move(e));
    }
    push(*k->input, std::move(down));
  } else if (auto* w = std::get_if<mir::Window>(&rel.node)) {
    std::vector<ScalarExpr> down;
    for (auto& e : preds) {
      bool partitioned = true;
      for (size_t c : support(e)) {
        partitioned = partitioned && std::find(w->partition_by.begin(), w->partition_by.end(), c) != w->partition_by.end();
      }
      (partitioned ? down : stay).push_back(std::move(e));
    }
    push(*w->input, std::move(down));
  } else if (auto* fm = std::get_if<mir::FlatMap>(&rel.node)) {
    size_t base = mir::arity(*fm->input);
    std::vector<ScalarExpr> down;
    for (auto& e : preds) (all_below(e, base) ? down : stay).push_back(std::move(e));
    push(*fm->input, std::move(down));
  } else if (auto* l = std::get_if<mir::Let>(&rel.node)) {
    push(*l->value, {});
    push(*l->body, std::move(preds));
  } else {
    // Constant, Get, LocalGet: the predicates stop here.
    stay = std::move(preds);
    visit_children(rel);
  }
  if (!stay.empty()) rel = mir::filter(std::move(rel), std::move(stay));
}

}  // namespace

Status predicate_pushdown(Rel& root) {
  push(root, {});
  return Status::ok();
}

}  // namespace tandem::planner::passes
