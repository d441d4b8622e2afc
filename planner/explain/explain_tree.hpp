#pragma once
// Explanation: what EXPLAIN ... PLAN prints, as plain data, rendered either
// as Materialize's indented text or as JSON.
//
// A plan is a tree of ExplainNodes. A node prints as one line, `op` followed
// by `args` ("Filter (#0 = 5)"), then its `details` one level deeper (the
// physical plan's "Project: #0" lines), then its inputs one level deeper.
// Physical operators (LIR and fast-path plans) print with an arrow
// ("→Map/Filter/Project"); structural lines (With / cte / Return) never do.
// A node with an empty `op` is a block: no line of its own, its inputs at
// its own level (With and Return one above the other).
//
// The text form of a whole Explanation, two spaces per level:
//   <heading>                     e.g. "Explained Query (fast path):"
//     <plan tree>
//   (one heading + tree per explained object)
//   Source <name>                 each collection read from storage
//   Used Indexes:                 each index read, with how it is used
//     - <name> (<usage>)
//   Target cluster: <cluster>
// A plan without a heading (RAW and DECORRELATED plans of a query) prints
// at the left margin. The JSON form carries the same fields:
//   {"plans": [{"heading": ..., "plan": node}], "sources": [...],
//    "used_indexes": [{"name": ..., "usage": ...}], "target_cluster": ...}
//   node = {"op": ..., "args": ..., "details": [...], "inputs": [node...]}
//   (args, details and inputs omitted when empty); block = {"block": [node...]}.
// Threading: plain values; pure functions.
#include <string>
#include <vector>

namespace tandem::planner {

struct ExplainNode {
  std::string op;
  std::string args;
  bool arrow = false;
  std::vector<std::string> details;
  std::vector<ExplainNode> inputs;
};

struct ExplainedPlan {
  std::string heading;  // "" = the tree at the left margin
  ExplainNode plan;
};

struct UsedIndex {
  std::string name;
  std::string usage;  // "lookup", "*** full scan ***"
  bool operator==(const UsedIndex&) const = default;
};

struct Explanation {
  std::vector<ExplainedPlan> plans;
  std::vector<std::string> sources;
  std::vector<UsedIndex> used_indexes;
  std::string target_cluster;
  // The runtime that serves the read (queries only): "interactive" or
  // "maintenance"; empty for what no runtime serves.
  std::string target_runtime;
};

std::string explain_text(const Explanation& explanation);
std::string explain_json(const Explanation& explanation);

}  // namespace tandem::planner
