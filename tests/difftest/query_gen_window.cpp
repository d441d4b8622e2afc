// Window function calls of QueryGen, generated so that PostgreSQL's answer
// is deterministic:
//   * peer-based calls (rank, dense_rank, percent_rank, cume_dist, and
//     aggregates over RANGE / GROUPS frames, the default among them) depend
//     only on peer groups, so any PARTITION BY / ORDER BY will do;
//   * position-based calls (row_number, ntile, lag, lead, first_value,
//     last_value, nth_value, aggregates over ROWS frames) order by every
//     column of the FROM clause (numbers also by their text, so that 1.0 and
//     1.00 or 0 and -0 are not ties): only identical rows tie, and they are
//     interchangeable. A select list has at most one such call: each window
//     may order identical rows differently, which pairs values differently.

#include <algorithm>

#include "tests/difftest/query_gen.hpp"

namespace tandem::difftest {

namespace {

std::string frame_bound(Rng& rng, int kind) {
  switch (kind) {
    case 0: return "UNBOUNDED PRECEDING";
    case 1: return std::to_string(rng.range(0, 2)) + " PRECEDING";
    case 2: return "CURRENT ROW";
    case 3: return std::to_string(rng.range(0, 2)) + " FOLLOWING";
    default: return "UNBOUNDED FOLLOWING";
  }
}

// A valid frame: the start's kind at most the end's (n PRECEDING .. n
// PRECEDING and n FOLLOWING .. n FOLLOWING are valid, possibly empty).
std::string frame(Rng& rng, const char* units) {
  const int start = rng.range(0, 3);
  int end = rng.range(std::max(start, 1), 4);
  if (end == start && start == 2) end = 4;
  return std::string(" ") + units + " BETWEEN " + frame_bound(rng, start) + " AND " + frame_bound(rng, end);
}

}  // namespace

NodePtr QueryGen::window_call(Type t, const Ctx& c) {
  Ctx row;  // arguments: row expressions over the FROM clause, no windows
  row.cols = c.cols;
  row.qdepth = 0;
  auto arg = [&](Type at) { return expr(at, row, 1); };
  std::vector<ColRef> cols;
  bool all_usable = true;
  for (const auto& col : c.cols) {
    if (col.ref.empty()) all_usable = false;
    else cols.push_back(col);
  }
  const bool positional_ok = all_usable && !cols.empty() && positional_windows_ == 0;

  std::string partition;
  if (!cols.empty() && rng_.chance(0.6)) {
    const int n = rng_.range(1, std::min(2, static_cast<int>(cols.size())));
    for (int i = 0; i < n; ++i) partition += (i ? ", " : "") + rng_.pick(cols).ref;
    partition = "PARTITION BY " + partition;
  }
  auto direction = [&]() {
    std::string d = rng_.chance(0.3) ? " DESC" : "";
    if (rng_.chance(0.2)) d += rng_.chance(0.5) ? " NULLS FIRST" : " NULLS LAST";
    return d;
  };
  auto some_order = [&]() {
    if (cols.empty() || rng_.chance(0.2)) return std::string();
    std::string o;
    const int n = rng_.range(1, std::min(2, static_cast<int>(cols.size())));
    for (int i = 0; i < n; ++i) o += (i ? ", " : "") + rng_.pick(cols).ref + direction();
    return "ORDER BY " + o;
  };
  auto total_order = [&]() {
    std::vector<ColRef> shuffled = cols;
    std::shuffle(shuffled.begin(), shuffled.end(), rng_.engine());
    std::string o;
    for (const auto& col : shuffled) {
      o += (o.empty() ? "" : ", ") + col.ref + direction();
      if (col.type == Type::kNumeric || col.type == Type::kDouble) o += ", " + col.ref + "::text";
    }
    return "ORDER BY " + o;
  };
  auto over = [&](const std::string& order, const std::string& frame_clause = "") {
    std::string spec = partition;
    if (!order.empty()) spec += (spec.empty() ? "" : " ") + order;
    spec += frame_clause;
    return " OVER (" + spec + ")";
  };

  // Candidates as (call text before OVER, position-based?).
  struct Candidate {
    NodePtr call;
    bool positional;
  };
  std::vector<Candidate> peer;
  std::vector<Candidate> positional;
  auto agg_calls = [&](std::vector<NodePtr>* out) {
    switch (t) {
      case Type::kBigint:
        out->push_back(node("count(*)"));
        out->push_back(node("count(", arg(random_type(c.cols)), ")"));
        out->push_back(node("sum(", arg(Type::kInt), ")"));
        break;
      case Type::kNumeric:
        out->push_back(node("sum(", arg(Type::kBigint), ")"));
        out->push_back(node("avg(", arg(rng_.pick(std::vector<Type>{Type::kInt, Type::kBigint, Type::kNumeric})), ")"));
        break;
      case Type::kDouble:
        out->push_back(node("sum(", arg(Type::kDouble), ")"));
        out->push_back(node("avg(", arg(Type::kDouble), ")"));
        break;
      case Type::kBool:
        out->push_back(node(rng_.chance(0.5) ? "bool_and(" : "bool_or(", predicate(row, 0), ")"));
        break;
      default: break;
    }
    if (t != Type::kBool) out->push_back(node(rng_.chance(0.5) ? "min(" : "max(", arg(t), ")"));
  };
  std::vector<NodePtr> aggs;
  agg_calls(&aggs);
  for (const auto& a : aggs) {
    std::string order = some_order();
    std::string fr;
    if (rng_.chance(0.3)) {
      fr = !order.empty() && rng_.chance(0.5) ? frame(rng_, "GROUPS")
                                              : rng_.pick(std::vector<std::string>{
                                                    " RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
                                                    " RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
                                                    " RANGE UNBOUNDED PRECEDING"});
    }
    peer.push_back({node(a, over(order, fr)), false});
    if (positional_ok) positional.push_back({node(a, over(total_order(), frame(rng_, "ROWS"))), true});
  }
  if (t == Type::kBigint) {
    peer.push_back({node(rng_.chance(0.5) ? "rank()" : "dense_rank()", over(some_order())), false});
    if (positional_ok) positional.push_back({node("row_number()", over(total_order())), true});
  }
  if (t == Type::kDouble) {
    peer.push_back({node(rng_.chance(0.5) ? "percent_rank()" : "cume_dist()", over(some_order())), false});
  }
  if (t == Type::kInt && positional_ok) {
    positional.push_back({node("ntile(", std::to_string(rng_.range(1, 4)), ")", over(total_order())), true});
  }
  if (positional_ok) {
    NodePtr v = arg(t);
    switch (rng_.range(0, 4)) {
      case 0:
      case 1: {
        const char* f = rng_.chance(0.5) ? "lag(" : "lead(";
        NodePtr call = rng_.chance(0.5) ? node(f, v, ")")
                                        : node(f, v, ", ", std::to_string(rng_.range(0, 3)), ", ", literal(t, false), ")");
        positional.push_back({node(call, over(total_order())), true});
        break;
      }
      case 2: {
        const char* f = rng_.chance(0.5) ? "first_value(" : "last_value(";
        positional.push_back({node(f, v, ")", over(total_order(), rng_.chance(0.5) ? frame(rng_, "ROWS") : "")), true});
        break;
      }
      default:
        positional.push_back({node("nth_value(", v, ", ", std::to_string(rng_.range(1, 3)), ")",
                                   over(total_order(), rng_.chance(0.5) ? frame(rng_, "ROWS") : "")),
                              true});
        break;
    }
  }
  const NodePtr simple = literal(t, false);
  if (!positional.empty() && (peer.empty() || rng_.chance(0.5))) {
    ++positional_windows_;
    return with_simpler(rng_.pick(positional).call, {simple});
  }
  if (peer.empty()) return leaf(t, Ctx{c.cols, c.outer, false, {}, c.qdepth, false});
  return with_simpler(rng_.pick(peer).call, {simple});
}

}  // namespace tandem::difftest
