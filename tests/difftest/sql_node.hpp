#pragma once
// SqlNode: a generated statement as a tree of text fragments, so that the
// minimiser can simplify it without reparsing SQL.
//
// A node renders as its parts in order (text, or child nodes). A node may
// list `simpler` replacements (a literal for an expression, its operand, an
// empty node for an optional WHERE clause, INNER for an outer join, ...).
// The minimiser sets `choice` to try one; render() then prints that
// replacement instead. Replacements are themselves trees, so simplification
// continues inside them. Nothing here checks that a replacement is valid SQL:
// a candidate PostgreSQL rejects is simply not kept.

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tandem::difftest {

struct SqlNode;
using NodePtr = std::shared_ptr<SqlNode>;

struct SqlNode {
  std::vector<std::variant<std::string, NodePtr>> parts;
  std::vector<NodePtr> simpler;
  int choice = -1;  // -1: this node itself; else an index into `simpler`.
};

namespace detail {
inline void append(SqlNode&) {}
template <typename First, typename... Rest>
void append(SqlNode& n, First&& first, Rest&&... rest) {
  if constexpr (std::is_convertible_v<First, NodePtr>) {
    n.parts.emplace_back(NodePtr(std::forward<First>(first)));
  } else {
    n.parts.emplace_back(std::string(std::forward<First>(first)));
  }
  append(n, std::forward<Rest>(rest)...);
}
}  // namespace detail

// node("(", a, " + ", b, ")"): a node of text and child nodes.
template <typename... Parts>
NodePtr node(Parts&&... parts) {
  auto n = std::make_shared<SqlNode>();
  detail::append(*n, std::forward<Parts>(parts)...);
  return n;
}

// Adds replacements to `n` (null ones are skipped); returns n.
NodePtr with_simpler(NodePtr n, std::vector<NodePtr> replacements);

std::string render(const NodePtr& n);

// A deep copy (choices included), so that simplifying it leaves `n` alone.
NodePtr clone(const NodePtr& n);

// Every node reachable through the current choices, parents first.
std::vector<SqlNode*> live_nodes(const NodePtr& root);

}  // namespace tandem::difftest
