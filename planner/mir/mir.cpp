#include "planner/mir/mir.hpp"

#include <algorithm>
#include <set>

#include "compute/plan/window_text.hpp"

namespace tandem::planner::mir {

using compute::AggregateFunc;

ColumnType aggregate_type(const compute::AggregateExpr& agg) {
  switch (agg.func) {
    case AggregateFunc::kCountAll:
    case AggregateFunc::kCount: return ColumnType{TypeId::kInt8, -1, false};
    case AggregateFunc::kSumInt: return ColumnType{TypeId::kInt8, -1, true};
    case AggregateFunc::kSumInt8:
    case AggregateFunc::kSumNumeric: return ColumnType{TypeId::kNumeric, -1, true};
    case AggregateFunc::kSumFloat: return ColumnType{TypeId::kFloat8, -1, true};
    case AggregateFunc::kMin:
    case AggregateFunc::kMax: {
      ColumnType t = agg.expr.type();
      t.nullable = true;
      return t;
    }
    case AggregateFunc::kStringAgg: return ColumnType{TypeId::kText, -1, true};
    case AggregateFunc::kArrayAgg: return ColumnType{array_type_of(agg.expr.type().id), agg.expr.type().typmod, true};
    case AggregateFunc::kJsonbAgg:
    case AggregateFunc::kJsonbObjectAgg: return ColumnType{TypeId::kJsonb, -1, true};
  }
  return ColumnType{};
}

namespace {

// Columns a predicate proves non-NULL: `x IS NOT NULL`, and the column
// arguments of strict calls (a strict predicate over NULL is NULL: dropped).
void non_null_columns(const ScalarExpr& p, std::set<size_t>* out) {
  if (auto* u = std::get_if<CallUnary>(&p.node)) {
    if (u->func == UnaryFunc::kIsNotNull || func_is_strict(u->func)) {
      if (auto* c = std::get_if<ColumnRef>(&u->arg->node)) out->insert(c->index);
      if (func_is_strict(u->func)) non_null_columns(*u->arg, out);
    }
  } else if (auto* b = std::get_if<CallBinary>(&p.node)) {
    if (b->func == BinaryFunc::kAnd) {
      non_null_columns(*b->lhs, out);
      non_null_columns(*b->rhs, out);
    } else if (func_is_strict(b->func)) {
      for (const ScalarExpr* side : {&*b->lhs, &*b->rhs}) {
        if (auto* c = std::get_if<ColumnRef>(&side->node)) out->insert(c->index);
        non_null_columns(*side, out);
      }
    }
  }
}

}  // namespace

std::vector<ColumnType> union_types(const std::vector<std::vector<ColumnType>>& inputs) {
  std::vector<ColumnType> out = inputs.at(0);
  for (size_t i = 1; i < inputs.size(); ++i) {
    for (size_t c = 0; c < out.size(); ++c) out[c].nullable = out[c].nullable || inputs[i][c].nullable;
  }
  return out;
}

std::vector<ColumnType> table_func_types(compute::TableFunc func, const std::vector<ScalarExpr>& args) {
  using F = compute::TableFunc;
  const ColumnType text{TypeId::kText, -1, true};
  const ColumnType jsonb{TypeId::kJsonb, -1, false};
  switch (func) {
    case F::kUnnest: return {array_element_column(args.at(0).type())};
    case F::kJsonbEach: return {ColumnType{TypeId::kText, -1, false}, jsonb};
    case F::kJsonbEachText: return {ColumnType{TypeId::kText, -1, false}, text};
    case F::kJsonbArrayElements: return {jsonb};
    case F::kJsonbArrayElementsText: return {text};
    case F::kJsonbObjectKeys: return {ColumnType{TypeId::kText, -1, false}};
    case F::kGenerateSeriesInt4: return {ColumnType{TypeId::kInt4, -1, false}};
    case F::kGenerateSeriesInt8: return {ColumnType{TypeId::kInt8, -1, false}};
  }
  return {};
}

std::vector<ColumnType> column_types(const Rel& rel) {
  return std::visit(
      [](const auto& n) -> std::vector<ColumnType> {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Constant> || std::is_same_v<T, Get> || std::is_same_v<T, LocalGet>) {
          return n.types;
        } else if constexpr (std::is_same_v<T, Let>) {
          return column_types(*n.body);
        } else if constexpr (std::is_same_v<T, Project>) {
          auto in = column_types(*n.input);
          std::vector<ColumnType> out;
          for (size_t c : n.outputs) out.push_back(in.at(c));
          return out;
        } else if constexpr (std::is_same_v<T, Map>) {
          auto out = column_types(*n.input);
          for (const auto& e : n.scalars) out.push_back(e.type());
          return out;
        } else if constexpr (std::is_same_v<T, Filter>) {
          auto out = column_types(*n.input);
          std::set<size_t> nn;
          for (const auto& p : n.predicates) non_null_columns(p, &nn);
          for (size_t c : nn) {
            if (c < out.size()) out[c].nullable = false;
          }
          return out;
        } else if constexpr (std::is_same_v<T, Join>) {
          std::vector<ColumnType> out;
          for (const auto& i : n.inputs) {
            auto t = column_types(i);
            out.insert(out.end(), t.begin(), t.end());
          }
          for (const auto& cls : n.equivalences) {
            for (const auto& e : cls) {
              if (auto* c = std::get_if<ColumnRef>(&e.node)) out.at(c->index).nullable = false;
            }
          }
          return out;
        } else if constexpr (std::is_same_v<T, Reduce>) {
          std::vector<ColumnType> out;
          for (const auto& k : n.group_key) out.push_back(k.type());
          for (const auto& a : n.aggregates) out.push_back(aggregate_type(a));
          return out;
        } else if constexpr (std::is_same_v<T, Union>) {
          std::vector<std::vector<ColumnType>> inputs;
          for (const auto& in : n.inputs) inputs.push_back(column_types(in));
          return union_types(inputs);
        } else if constexpr (std::is_same_v<T, FlatMap>) {
          auto out = column_types(*n.input);
          for (const ColumnType& t : table_func_types(n.func, n.args)) out.push_back(t);
          return out;
        } else if constexpr (std::is_same_v<T, Window>) {
          auto out = column_types(*n.input);
          for (const auto& f : n.funcs) out.push_back(f.type);
          return out;
        } else {
          return column_types(*n.input);
        }
      },
      rel.node);
}

size_t arity(const Rel& rel) { return column_types(rel).size(); }

namespace {

void add_key(std::vector<std::vector<size_t>>* keys, std::vector<size_t> key) {
  std::sort(key.begin(), key.end());
  key.erase(std::unique(key.begin(), key.end()), key.end());
  if (std::find(keys->begin(), keys->end(), key) == keys->end()) keys->push_back(std::move(key));
}

}  // namespace

std::vector<std::vector<size_t>> unique_keys(const Rel& rel) {
  std::vector<std::vector<size_t>> out;
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Get>) {
          out = n.keys;
        } else if constexpr (std::is_same_v<T, Constant>) {
          if (n.rows.size() <= 1 && (n.rows.empty() || n.rows[0].second == 1)) add_key(&out, {});
        } else if constexpr (std::is_same_v<T, Let>) {
          out = unique_keys(*n.body);
        } else if constexpr (std::is_same_v<T, Project>) {
          for (const auto& key : unique_keys(*n.input)) {
            std::vector<size_t> mapped;
            bool ok = true;
            for (size_t c : key) {
              auto it = std::find(n.outputs.begin(), n.outputs.end(), c);
              if (it == n.outputs.end()) {
                ok = false;
                break;
              }
              mapped.push_back(static_cast<size_t>(it - n.outputs.begin()));
            }
            if (ok) add_key(&out, std::move(mapped));
          }
        } else if constexpr (std::is_same_v<T, Map> || std::is_same_v<T, Filter>) {
          out = unique_keys(*n.input);
        } else if constexpr (std::is_same_v<T, Reduce>) {
          std::vector<size_t> key;
          for (size_t i = 0; i < n.group_key.size(); ++i) key.push_back(i);
          add_key(&out, std::move(key));
        } else if constexpr (std::is_same_v<T, Distinct>) {
          std::vector<size_t> key;
          for (size_t i = 0, a = arity(*n.input); i < a; ++i) key.push_back(i);
          add_key(&out, std::move(key));
        } else if constexpr (std::is_same_v<T, TopK>) {
          out = unique_keys(*n.input);
          if (n.limit && *n.limit <= 1) add_key(&out, n.group_key);
        } else if constexpr (std::is_same_v<T, Threshold> || std::is_same_v<T, Window>) {
          out = unique_keys(*n.input);
        } else if constexpr (std::is_same_v<T, Join>) {
          // The union of one key per input is a key (first key of each).
          std::vector<size_t> key;
          size_t offset = 0;
          for (const auto& i : n.inputs) {
            auto keys = unique_keys(i);
            if (keys.empty()) return;
            for (size_t c : keys.front()) key.push_back(c + offset);
            offset += arity(i);
          }
          add_key(&out, std::move(key));
        }
      },
      rel.node);
  return out;
}

Rel unit() { return Rel{Constant{{{Row(), 1}}, {}}}; }
Rel empty(std::vector<ColumnType> types) { return Rel{Constant{{}, std::move(types)}}; }
bool is_unit(const Rel& rel) {
  auto* c = std::get_if<Constant>(&rel.node);
  return c && c->types.empty() && c->rows.size() == 1 && c->rows[0].second == 1;
}
bool is_empty_constant(const Rel& rel) {
  auto* c = std::get_if<Constant>(&rel.node);
  return c && c->rows.empty();
}

Rel project(Rel input, std::vector<size_t> outputs) {
  size_t a = arity(input);
  bool identity = outputs.size() == a;
  for (size_t i = 0; identity && i < a; ++i) identity = outputs[i] == i;
  if (identity) return input;
  return Rel{Project{std::move(input), std::move(outputs)}};
}
Rel map(Rel input, std::vector<ScalarExpr> scalars) {
  if (scalars.empty()) return input;
  return Rel{Map{std::move(input), std::move(scalars)}};
}
Rel filter(Rel input, std::vector<ScalarExpr> predicates) {
  if (predicates.empty()) return input;
  return Rel{Filter{std::move(input), std::move(predicates)}};
}
Rel negate(Rel input) { return Rel{Negate{std::move(input)}}; }
Rel distinct(Rel input) { return Rel{Distinct{std::move(input)}}; }
Rel union_all(std::vector<Rel> inputs) {
  if (inputs.size() == 1) return std::move(inputs[0]);
  return Rel{Union{std::move(inputs)}};
}
Rel join(Rel lhs, Rel rhs, const std::vector<std::pair<ScalarExpr, ScalarExpr>>& equal) {
  int64_t la = static_cast<int64_t>(arity(lhs));
  Join j;
  for (const auto& [l, r] : equal) j.equivalences.push_back({l, shift_columns(r, la)});
  j.inputs.push_back(std::move(lhs));
  j.inputs.push_back(std::move(rhs));
  return Rel{std::move(j)};
}

ScalarExpr shift_columns(ScalarExpr e, int64_t delta) {
  if (delta != 0) remap_columns(e, [&](size_t i) { return static_cast<size_t>(static_cast<int64_t>(i) + delta); });
  return e;
}

namespace {

std::string join_exprs(const std::vector<ScalarExpr>& es) {
  std::string s;
  for (size_t i = 0; i < es.size(); ++i) s += (i ? ", " : "") + print(es[i]);
  return s;
}
std::string join_cols(const std::vector<size_t>& cs) {
  std::string s;
  for (size_t i = 0; i < cs.size(); ++i) s += (i ? ", #" : "#") + std::to_string(cs[i]);
  return s;
}

}  // namespace

std::string explain(const Rel& rel, int indent) {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  std::string line = std::visit(
      [](const auto& n) -> std::string {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Constant>) {
          return n.rows.empty() ? "Constant <empty>" : "Constant (" + std::to_string(n.rows.size()) + " rows)";
        } else if constexpr (std::is_same_v<T, Get>) {
          return "Get " + n.name;
        } else if constexpr (std::is_same_v<T, LocalGet>) {
          return "Get l" + std::to_string(n.id);
        } else if constexpr (std::is_same_v<T, Let>) {
          return "With l" + std::to_string(n.id);
        } else if constexpr (std::is_same_v<T, Project>) {
          return "Project (" + join_cols(n.outputs) + ")";
        } else if constexpr (std::is_same_v<T, Map>) {
          return "Map (" + join_exprs(n.scalars) + ")";
        } else if constexpr (std::is_same_v<T, Filter>) {
          std::string s = "Filter ";
          for (size_t i = 0; i < n.predicates.size(); ++i) s += (i ? " AND " : "") + print(n.predicates[i]);
          return s;
        } else if constexpr (std::is_same_v<T, Join>) {
          std::string s = n.equivalences.empty() ? "CrossJoin" : "Join on=(";
          for (size_t i = 0; i < n.equivalences.size(); ++i) {
            if (i) s += " AND ";
            for (size_t j = 0; j < n.equivalences[i].size(); ++j) s += (j ? " = " : "") + print(n.equivalences[i][j]);
          }
          if (!n.equivalences.empty()) s += ")";
          if (!n.order.empty()) s += " order=" + join_cols(n.order);
          return s;
        } else if constexpr (std::is_same_v<T, Reduce>) {
          std::string s = "Reduce";
          if (!n.group_key.empty()) s += " group_by=[" + join_exprs(n.group_key) + "]";
          s += " aggregates=[";
          static constexpr const char* kNames[] = {"count(*)", "count", "sum", "sum", "sum", "sum",
                                                   "min",      "max",   "string_agg", "array_agg"};
          static_assert(std::size(kNames) == static_cast<size_t>(AggregateFunc::kArrayAgg) + 1);
          for (size_t i = 0; i < n.aggregates.size(); ++i) {
            const auto& a = n.aggregates[i];
            s += (i ? ", " : "") + std::string(kNames[static_cast<int>(a.func)]);
            if (a.func != AggregateFunc::kCountAll) s += std::string("(") + (a.distinct ? "distinct " : "") + print(a.expr) + ")";
          }
          return s + "]";
        } else if constexpr (std::is_same_v<T, Distinct>) {
          return "Distinct";
        } else if constexpr (std::is_same_v<T, Negate>) {
          return "Negate";
        } else if constexpr (std::is_same_v<T, Threshold>) {
          return "Threshold";
        } else if constexpr (std::is_same_v<T, Union>) {
          return "Union";
        } else if constexpr (std::is_same_v<T, TopK>) {
          std::string s = "TopK";
          if (!n.group_key.empty()) s += " group_by=[" + join_cols(n.group_key) + "]";
          if (!n.order.empty()) {
            s += " order_by=[";
            for (size_t i = 0; i < n.order.size(); ++i) {
              s += (i ? ", #" : "#") + std::to_string(n.order[i].column) + (n.order[i].desc ? " desc" : " asc");
            }
            s += "]";
          }
          if (n.limit) s += " limit=" + std::to_string(*n.limit);
          if (n.offset) s += " offset=" + std::to_string(n.offset);
          return s;
        } else if constexpr (std::is_same_v<T, Window>) {
          return "Window " + compute::window_text(n.partition_by, n.order_by, n.funcs);
        } else {
          return std::string("FlatMap ") + compute::table_func_name(n.func) + "(" + join_exprs(n.args) + ")";
        }
      },
      rel.node);
  std::string out = pad + line + "\n";
  for_each_child(rel, [&](const Rel& c) { out += explain(c, indent + 1); });
  return out;
}

}  // namespace tandem::planner::mir
