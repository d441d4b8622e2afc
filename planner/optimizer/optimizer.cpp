#include "planner/optimizer/optimizer.hpp"

#include <algorithm>
#include <functional>

#include "common/eval.hpp"
#include "common/eval_context.hpp"
#include "planner/optimizer/passes.hpp"

namespace tandem::planner {
namespace passes {

using mir::Rel;

Status bottom_up(Rel& rel, const std::function<Status(Rel&)>& f) {
  Status st;
  mir::for_each_child(rel, [&](Rel& c) {
    if (st.is_ok()) st = bottom_up(c, f);
  });
  if (!st.is_ok()) return st;
  return f(rel);
}

std::vector<size_t> support(const ScalarExpr& e) {
  std::vector<size_t> out;
  ScalarExpr probe = e;
  mir::remap_columns(probe, [&](size_t c) {
    out.push_back(c);
    return c;
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<size_t> input_of(const ScalarExpr& e, const std::vector<size_t>& offsets) {
  auto cols = support(e);
  if (cols.empty()) return std::nullopt;
  auto which = [&](size_t c) {
    return static_cast<size_t>(std::upper_bound(offsets.begin(), offsets.end(), c) - offsets.begin()) - 1;
  };
  size_t first = which(cols.front());
  if (which(cols.back()) != first) return std::nullopt;
  return first;
}

std::vector<size_t> input_offsets(const mir::Join& join) {
  std::vector<size_t> offsets;
  size_t total = 0;
  for (const auto& i : join.inputs) {
    offsets.push_back(total);
    total += mir::arity(i);
  }
  return offsets;
}

void substitute(ScalarExpr& e, const std::function<std::optional<ScalarExpr>(size_t)>& f) {
  if (auto* c = std::get_if<ColumnRef>(&e.node)) {
    if (auto r = f(c->index)) e = std::move(*r);
    return;
  }
  std::visit(
      [&](auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, CallUnary>) {
          substitute(*n.arg, f);
        } else if constexpr (std::is_same_v<T, CallBinary>) {
          substitute(*n.lhs, f);
          substitute(*n.rhs, f);
        } else if constexpr (std::is_same_v<T, CallVariadic>) {
          for (auto& a : n.args) substitute(a, f);
        } else if constexpr (std::is_same_v<T, IfExpr>) {
          substitute(*n.cond, f);
          substitute(*n.then, f);
          substitute(*n.els, f);
        }
      },
      e.node);
}

namespace {

// Evaluates a row-wise operator over a constant; false when an expression
// fails (the error is left to the dataflow, which reports it on read).
bool fold_rows(Rel& rel) {
  auto eval_rows = [](mir::Constant& k, const std::function<bool(std::vector<Datum>&, RowArena&, EvalContext&)>& f) {
    mir::Constant out{{}, {}};
    for (auto& [row, diff] : k.rows) {
      RowArena arena;
      EvalContext ctx;
      auto datums = unpack(row.ref(), &arena);
      if (!f(datums, arena, ctx)) return std::optional<mir::Constant>();
      out.rows.emplace_back(Row::pack(datums), diff);
    }
    return std::optional<mir::Constant>(std::move(out));
  };
  if (auto* m = std::get_if<mir::Map>(&rel.node); m && std::holds_alternative<mir::Constant>(m->input->node)) {
    auto types = mir::column_types(rel);
    auto& k = std::get<mir::Constant>(m->input->node);
    auto out = eval_rows(k, [&](std::vector<Datum>& row, RowArena&, EvalContext& ctx) {
      for (const auto& e : m->scalars) {
        auto d = eval(e, row, ctx);
        if (!d.ok()) return false;
        row.push_back(*d);
      }
      return true;
    });
    if (!out) return false;
    out->types = types;
    rel = Rel{std::move(*out)};
    return true;
  }
  if (auto* f = std::get_if<mir::Filter>(&rel.node); f && std::holds_alternative<mir::Constant>(f->input->node)) {
    auto& k = std::get<mir::Constant>(f->input->node);
    mir::Constant out{{}, mir::column_types(rel)};
    for (auto& [row, diff] : k.rows) {
      RowArena arena;
      EvalContext ctx;
      auto datums = unpack(row.ref(), &arena);
      bool keep = true;
      for (const auto& p : f->predicates) {
        auto d = eval(p, datums, ctx);
        if (!d.ok()) return false;
        keep = keep && !d->is_null() && d->as_bool();
      }
      if (keep) out.rows.emplace_back(row, diff);
    }
    rel = Rel{std::move(out)};
    return true;
  }
  if (auto* p = std::get_if<mir::Project>(&rel.node); p && std::holds_alternative<mir::Constant>(p->input->node)) {
    auto& k = std::get<mir::Constant>(p->input->node);
    mir::Constant out{{}, mir::column_types(rel)};
    for (auto& [row, diff] : k.rows) {
      RowArena arena;
      auto datums = unpack(row.ref(), &arena);
      std::vector<Datum> o;
      for (size_t c : p->outputs) o.push_back(datums[c]);
      out.rows.emplace_back(Row::pack(o), diff);
    }
    rel = Rel{std::move(out)};
    return true;
  }
  return false;
}

}  // namespace

Status fold_constants(Rel& root) {
  return bottom_up(root, [](Rel& rel) -> Status {
    if (fold_rows(rel)) return Status::ok();
    if (auto* n = std::get_if<mir::Negate>(&rel.node); n && std::holds_alternative<mir::Constant>(n->input->node)) {
      mir::Constant k = std::get<mir::Constant>(n->input->node);
      for (auto& r : k.rows) r.second = -r.second;
      rel = Rel{std::move(k)};
    } else if (auto* u = std::get_if<mir::Union>(&rel.node)) {
      bool all = true;
      for (const auto& i : u->inputs) all = all && std::holds_alternative<mir::Constant>(i.node);
      if (all) {
        mir::Constant k{{}, mir::column_types(rel)};
        for (const auto& i : u->inputs) {
          for (const auto& r : std::get<mir::Constant>(i.node).rows) k.rows.push_back(r);
        }
        std::sort(k.rows.begin(), k.rows.end());
        mir::Constant merged{{}, k.types};
        for (auto& r : k.rows) {
          if (!merged.rows.empty() && merged.rows.back().first == r.first) {
            merged.rows.back().second += r.second;
          } else {
            merged.rows.push_back(r);
          }
        }
        std::erase_if(merged.rows, [](const auto& r) { return r.second == 0; });
        rel = Rel{std::move(merged)};
      }
    } else if (auto* j = std::get_if<mir::Join>(&rel.node)) {
      // Drop unit inputs (one empty row): they neither add columns nor rows.
      for (size_t i = 0; i < j->inputs.size() && j->inputs.size() > 1;) {
        if (mir::is_unit(j->inputs[i])) {
          j->inputs.erase(j->inputs.begin() + static_cast<long>(i));
          j->order.clear();
        } else {
          ++i;
        }
      }
      if (j->inputs.size() == 1 && j->equivalences.empty()) {
        Rel only = std::move(j->inputs[0]);
        rel = std::move(only);
      }
    }
    return Status::ok();
  });
}

Status fuse(Rel& root) {
  return bottom_up(root, [](Rel& rel) -> Status {
    if (auto* p = std::get_if<mir::Project>(&rel.node)) {
      if (auto* inner = std::get_if<mir::Project>(&p->input->node)) {
        std::vector<size_t> outs;
        for (size_t o : p->outputs) outs.push_back(inner->outputs.at(o));
        Rel in = std::move(*inner->input);
        rel = mir::project(std::move(in), std::move(outs));
      }
    } else if (auto* f = std::get_if<mir::Filter>(&rel.node)) {
      if (auto* inner = std::get_if<mir::Filter>(&f->input->node)) {
        std::vector<ScalarExpr> preds = inner->predicates;
        for (auto& p : f->predicates) preds.push_back(std::move(p));
        Rel in = std::move(*inner->input);
        rel = mir::filter(std::move(in), std::move(preds));
      }
    } else if (auto* m = std::get_if<mir::Map>(&rel.node)) {
      if (auto* inner = std::get_if<mir::Map>(&m->input->node)) {
        std::vector<ScalarExpr> scalars = inner->scalars;
        for (auto& s : m->scalars) scalars.push_back(std::move(s));
        Rel in = std::move(*inner->input);
        rel = mir::map(std::move(in), std::move(scalars));
      }
    }
    return Status::ok();
  });
}

Status join_equivalences(Rel& root) {
  return bottom_up(root, [](Rel& rel) -> Status {
    auto* f = std::get_if<mir::Filter>(&rel.node);
    if (!f) return Status::ok();
    auto* j = std::get_if<mir::Join>(&f->input->node);
    if (!j) return Status::ok();
    std::vector<size_t> offsets = input_offsets(*j);
    std::vector<ScalarExpr> rest;
    for (auto& p : f->predicates) {
      auto* b = std::get_if<CallBinary>(&p.node);
      if (b && b->func == BinaryFunc::kEq && b->lhs->type().same_type(b->rhs->type())) {
        auto l = input_of(*b->lhs, offsets), r = input_of(*b->rhs, offsets);
        if (l && r && *l != *r) {
          j->equivalences.push_back({*b->lhs, *b->rhs});
          continue;
        }
      }
      rest.push_back(std::move(p));
    }
    Rel in = std::move(*f->input);
    rel = mir::filter(std::move(in), std::move(rest));
    return Status::ok();
  });
}

}  // namespace passes

namespace {

using mir::Rel;

struct Pass {
  std::string name;
  Status (*run)(Rel&);
};

const std::vector<Pass>& pass_list() {
  static const std::vector<Pass> kPasses = {
      {"fuse", passes::fuse},
      {"fold_constants", passes::fold_constants},
      {"join_fusion", passes::join_fusion},
      {"predicate_pushdown", passes::predicate_pushdown},
      {"join_equivalences", passes::join_equivalences},
      {"fuse_again", passes::fuse},
      {"fold_constants_again", passes::fold_constants},
      {"join_planning", passes::join_planning},
      {"projection_pushdown", passes::projection_pushdown},
  };
  return kPasses;
}

}  // namespace

const std::vector<std::string>& optimizer_pass_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> n;
    for (const auto& p : pass_list()) n.push_back(p.name);
    return n;
  }();
  return kNames;
}

Result<mir::Rel> optimize(mir::Rel rel, const OptimizerOptions& options, std::vector<PassReport>* report) {
  for (const auto& pass : pass_list()) {
    PassReport r{pass.name, false, {}};
    if (!options.disabled.count(pass.name)) {
      auto start = std::chrono::steady_clock::now();
      TANDEM_RETURN_IF_ERROR(pass.run(rel));
      r.ran = true;
      r.time = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
    }
    if (report) report->push_back(std::move(r));
  }
  return rel;
}

}  // namespace tandem::planner
