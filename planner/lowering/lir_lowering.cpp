#include "planner/lowering/lir_lowering.hpp"

#include <map>

namespace tandem::planner {
namespace {

using compute::PlanNode;

ScalarExpr through(ScalarExpr e, const std::vector<size_t>& projection) {
  mir::remap_columns(e, [&](size_t i) { return projection.at(i); });
  return e;
}

class Lowerer {
 public:
  Lowerer(const LirBuilder& b, compute::DataflowDescription* d) : b_(b), desc_(d) {}

  Result<PlanNode> lower(const mir::Rel& rel) {
    return std::visit([&](const auto& n) { return visit(n); }, rel.node);
  }

 private:
  // Wraps `input` (of `arity` columns) in an Mfp, or returns its Mfp to extend.
  static compute::Mfp& as_mfp(PlanNode& node, size_t arity) {
    if (!std::holds_alternative<compute::Mfp>(node.node)) {
      node = PlanNode{compute::Mfp{std::move(node), compute::MapFilterProject::identity(arity)}};
    }
    return std::get<compute::Mfp>(node.node);
  }

  Result<PlanNode> visit(const mir::Constant& n) {
    compute::Constant c;
    for (const auto& [row, diff] : n.rows) c.rows.push_back({row, diff});
    return PlanNode{std::move(c)};
  }
  Result<PlanNode> visit(const mir::Get& n) {
    auto indexes = b_.catalog.indexes_on(n.id);
    if (!indexes.empty()) {
      compute::GlobalId idx = indexes.front().index_id;
      bool seen = false;
      for (const auto& i : desc_->index_imports) seen = seen || i.index_id == idx;
      if (!seen) desc_->index_imports.push_back({idx, indexes.front().key});
      return PlanNode{compute::Get{idx, compute::Get::Kind::kIndex}};
    }
    bool seen = false;
    for (const auto& s : desc_->source_imports) seen = seen || s.id == n.id;
    if (!seen) desc_->source_imports.push_back({n.id});
    return PlanNode{compute::Get{n.id, compute::Get::Kind::kSource}};
  }
  Result<PlanNode> visit(const mir::LocalGet& n) {
    return PlanNode{compute::Get{lets_.at(n.id), compute::Get::Kind::kObject}};
  }
  Result<PlanNode> visit(const mir::Let& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode value, lower(*n.value));
    compute::GlobalId id = b_.allocate_id();
    desc_->objects_to_build.push_back({id, std::move(value)});
    lets_[n.id] = id;
    return lower(*n.body);
  }
  Result<PlanNode> visit(const mir::Project& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    auto& m = as_mfp(in, mir::arity(*n.input)).mfp;
    std::vector<size_t> p;
    for (size_t o : n.outputs) p.push_back(m.projection.at(o));
    m.projection = std::move(p);
    if (m.is_identity()) return std::move(*std::get<compute::Mfp>(in.node).input);
    return in;
  }
  Result<PlanNode> visit(const mir::Map& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    auto& m = as_mfp(in, mir::arity(*n.input)).mfp;
    for (const auto& e : n.scalars) {
      ScalarExpr x = through(e, m.projection);
      if (auto* copy = std::get_if<ColumnRef>(&x.node)) {
        m.projection.push_back(copy->index);  // a column copy needs no evaluation
        continue;
      }
      m.expressions.push_back(std::move(x));
      m.projection.push_back(m.input_arity + m.expressions.size() - 1);
    }
    return in;
  }
  Result<PlanNode> visit(const mir::Filter& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    auto& m = as_mfp(in, mir::arity(*n.input)).mfp;
    for (const auto& p : n.predicates) m.predicates.push_back(through(p, m.projection));
    return in;
  }
  Result<PlanNode> visit(const mir::Join& n) {
    std::vector<size_t> order = n.order;
    if (order.empty()) {
      for (size_t i = 0; i < n.inputs.size(); ++i) order.push_back(i);
    }
    std::vector<size_t> offsets, arities;
    size_t total = 0;
    for (const auto& i : n.inputs) {
      offsets.push_back(total);
      arities.push_back(mir::arity(i));
      total += arities.back();
    }
    // position[c]: where original column c sits in the joined row so far.
    std::vector<size_t> position(total, SIZE_MAX);
    auto available = [&](const ScalarExpr& e) {
      bool ok = true;
      mir::remap_columns(const_cast<ScalarExpr&>(e), [&](size_t c) {
        ok = ok && position[c] != SIZE_MAX;
        return c;
      });
      return ok;
    };
    auto relocate = [&](ScalarExpr e) {
      mir::remap_columns(e, [&](size_t c) { return position[c]; });
      return e;
    };
    std::vector<std::vector<bool>> used(n.equivalences.size());
    for (size_t k = 0; k < n.equivalences.size(); ++k) used[k].assign(n.equivalences[k].size(), false);
    TANDEM_ASSIGN_OR_RETURN(PlanNode acc, lower(n.inputs[order[0]]));
    size_t width = 0;
    for (size_t c = 0; c < arities[order[0]]; ++c) position[offsets[order[0]] + c] = width++;
    for (size_t step = 1; step < order.size(); ++step) {
      size_t in = order[step];
      TANDEM_ASSIGN_OR_RETURN(PlanNode rhs, lower(n.inputs[in]));
      compute::Join j{std::move(acc), std::move(rhs), {}, {}};
      for (size_t k = 0; k < n.equivalences.size(); ++k) {
        const auto& cls = n.equivalences[k];
        std::optional<size_t> l, r;
        for (size_t m = 0; m < cls.size(); ++m) {
          if (!l && available(cls[m])) l = m;
          bool in_rhs = true;
          ScalarExpr probe = cls[m];
          mir::remap_columns(probe, [&](size_t c) {
            in_rhs = in_rhs && c >= offsets[in] && c < offsets[in] + arities[in];
            return c;
          });
          if (!r && in_rhs) r = m;
        }
        if (l && r) {
          j.lhs_key.push_back(relocate(cls[*l]));
          j.rhs_key.push_back(mir::shift_columns(cls[*r], -static_cast<int64_t>(offsets[in])));
          used[k][*l] = used[k][*r] = true;
        }
      }
      acc = PlanNode{std::move(j)};
      for (size_t c = 0; c < arities[in]; ++c) position[offsets[in] + c] = width++;
    }
    // Remaining equalities are filters; then restore the input order.
    auto& m = as_mfp(acc, total).mfp;
    for (size_t k = 0; k < n.equivalences.size(); ++k) {
      const auto& cls = n.equivalences[k];
      for (size_t x = 1; x < cls.size(); ++x) {
        if (used[k][0] && used[k][x]) continue;
        ScalarExpr eq = ScalarExpr::binary(BinaryFunc::kEq, relocate(cls[0]), relocate(cls[x]),
                                           ColumnType{TypeId::kBool, -1, true});
        m.predicates.push_back(std::move(eq));
      }
    }
    m.projection.clear();
    for (size_t c = 0; c < total; ++c) m.projection.push_back(position[c]);
    if (m.is_identity()) return std::move(*std::get<compute::Mfp>(acc.node).input);
    return acc;
  }
  Result<PlanNode> visit(const mir::Reduce& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    return PlanNode{compute::Reduce{std::move(in), n.group_key, n.aggregates}};
  }
  Result<PlanNode> visit(const mir::Distinct& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    return PlanNode{compute::Distinct{std::move(in)}};
  }
  Result<PlanNode> visit(const mir::Negate& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    return PlanNode{compute::Negate{std::move(in)}};
  }
  Result<PlanNode> visit(const mir::Threshold& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    return PlanNode{compute::Threshold{std::move(in)}};
  }
  Result<PlanNode> visit(const mir::Union& n) {
    compute::Union u;
    for (const auto& i : n.inputs) {
      TANDEM_ASSIGN_OR_RETURN(PlanNode p, lower(i));
      u.inputs.push_back(std::move(p));
    }
    return PlanNode{std::move(u)};
  }
  Result<PlanNode> visit(const mir::TopK& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    return PlanNode{compute::TopK{std::move(in), n.group_key, n.order, n.limit, n.offset}};
  }
  Result<PlanNode> visit(const mir::Window& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    return PlanNode{compute::Window{std::move(in), n.partition_by, n.order_by, n.funcs}};
  }
  Result<PlanNode> visit(const mir::FlatMap& n) {
    TANDEM_ASSIGN_OR_RETURN(PlanNode in, lower(*n.input));
    return PlanNode{compute::FlatMap{std::move(in), n.func, n.args}};
  }

  const LirBuilder& b_;
  compute::DataflowDescription* desc_;
  std::map<uint64_t, compute::GlobalId> lets_;
};

}  // namespace

Result<compute::GlobalId> lower_to_lir(const mir::Rel& rel, const LirBuilder& builder,
                                       compute::DataflowDescription* desc) {
  Lowerer l(builder, desc);
  TANDEM_ASSIGN_OR_RETURN(PlanNode plan, l.lower(rel));
  compute::GlobalId id = builder.allocate_id();
  desc->objects_to_build.push_back({id, std::move(plan)});
  return id;
}

}  // namespace tandem::planner
