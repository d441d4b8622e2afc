#pragma once
// Template definitions for planner/mir/mir.hpp. Include mir.hpp, not this.

#include <type_traits>

namespace tandem::planner::mir {

template <class F>
void remap_columns(ScalarExpr& e, const F& f) {
  std::visit(
      [&](auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ColumnRef>) {
          n.index = f(n.index);
        } else if constexpr (std::is_same_v<T, CallUnary>) {
          remap_columns(*n.arg, f);
        } else if constexpr (std::is_same_v<T, CallBinary>) {
          remap_columns(*n.lhs, f);
          remap_columns(*n.rhs, f);
        } else if constexpr (std::is_same_v<T, CallVariadic>) {
          for (auto& a : n.args) remap_columns(a, f);
        } else if constexpr (std::is_same_v<T, IfExpr>) {
          remap_columns(*n.cond, f);
          remap_columns(*n.then, f);
          remap_columns(*n.els, f);
        }
      },
      e.node);
}

template <class R, class F>
void for_each_child_impl(R& rel, const F& f) {
  std::visit(
      [&](auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Join> || std::is_same_v<T, Union>) {
          for (auto& i : n.inputs) f(i);
        } else if constexpr (std::is_same_v<T, Let>) {
          f(*n.value);
          f(*n.body);
        } else if constexpr (requires { n.input; }) {
          f(*n.input);
        }
      },
      rel.node);
}

template <class F>
void for_each_child(Rel& rel, const F& f) {
  for_each_child_impl(rel, f);
}
template <class F>
void for_each_child(const Rel& rel, const F& f) {
  for_each_child_impl(rel, f);
}

}  // namespace tandem::planner::mir
