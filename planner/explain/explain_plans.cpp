#include "planner/explain/explain_plans.hpp"

#include <set>

#include "compute/plan/window_text.hpp"

namespace tandem::planner {
namespace {

ExplainNode node(std::string op, std::string args = {}) {
  ExplainNode n;
  n.op = std::move(op);
  n.args = std::move(args);
  return n;
}

std::string list(const std::vector<ScalarExpr>& es, const char* sep = ", ") {
  std::string s;
  for (size_t i = 0; i < es.size(); ++i) s += (i ? sep : "") + print(es[i]);
  return s;
}

std::string columns(const std::vector<size_t>& cs) {
  std::string s;
  for (size_t i = 0; i < cs.size(); ++i) s += (i ? ", #" : "#") + std::to_string(cs[i]);
  return s;
}

std::string aggregate(const compute::AggregateExpr& a) {
  using compute::AggregateFunc;
  if (a.func == AggregateFunc::kCountAll) return "count(*)";
  std::string name;
  switch (a.func) {
    case AggregateFunc::kCount: name = "count"; break;
    case AggregateFunc::kMin: name = "min"; break;
    case AggregateFunc::kMax: name = "max"; break;
    case AggregateFunc::kStringAgg: name = "string_agg"; break;
    case AggregateFunc::kArrayAgg: name = "array_agg"; break;
    case AggregateFunc::kJsonbAgg: name = "jsonb_agg"; break;
    case AggregateFunc::kJsonbObjectAgg: name = "jsonb_object_agg"; break;
    default: name = "sum"; break;
  }
  std::string s = name + "(" + (a.distinct ? "distinct " : "") + print(a.expr);
  if (a.separator) s += ", " + print(*a.separator);
  for (std::size_t i = 0; i < a.order_by.size(); ++i) {
    const compute::AggregateOrder& o = a.order_by[i];
    s += (i ? ", " : " order_by=[") + print(o.expr) + (o.desc ? " desc" : " asc") +
         (o.nulls_last ? " nulls_last" : " nulls_first");
    if (i + 1 == a.order_by.size()) s += "]";
  }
  if (a.filter) s += " filter=" + print(*a.filter);
  return s + ")";
}

std::string aggregates(const std::vector<compute::AggregateExpr>& aggs) {
  std::string s;
  for (size_t i = 0; i < aggs.size(); ++i) s += (i ? ", " : "") + aggregate(aggs[i]);
  return s;
}

std::string reduce_args(const std::vector<ScalarExpr>& key, const std::vector<compute::AggregateExpr>& aggs) {
  std::string s;
  if (!key.empty()) s += "group_by=[" + list(key) + "]";
  if (!aggs.empty()) s += std::string(s.empty() ? "" : " ") + "aggregates=[" + aggregates(aggs) + "]";
  return s;
}

std::string order_by(const std::vector<compute::ColumnOrder>& order) {
  std::string s;
  for (size_t i = 0; i < order.size(); ++i) {
    const auto& o = order[i];
    s += (i ? ", #" : "#") + std::to_string(o.column) + (o.desc ? " desc" : " asc") +
         (o.nulls_last ? " nulls_last" : " nulls_first");
  }
  return s;
}

std::string topk_args(const std::vector<size_t>& group, const std::vector<compute::ColumnOrder>& order,
                      const std::optional<int64_t>& limit, int64_t offset) {
  std::vector<std::string> parts;
  if (!group.empty()) parts.push_back("group_by=[" + columns(group) + "]");
  if (!order.empty()) parts.push_back("order_by=[" + order_by(order) + "]");
  if (limit) parts.push_back("limit=" + std::to_string(*limit));
  if (offset != 0) parts.push_back("offset=" + std::to_string(offset));
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? " " : "") + parts[i];
  return s;
}

// "With" (the ctes) and "Return" (the body) print one above the other at
// the same level: a block node without a line of its own.
ExplainNode with_block(ExplainNode with, ExplainNode ret) {
  ExplainNode block;
  block.inputs.push_back(std::move(with));
  block.inputs.push_back(std::move(ret));
  return block;
}

const char* table_func(compute::TableFunc f) { return compute::table_func_name(f); }

std::vector<std::string> constant_rows(const std::vector<std::pair<Row, Diff>>& rows,
                                       const std::vector<ColumnType>& types) {
  std::vector<std::string> out;
  for (const auto& [row, diff] : rows) {
    std::string r = explain_row(row, types);
    out.push_back(diff == 1 ? "- " + r : "- (" + r + " x " + std::to_string(diff) + ")");
  }
  return out;
}

// ---- HIR

ExplainNode hir_node(const hir::Rel& rel);

ExplainNode hir_unary(std::string op, std::string args, const hir::Rel& input) {
  ExplainNode n = node(std::move(op), std::move(args));
  n.inputs.push_back(hir_node(input));
  return n;
}

ExplainNode hir_node(const hir::Rel& rel) {
  return std::visit(
      [](const auto& n) -> ExplainNode {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, hir::Get>) {
          return node("Get", n.name);
        } else if constexpr (std::is_same_v<T, hir::Constant>) {
          if (n.rows.empty()) return node("Constant", "<empty>");
          ExplainNode c = node("Constant");
          for (const auto& r : n.rows) c.details.push_back("- " + explain_row(r, n.types));
          return c;
        } else if constexpr (std::is_same_v<T, hir::Project>) {
          return hir_unary("Project", "(" + columns(n.columns) + ")", *n.input);
        } else if constexpr (std::is_same_v<T, hir::Map>) {
          return hir_unary("Map", "(" + list(n.exprs) + ")", *n.input);
        } else if constexpr (std::is_same_v<T, hir::Filter>) {
          return hir_unary("Filter", list(n.predicates, " AND "), *n.input);
        } else if constexpr (std::is_same_v<T, hir::Join>) {
          static constexpr const char* kKinds[] = {"InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin"};
          bool cross = n.kind == hir::JoinKind::kInner && n.on.is_literal() && !n.on.is_literal_null() &&
                       std::get<Literal>(n.on.node).datum().as_bool();
          ExplainNode j = cross ? node("CrossJoin") : node(kKinds[static_cast<int>(n.kind)], print(n.on));
          j.inputs.push_back(hir_node(*n.left));
          j.inputs.push_back(hir_node(*n.right));
          return j;
        } else if constexpr (std::is_same_v<T, hir::Reduce>) {
          return hir_unary("Reduce", reduce_args(n.group_key, n.aggregates), *n.input);
        } else if constexpr (std::is_same_v<T, hir::Distinct>) {
          return hir_unary("Distinct", "", *n.input);
        } else if constexpr (std::is_same_v<T, hir::Negate>) {
          return hir_unary("Negate", "", *n.input);
        } else if constexpr (std::is_same_v<T, hir::Threshold>) {
          return hir_unary("Threshold", "", *n.input);
        } else if constexpr (std::is_same_v<T, hir::Union>) {
          ExplainNode u = node("Union");
          for (const auto& i : n.inputs) u.inputs.push_back(hir_node(i));
          return u;
        } else if constexpr (std::is_same_v<T, hir::TopK>) {
          return hir_unary("TopK", topk_args(n.group_key, n.order, n.limit, n.offset), *n.input);
        } else if constexpr (std::is_same_v<T, hir::Window>) {
          return hir_unary("Window", compute::window_text(n.partition_by, n.order_by, n.funcs), *n.input);
        } else if constexpr (std::is_same_v<T, hir::FlatMap>) {
          return hir_unary("CallTable", std::string(table_func(n.func)) + "(" + list(n.args) + ")", *n.input);
        } else {
          static_assert(std::is_same_v<T, hir::Apply>);
          // The subqueries' values are appended after the input's columns.
          ExplainNode a = node("Apply");
          a.inputs.push_back(hir_node(*n.input));
          for (const auto& s : n.subqueries) {
            a.inputs.push_back(hir_unary(s.kind == hir::Subquery::Kind::kScalar ? "Select" : "Exists", "", *s.rel));
          }
          return a;
        }
      },
      rel.node);
}

// ---- MIR

class MirExplainer {
 public:
  explicit MirExplainer(const ReadNames* reads) : reads_(reads) {}

  ExplainNode visit(const mir::Rel& rel) {
    if (std::holds_alternative<mir::Let>(rel.node)) {
      // A chain of Lets prints as one With block.
      ExplainNode with = node("With");
      const mir::Rel* cur = &rel;
      while (auto* let = std::get_if<mir::Let>(&cur->node)) {
        ExplainNode cte = node("cte", "l" + std::to_string(let->id) + " =");
        cte.inputs.push_back(visit(*let->value));
        with.inputs.push_back(std::move(cte));
        cur = &*let->body;
      }
      ExplainNode ret = node("Return");
      ret.inputs.push_back(visit(*cur));
      return with_block(std::move(with), std::move(ret));
    }
    ExplainNode n = std::visit([&](const auto& x) { return line(x); }, rel.node);
    mir::for_each_child(rel, [&](const mir::Rel& c) { n.inputs.push_back(visit(c)); });
    return n;
  }

 private:
  ExplainNode line(const mir::Constant& n) {
    if (n.rows.empty()) return node("Constant", "<empty>");
    ExplainNode c = node("Constant");
    c.details = constant_rows(n.rows, n.types);
    return c;
  }
  ExplainNode line(const mir::Get& n) {
    if (reads_ == nullptr) return node("Get", n.name);
    auto via = reads_->read_through.find(n.id);
    if (via == reads_->read_through.end()) return node("ReadStorage", n.name);
    std::string index = reads_->indexes.at(via->second).name;
    std::string short_name = index.substr(index.rfind('.') + 1);
    return node("ReadIndex", "on=" + n.name + " " + short_name + "=[*** full scan ***]");
  }
  ExplainNode line(const mir::LocalGet& n) { return node("Get", "l" + std::to_string(n.id)); }
  ExplainNode line(const mir::Let&) { return node("With"); }  // handled in visit()
  ExplainNode line(const mir::Project& n) { return node("Project", "(" + columns(n.outputs) + ")"); }
  ExplainNode line(const mir::Map& n) { return node("Map", "(" + list(n.scalars) + ")"); }
  ExplainNode line(const mir::Filter& n) { return node("Filter", list(n.predicates, " AND ")); }
  ExplainNode line(const mir::Join& n) {
    if (n.equivalences.empty()) return node("CrossJoin");
    std::string on;
    for (size_t i = 0; i < n.equivalences.size(); ++i) on += (i ? " AND " : "") + list(n.equivalences[i], " = ");
    std::string args = "on=(" + on + ")";
    if (!n.order.empty()) args += " order=[" + columns(n.order) + "]";
    return node("Join", args);
  }
  ExplainNode line(const mir::Reduce& n) { return node("Reduce", reduce_args(n.group_key, n.aggregates)); }
  ExplainNode line(const mir::Distinct&) { return node("Distinct"); }
  ExplainNode line(const mir::Negate&) { return node("Negate"); }
  ExplainNode line(const mir::Threshold&) { return node("Threshold"); }
  ExplainNode line(const mir::Union&) { return node("Union"); }
  ExplainNode line(const mir::TopK& n) { return node("TopK", topk_args(n.group_key, n.order, n.limit, n.offset)); }
  ExplainNode line(const mir::Window& n) {
    return node("Window", compute::window_text(n.partition_by, n.order_by, n.funcs));
  }
  ExplainNode line(const mir::FlatMap& n) {
    return node("FlatMap", std::string(table_func(n.func)) + "(" + list(n.args) + ")");
  }

  const ReadNames* reads_;
};

// ---- LIR

class LirExplainer {
 public:
  LirExplainer(const compute::DataflowDescription& desc, const ReadNames& reads) : desc_(desc), reads_(reads) {}

  ExplainNode object(compute::GlobalId id) {
    // The objects `id` reads, transitively, print first as ctes.
    std::vector<const compute::BuildDesc*> needed;
    std::set<compute::GlobalId> seen;
    collect(id, &needed, &seen);
    const compute::BuildDesc* root = needed.back();
    needed.pop_back();
    for (size_t i = 0; i < needed.size(); ++i) {
      std::string name = "l";  // appended, not `"l" + ...`: GCC 12 warns falsely (-Wrestrict)
      name += std::to_string(i);
      cte_names_[needed[i]->id] = std::move(name);
    }
    if (needed.empty()) return visit(root->plan);
    ExplainNode with = node("With");
    for (const auto* b : needed) {
      ExplainNode cte = node("cte", cte_names_[b->id] + " =");
      cte.inputs.push_back(visit(b->plan));
      with.inputs.push_back(std::move(cte));
    }
    ExplainNode ret = node("Return");
    ret.inputs.push_back(visit(root->plan));
    return with_block(std::move(with), std::move(ret));
  }

 private:
  const compute::BuildDesc* find(compute::GlobalId id) const {
    for (const auto& b : desc_.objects_to_build) {
      if (b.id == id) return &b;
    }
    return nullptr;
  }

  // Post-order: dependencies before the objects that read them.
  void collect(compute::GlobalId id, std::vector<const compute::BuildDesc*>* out, std::set<compute::GlobalId>* seen) {
    if (!seen->insert(id).second) return;
    const compute::BuildDesc* b = find(id);
    if (b == nullptr) return;
    std::function<void(const compute::PlanNode&)> walk = [&](const compute::PlanNode& p) {
      std::visit(
          [&](const auto& n) {
            using T = std::decay_t<decltype(n)>;
            if constexpr (std::is_same_v<T, compute::Get>) {
              if (n.kind == compute::Get::Kind::kObject) collect(n.id, out, seen);
            } else if constexpr (std::is_same_v<T, compute::Join>) {
              walk(*n.lhs);
              walk(*n.rhs);
            } else if constexpr (std::is_same_v<T, compute::Union>) {
              for (const auto& i : n.inputs) walk(i);
            } else if constexpr (requires { n.input; }) {
              walk(*n.input);
            }
          },
          p.node);
    };
    walk(b->plan);
    out->push_back(b);
  }

  static ExplainNode op(std::string name, std::string args = {}) {
    ExplainNode n = node(std::move(name), std::move(args));
    n.arrow = true;
    return n;
  }

  ExplainNode visit(const compute::PlanNode& p) {
    return std::visit([&](const auto& n) { return line(n); }, p.node);
  }
  ExplainNode unary(ExplainNode n, const compute::PlanNode& input) {
    n.inputs.push_back(visit(input));
    return n;
  }

  ExplainNode line(const compute::Get& n) {
    switch (n.kind) {
      case compute::Get::Kind::kObject: {
        auto it = cte_names_.find(n.id);
        return op("Read", it != cte_names_.end() ? it->second : "t" + std::to_string(n.id));
      }
      case compute::Get::Kind::kIndex: {
        auto it = reads_.indexes.find(n.id);
        if (it == reads_.indexes.end()) return op("Indexed", "index " + std::to_string(n.id));
        auto on = reads_.collections.find(it->second.on);
        return op("Indexed", (on != reads_.collections.end() ? on->second : "?") + " (using " + it->second.name + ")");
      }
      case compute::Get::Kind::kSource:
      default: {
        auto it = reads_.collections.find(n.id);
        return op("Read", it != reads_.collections.end() ? it->second : "collection " + std::to_string(n.id));
      }
    }
  }
  ExplainNode line(const compute::Constant& n) {
    if (n.error) return op("Constant", "error: " + n.error->message());
    ExplainNode c = op("Constant", "(" + std::to_string(n.rows.size()) + " rows)");
    return c;
  }
  ExplainNode line(const compute::Mfp& n) {
    ExplainNode m = op("Map/Filter/Project");
    m.details = mfp_details(n.mfp);
    return unary(std::move(m), *n.input);
  }
  ExplainNode line(const compute::ArrangeBy& n) { return unary(op("Arrange", "(" + list(n.key) + ")"), *n.input); }
  ExplainNode line(const compute::Join& n) {
    ExplainNode j = op("Differential Join");
    j.details.push_back(n.lhs_key.empty() ? "Cross product"
                                          : "Keys: (" + list(n.lhs_key) + ") = (" + list(n.rhs_key) + ")");
    j.inputs.push_back(visit(*n.lhs));
    j.inputs.push_back(visit(*n.rhs));
    return j;
  }
  ExplainNode line(const compute::Reduce& n) {
    ExplainNode r = op("Reduce");
    if (!n.group_key.empty()) r.details.push_back("Group key: " + list(n.group_key));
    if (!n.aggregates.empty()) r.details.push_back("Aggregates: " + aggregates(n.aggregates));
    return unary(std::move(r), *n.input);
  }
  ExplainNode line(const compute::Distinct& n) { return unary(op("Distinct"), *n.input); }
  ExplainNode line(const compute::Threshold& n) { return unary(op("Threshold"), *n.input); }
  ExplainNode line(const compute::TopK& n) {
    ExplainNode t = op("TopK");
    if (!n.group_key.empty()) t.details.push_back("Group key: " + columns(n.group_key));
    if (!n.order.empty()) t.details.push_back("Order by: " + order_by(n.order));
    if (n.limit) t.details.push_back("Limit: " + std::to_string(*n.limit));
    if (n.offset != 0) t.details.push_back("Offset: " + std::to_string(n.offset));
    return unary(std::move(t), *n.input);
  }
  ExplainNode line(const compute::Union& n) {
    ExplainNode u = op("Union");
    for (const auto& i : n.inputs) u.inputs.push_back(visit(i));
    return u;
  }
  ExplainNode line(const compute::Negate& n) { return unary(op("Negate"), *n.input); }
  ExplainNode line(const compute::Window& n) {
    ExplainNode w = op("Window");
    if (!n.partition_by.empty()) w.details.push_back("Partition by: " + columns(n.partition_by));
    if (!n.order_by.empty()) w.details.push_back("Order by: " + order_by(n.order_by));
    w.details.push_back("Functions: " + compute::window_text({}, {}, n.funcs));
    return unary(std::move(w), *n.input);
  }
  ExplainNode line(const compute::FlatMap& n) {
    return unary(op("Table Function", std::string(table_func(n.func)) + "(" + list(n.args) + ")"), *n.input);
  }

  const compute::DataflowDescription& desc_;
  const ReadNames& reads_;
  std::map<compute::GlobalId, std::string> cte_names_;
};

}  // namespace

std::string explain_row(const Row& row, const std::vector<ColumnType>& types) {
  RowArena arena;
  auto datums = unpack(row.ref(), &arena);
  std::string s = "(";
  for (size_t i = 0; i < datums.size(); ++i) {
    ColumnType t = i < types.size() ? types[i] : ColumnType{TypeId::kText};
    s += (i ? ", " : "") + print(ScalarExpr::literal(datums[i], t));
  }
  return s + ")";
}

std::vector<std::string> mfp_details(const compute::MapFilterProject& mfp) {
  std::vector<std::string> out;
  bool identity_projection = mfp.projection.size() == mfp.input_arity;
  for (size_t i = 0; identity_projection && i < mfp.projection.size(); ++i) identity_projection = mfp.projection[i] == i;
  if (!identity_projection) out.push_back("Project: " + columns(mfp.projection));
  if (!mfp.predicates.empty()) out.push_back("Filter: " + list(mfp.predicates, " AND "));
  if (!mfp.expressions.empty()) out.push_back("Map: " + list(mfp.expressions));
  return out;
}

ExplainNode explain_hir(const hir::Rel& rel) { return hir_node(rel); }

ExplainNode explain_mir(const mir::Rel& rel, const ReadNames* reads) { return MirExplainer(reads).visit(rel); }

ExplainNode explain_lir(const compute::DataflowDescription& desc, compute::GlobalId object, const ReadNames& reads) {
  return LirExplainer(desc, reads).object(object);
}

}  // namespace tandem::planner
