#include "compute/testing/reference_eval.hpp"

#include <catch2/catch.hpp>

#include "common/eval.hpp"
#include "compute/dataflow/error_row.hpp"
#include "compute/dataflow/group_logic.hpp"
#include "compute/dataflow/mfp_eval.hpp"
#include "compute/dataflow/window_logic.hpp"

namespace tandem::compute::testing {
namespace {

void add(Multiset& m, const std::string& row, Diff d) {
  if (d == 0) return;
  auto [it, inserted] = m.emplace(row, d);
  if (!inserted && (it->second += d) == 0) m.erase(it);
}

void merge_errs(RefCollection& into, const RefCollection& from) {
  for (const auto& [row, d] : from.errs) add(into.errs, row, d);
}

// Packs key values like KeyByOp; nullopt key = the whole row.
Result<std::string> key_of(const std::string& row, const std::optional<std::vector<ScalarExpr>>& key,
                           bool* has_null) {
  RowArena arena;
  EvalContext ctx;
  const std::vector<Datum> datums = unpack(RowRef(row), &arena);
  Row out;
  RowPacker packer(&out);
  packer.set_normalize_numeric(true);
  *has_null = false;
  if (!key) {
    packer.push_all(datums);
    return std::string(out.bytes());
  }
  for (const ScalarExpr& e : *key) {
    auto v = eval(e, datums, ctx);
    if (!v.ok()) return v.status();
    *has_null |= v->is_null();
    packer.push(*v);
  }
  return std::string(out.bytes());
}

struct Keyed {
  std::map<std::string, std::map<std::string, Diff>> groups;  // key -> val -> mult
};

Keyed key_by(const RefCollection& in, const std::optional<std::vector<ScalarExpr>>& key, bool skip_nulls,
             bool val_is_row, RefCollection& out) {
  Keyed keyed;
  for (const auto& [row, d] : in.oks) {
    bool has_null = false;
    auto k = key_of(row, key, &has_null);
    if (!k.ok()) {
      add(out.errs, std::string(error_row(k.status()).bytes()), d);
      continue;
    }
    if (has_null && skip_nulls) continue;
    keyed.groups[*k][val_is_row ? row : std::string()] += d;
  }
  return keyed;
}

void apply_logic(const Keyed& keyed, GroupLogic& logic, RefCollection& out) {
  for (const auto& [key, vals] : keyed.groups) {
    GroupContents group;
    for (const auto& [val, d] : vals)
      if (d != 0) group.emplace_back(val, d);
    if (group.empty()) continue;
    GroupResult result;
    logic.apply(RowRef(key), group, &result);
    for (const auto& [row, d] : result.oks) add(out.oks, std::string(row.bytes()), d);
    for (const auto& [row, d] : result.errs) add(out.errs, std::string(row.bytes()), d);
  }
}

std::vector<ScalarExpr> columns(const std::vector<std::size_t>& cols) {
  std::vector<ScalarExpr> key;
  for (const std::size_t c : cols) key.push_back(ScalarExpr::column(c, ColumnType{}));
  return key;
}

struct Evaluator {
  const RefInputs& inputs;

  RefCollection operator()(const Get& g) {
    if (g.kind == Get::Kind::kSource) return RefCollection{inputs.sources.at(g.id), {}};
    return inputs.objects.at(g.id);
  }
  RefCollection operator()(const Constant& c) {
    RefCollection out;
    if (c.error) {
      add(out.errs, std::string(error_row(*c.error).bytes()), 1);
    } else {
      for (const auto& e : c.rows) add(out.oks, std::string(e.row.bytes()), e.diff);
    }
    return out;
  }
  RefCollection operator()(const Mfp& n) {
    RefCollection in = run(*n.input);
    RefCollection out;
    merge_errs(out, in);
    MfpEvaluator mfp(n.mfp);
    EvalContext ctx;
    Row row;
    for (const auto& [r, d] : in.oks) {
      auto kept = mfp.evaluate_row(RowRef(r), ctx, &row);
      if (!kept.ok()) {
        add(out.errs, std::string(error_row(kept.status()).bytes()), d);
      } else if (*kept) {
        add(out.oks, std::string(row.bytes()), d);
      }
    }
    return out;
  }
  RefCollection operator()(const ArrangeBy& n) {
    RefCollection in = run(*n.input);
    RefCollection out;
    merge_errs(out, in);
    // Rows whose key fails to evaluate leave the data (their error stays).
    Keyed keyed = key_by(in, n.key, false, true, out);
    for (const auto& [key, vals] : keyed.groups)
      for (const auto& [row, d] : vals) add(out.oks, row, d);
    return out;
  }
  RefCollection operator()(const Join& n) {
    RefCollection lhs = run(*n.lhs);
    RefCollection rhs = run(*n.rhs);
    RefCollection out;
    merge_errs(out, lhs);
    merge_errs(out, rhs);
    Keyed a = key_by(lhs, n.lhs_key, true, true, out);
    Keyed b = key_by(rhs, n.rhs_key, true, true, out);
    for (const auto& [key, avals] : a.groups) {
      auto it = b.groups.find(key);
      if (it == b.groups.end()) continue;
      for (const auto& [va, da] : avals)
        for (const auto& [vb, db] : it->second) add(out.oks, va + vb, da * db);
    }
    return out;
  }
  RefCollection operator()(const Reduce& n) {
    RefCollection in = run(*n.input);
    RefCollection out;
    merge_errs(out, in);
    Keyed keyed = key_by(in, n.group_key, false, true, out);
    apply_logic(keyed, *make_reduce_logic(n.aggregates), out);
    return out;
  }
  RefCollection operator()(const Distinct& n) { return grouped(*n.input, *make_distinct_logic()); }
  RefCollection operator()(const Threshold& n) { return grouped(*n.input, *make_threshold_logic()); }
  RefCollection operator()(const TopK& n) {
    RefCollection in = run(*n.input);
    RefCollection out;
    merge_errs(out, in);
    Keyed keyed = key_by(in, columns(n.group_key), false, true, out);
    apply_logic(keyed, *make_topk_logic(n.order, n.limit, n.offset), out);
    return out;
  }
  RefCollection operator()(const Window& n) {
    RefCollection in = run(*n.input);
    RefCollection out;
    merge_errs(out, in);
    Keyed keyed = key_by(in, columns(n.partition_by), false, true, out);
    apply_logic(keyed, *make_window_logic(n.order_by, n.funcs), out);
    return out;
  }
  RefCollection operator()(const Union& n) {
    RefCollection out;
    for (const PlanNode& p : n.inputs) {
      RefCollection in = run(p);
      merge_errs(out, in);
      for (const auto& [r, d] : in.oks) add(out.oks, r, d);
    }
    return out;
  }
  RefCollection operator()(const Negate& n) {
    RefCollection in = run(*n.input);
    for (auto& [r, d] : in.oks) d = -d;
    return in;
  }
  RefCollection operator()(const FlatMap& n) {
    RefCollection in = run(*n.input);
    RefCollection out;
    merge_errs(out, in);
    for (const auto& [r, d] : in.oks) {
      RowArena arena;
      EvalContext ctx;
      const std::vector<Datum> datums = unpack(RowRef(r), &arena);
      std::vector<int64_t> args;
      bool null = false;
      for (const ScalarExpr& e : n.args) {
        auto v = eval(e, datums, ctx);
        REQUIRE(v.ok());
        if (v->is_null()) null = true;
        else if (n.func == TableFunc::kUnnest) {
          for (const Datum& element : unpack(RowRef(v->as_array()), &arena)) {
            Row row(r);
            RowPacker(&row).push(element);
            add(out.oks, std::string(row.bytes()), d);
          }
        } else args.push_back(v->as_integer());
      }
      if (null || n.func == TableFunc::kUnnest) continue;
      const int64_t step = args.size() > 2 ? args[2] : 1;
      if (step == 0) {
        add(out.errs, std::string(error_row(Status::error(sqlstate::kInvalidParameterValue,
                                                          "step size cannot equal zero")).bytes()), d);
        continue;
      }
      for (int64_t v = args[0]; step > 0 ? v <= args[1] : v >= args[1]; v += step) {
        Row row(r);
        RowPacker(&row).push(n.func == TableFunc::kGenerateSeriesInt4 ? Datum::from_int32(static_cast<int32_t>(v))
                                                                      : Datum::from_int64(v));
        add(out.oks, std::string(row.bytes()), d);
      }
    }
    return out;
  }

  RefCollection grouped(const PlanNode& input, GroupLogic& logic) {
    RefCollection in = run(input);
    RefCollection out;
    merge_errs(out, in);
    Keyed keyed = key_by(in, std::nullopt, false, false, out);
    apply_logic(keyed, logic, out);
    return out;
  }

  RefCollection run(const PlanNode& p) { return std::visit(*this, p.node); }
};

}  // namespace

RefCollection reference_eval(const PlanNode& plan, const RefInputs& inputs) {
  return Evaluator{inputs}.run(plan);
}

}  // namespace tandem::compute::testing

namespace tandem::compute {
namespace {

TEST_CASE("reference evaluator: join and negate on tiny inputs", "[reference]") {
  auto i4 = [](int v) { return Datum::from_int32(v); };
  auto row = [&](int a, int b) { return std::string(Row::pack(std::vector<Datum>{i4(a), i4(b)}).bytes()); };
  testing::RefInputs in;
  in.sources[1] = {{row(1, 10), 2}, {row(2, 20), 1}};
  in.sources[2] = {{row(1, 7), 1}};
  const ColumnType int4{TypeId::kInt4};
  PlanNode join{Join{PlanNode{Get{1}}, PlanNode{Get{2}}, {ScalarExpr::column(0, int4)}, {ScalarExpr::column(0, int4)}}};
  const auto out = testing::reference_eval(join, in);
  REQUIRE(out.oks.size() == 1);
  CHECK(out.oks.begin()->first == row(1, 10) + row(1, 7));
  CHECK(out.oks.begin()->second == 2);
  const auto neg = testing::reference_eval(PlanNode{Negate{PlanNode{Get{2}}}}, in);
  CHECK(neg.oks.at(row(1, 7)) == -1);
}

}  // namespace
}  // namespace tandem::compute
