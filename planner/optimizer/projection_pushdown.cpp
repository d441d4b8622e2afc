// projection_pushdown: a Join's inputs keep only the columns something above
// the join uses. For the pattern (after fuse)
//   Project(outputs, [Map | Filter]*, Join(inputs, equivalences))
// the demanded join columns are those the outputs, the maps (transitively),
// the filters and the equivalences reference; each input with undemanded
// columns is wrapped in a Project of the demanded ones and every reference
// above is renumbered. Narrower inputs mean narrower arrangements in the
// join. A bare Get input is left whole: it may be an index whose
// arrangement the join reuses as it is (compute/dataflow/render.cpp).
#include <set>

#include "planner/optimizer/passes.hpp"

namespace tandem::planner::passes {
namespace {

using mir::Rel;

// The chain of Maps and Filters between a Project and a Join, top first.
struct Chain {
  mir::Project* project = nullptr;
  std::vector<Rel*> between;
  mir::Join* join = nullptr;
};

std::optional<Chain> match(Rel& rel) {
  auto* p = std::get_if<mir::Project>(&rel.node);
  if (p == nullptr) return std::nullopt;
  Chain chain;
  chain.project = p;
  Rel* at = &*p->input;
  while (true) {
    if (auto* j = std::get_if<mir::Join>(&at->node)) {
      chain.join = j;
      return chain;
    }
    if (auto* m = std::get_if<mir::Map>(&at->node)) {
      chain.between.push_back(at);
      at = &*m->input;
    } else if (auto* f = std::get_if<mir::Filter>(&at->node)) {
      chain.between.push_back(at);
      at = &*f->input;
    } else {
      return std::nullopt;
    }
  }
}

void add_support(const ScalarExpr& e, std::set<size_t>* demanded) {
  for (size_t c : support(e)) demanded->insert(c);
}

Status narrow(Rel& rel) {
  auto chain = match(rel);
  if (!chain) return Status::ok();
  mir::Join& join = *chain->join;
  const std::vector<size_t> offsets = input_offsets(join);
  size_t width = 0;
  for (const Rel& input : join.inputs) width += mir::arity(input);

  // Demand, top down: columns referenced above each node, in that node's
  // output numbering. A Map's output is its input's columns then its
  // scalars; a Filter's is its input's.
  std::set<size_t> demanded(chain->project->outputs.begin(), chain->project->outputs.end());
  for (Rel* node : chain->between) {
    if (auto* f = std::get_if<mir::Filter>(&node->node)) {
      for (const auto& p : f->predicates) add_support(p, &demanded);
      continue;
    }
    // Every scalar stays (dropping unused ones is not this pass's
    // business), so all their input columns are demanded; references to
    // earlier scalars are not the input's.
    auto& m = std::get<mir::Map>(node->node);
    const size_t base = mir::arity(*m.input);
    std::set<size_t> below;
    for (size_t c : demanded) {
      if (c < base) below.insert(c);
    }
    for (const auto& s : m.scalars) {
      for (size_t c : support(s)) {
        if (c < base) below.insert(c);
      }
    }
    demanded = std::move(below);
  }
  for (const auto& cls : join.equivalences) {
    for (const auto& e : cls) add_support(e, &demanded);
  }

  // New numbering of the join's columns; inputs that shrink get a Project.
  std::vector<size_t> renumber(width, SIZE_MAX);
  bool changed = false;
  size_t next = 0;
  for (size_t i = 0; i < join.inputs.size(); ++i) {
    const size_t a = mir::arity(join.inputs[i]);
    std::vector<size_t> kept;
    for (size_t c = 0; c < a; ++c) {
      if (demanded.count(offsets[i] + c) != 0) kept.push_back(c);
    }
    const bool bare_get = std::holds_alternative<mir::Get>(join.inputs[i].node);
    if (kept.size() == a || bare_get) {
      for (size_t c = 0; c < a; ++c) renumber[offsets[i] + c] = next++;
      continue;
    }
    changed = true;
    for (size_t c : kept) renumber[offsets[i] + c] = next++;
    Rel input = std::move(join.inputs[i]);
    join.inputs[i] = Rel{mir::Project{std::move(input), std::move(kept)}};
  }
  if (!changed) return Status::ok();
  const size_t new_width = next;
  // Columns at or past the join's width are Map outputs: they shift by the
  // number of join columns dropped.
  auto remap = [&](size_t c) { return c < width ? renumber.at(c) : c - width + new_width; };
  for (auto& cls : join.equivalences) {
    for (auto& e : cls) mir::remap_columns(e, remap);
  }
  for (Rel* node : chain->between) {
    if (auto* f = std::get_if<mir::Filter>(&node->node)) {
      for (auto& p : f->predicates) mir::remap_columns(p, remap);
    } else {
      for (auto& s : std::get<mir::Map>(node->node).scalars) mir::remap_columns(s, remap);
    }
  }
  for (size_t& o : chain->project->outputs) o = remap(o);
  return Status::ok();
}

}  // namespace

Status projection_pushdown(mir::Rel& root) { return bottom_up(root, narrow); }

}  // namespace tandem::planner::passes
