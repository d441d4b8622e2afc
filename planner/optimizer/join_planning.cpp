// join_planning: chooses the order in which an n-ary Join's inputs are
// joined (mir::Join::order; lowering builds the left-deep chain of binary
// joins in that order, keyed by the equivalences each new input shares with
// the inputs before it).
// Greedy, without statistics: start from the input estimated smallest, then
// repeatedly add the smallest input connected to those chosen by an
// equivalence (an expression over the chosen inputs equal to one over the
// candidate); an input connected to nothing is added (a cross product) only
// when no connected one remains. The estimate is a guess from the plan's
// shape: constant sizes, a selectivity per filter predicate (equality with a
// literal the most selective), aggregation and DISTINCT halving.
// Only `order` changes, so the result is the same for every order.
#include <cmath>

#include "planner/optimizer/passes.hpp"

namespace tandem::planner::passes {
namespace {

using mir::Rel;

constexpr double kUnknownSize = 1000.0;

double selectivity(const ScalarExpr& p) {
  if (auto* b = std::get_if<CallBinary>(&p.node)) {
    bool literal_side = b->lhs->is_literal() || b->rhs->is_literal();
    if (b->func == BinaryFunc::kEq) return literal_side ? 0.05 : 0.2;
    return 0.4;
  }
  if (auto* u = std::get_if<CallUnary>(&p.node); u && u->func == UnaryFunc::kIsNull) return 0.1;
  return 0.5;
}

double estimate(const Rel& rel) {
  return std::visit(
      [](const auto& n) -> double {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, mir::Constant>) {
          return static_cast<double>(n.rows.size());
        } else if constexpr (std::is_same_v<T, mir::Get> || std::is_same_v<T, mir::LocalGet>) {
          return kUnknownSize;
        } else if constexpr (std::is_same_v<T, mir::Let>) {
          return estimate(*n.body);
        } else if constexpr (std::is_same_v<T, mir::Filter>) {
          double s = estimate(*n.input);
          for (const auto& p : n.predicates) s *= selectivity(p);
          return s;
        } else if constexpr (std::is_same_v<T, mir::Join>) {
          double s = 1;
          for (const auto& i : n.inputs) s *= estimate(i);
          for (size_t k = 0; k < n.equivalences.size(); ++k) s /= kUnknownSize;
          return std::max(s, 1.0);
        } else if constexpr (std::is_same_v<T, mir::Union>) {
          double s = 0;
          for (const auto& i : n.inputs) s += estimate(i);
          return s;
        } else if constexpr (std::is_same_v<T, mir::Reduce>) {
          return n.group_key.empty() ? 1.0 : estimate(*n.input) / 2;
        } else if constexpr (std::is_same_v<T, mir::Distinct>) {
          return estimate(*n.input) / 2;
        } else if constexpr (std::is_same_v<T, mir::TopK>) {
          double s = estimate(*n.input);
          return n.limit && n.group_key.empty() ? std::min(s, static_cast<double>(*n.limit)) : s;
        } else if constexpr (std::is_same_v<T, mir::FlatMap>) {
          return estimate(*n.input) * 10;
        } else {
          return estimate(*n.input);
        }
      },
      rel.node);
}

std::vector<size_t> plan_order(const mir::Join& j) {
  size_t n = j.inputs.size();
  auto offsets = input_offsets(j);
  std::vector<double> size(n);
  for (size_t i = 0; i < n; ++i) size[i] = estimate(j.inputs[i]);
  std::vector<bool> chosen(n, false);
  // An expression lies over the chosen inputs when it has columns, all in them.
  auto over_chosen = [&](const ScalarExpr& e) {
    auto cols = support(e);
    if (cols.empty()) return false;
    for (size_t c : cols) {
      auto i = static_cast<size_t>(std::upper_bound(offsets.begin(), offsets.end(), c) - offsets.begin()) - 1;
      if (!chosen[i]) return false;
    }
    return true;
  };
  auto connected = [&](size_t cand) {
    for (const auto& cls : j.equivalences) {
      bool left = false, right = false;
      for (const auto& e : cls) {
        left = left || over_chosen(e);
        right = right || input_of(e, offsets) == cand;
      }
      if (left && right) return true;
    }
    return false;
  };
  std::vector<size_t> order;
  while (order.size() < n) {
    std::optional<size_t> best;
    bool best_connected = false;
    for (size_t i = 0; i < n; ++i) {
      if (chosen[i]) continue;
      bool c = !order.empty() && connected(i);
      if (!best || (c && !best_connected) || (c == best_connected && size[i] < size[*best])) {
        best = i;
        best_connected = c;
      }
    }
    chosen[*best] = true;
    order.push_back(*best);
  }
  return order;
}

}  // namespace

Status join_planning(Rel& root) {
  return bottom_up(root, [](Rel& rel) -> Status {
    if (auto* j = std::get_if<mir::Join>(&rel.node); j && j->inputs.size() > 1) j->order = plan_order(*j);
    return Status::ok();
  });
}

}  // namespace tandem::planner::passes
