#include "compute/dataflow/reduce_collation.hpp"

#include "compute/dataflow/accumulable_reduce_op.hpp"
#include "compute/dataflow/error_row.hpp"

namespace tandem::compute {
namespace {

using Kind = ReducePart::Kind;

bool is_minmax(const AggregateExpr& agg) {
  return agg.func == AggregateFunc::kMin || agg.func == AggregateFunc::kMax;
}

bool is_distinct_accumulable(const AggregateExpr& agg) {
  return agg.distinct && (agg.func == AggregateFunc::kCount || agg.func == AggregateFunc::kSumInt ||
                          agg.func == AggregateFunc::kSumInt8);
}

Kind kind_of(const AggregateExpr& agg, bool accumulable_enabled, bool hierarchical_enabled) {
  if (accumulable_enabled && is_accumulable({agg})) return Kind::kAccumulable;
  if (accumulable_enabled && is_distinct_accumulable(agg)) return Kind::kDistinct;
  if (hierarchical_enabled && is_minmax(agg)) return Kind::kHierarchical;
  return Kind::kBasic;
}

class CollationLogic final : public GroupLogic {
 public:
  CollationLogic(std::vector<ReducePart> parts, std::size_t aggregate_count)
      : parts_(std::move(parts)), slots_(aggregate_count) {}

  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    if (group.size() < parts_.size()) return;  // a part failed: its error is reported
    arena_.clear();
    std::size_t expected = 0;
    for (const auto& [val, diff] : group) {
      unpack_into(RowRef(val), &datums_, &arena_);
      const auto part = static_cast<std::size_t>(datums_.empty() ? -1 : datums_[0].as_integer());
      if (diff != 1 || part != expected || part >= parts_.size() ||
          datums_.size() != 1 + parts_[part].positions.size()) {
        out->errs.emplace_back(error_row(Status::error(sqlstate::kInternalError,
                                                       "invalid data in dataflow: reduce parts do not collate")),
                               1);
        return;
      }
      for (std::size_t i = 0; i < parts_[part].positions.size(); ++i) slots_[parts_[part].positions[i]] = datums_[1 + i];
      ++expected;
    }
    Row row(std::string(key.bytes()));
    RowPacker packer(&row);
    for (const Datum& d : slots_) packer.push(d);
    out->oks.emplace_back(std::move(row), 1);
  }

 private:
  std::vector<ReducePart> parts_;
  std::vector<Datum> slots_;
  RowArena arena_;
  std::vector<Datum> datums_;
};

}  // namespace

std::vector<ReducePart> split_reduce(const std::vector<AggregateExpr>& aggregates, bool accumulable_enabled,
                                     bool hierarchical_enabled) {
  std::vector<ReducePart> parts;
  auto part_of = [&](Kind kind) -> ReducePart& {
    for (ReducePart& p : parts)
      if (p.kind == kind) return p;
    return parts.emplace_back(ReducePart{kind, {}});
  };
  for (std::size_t i = 0; i < aggregates.size(); ++i) {
    const Kind kind = kind_of(aggregates[i], accumulable_enabled, hierarchical_enabled);
    if (kind == Kind::kDistinct) {
      parts.push_back(ReducePart{kind, {i}});  // one Distinct per DISTINCT aggregate
    } else {
      part_of(kind).positions.push_back(i);
    }
  }
  return parts;
}

std::vector<AggregateExpr> part_aggregates(const ReducePart& part, const std::vector<AggregateExpr>& aggregates,
                                           std::size_t key_arity) {
  std::vector<AggregateExpr> out;
  for (const std::size_t p : part.positions) {
    AggregateExpr agg = aggregates[p];
    if (part.kind == Kind::kDistinct) agg.expr = ScalarExpr::column(key_arity, agg.expr.type());
    if (part.kind == Kind::kDistinct || part.kind == Kind::kHierarchical) agg.distinct = false;
    out.push_back(std::move(agg));
  }
  return out;
}

void CollateTagOp::step() {
  InputPort& in = inputs_[0];
  const Row tag = Row::pack_one(Datum::from_int32(part_));
  for (Update& u : in.pending.oks) {
    RowIter it(u.val);
    std::size_t key_size = 0;
    for (std::size_t i = 0; i < key_arity_ && !it.done(); ++i) key_size += it.next_packed().size();
    const std::string_view bytes = u.val.bytes();
    std::string val(tag.bytes());
    val.append(bytes.substr(key_size));
    out_.oks.push_back(Update{Row(std::string(bytes.substr(0, key_size))), Row(std::move(val)), u.time, u.diff});
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

std::unique_ptr<GroupLogic> make_collation_logic(std::vector<ReducePart> parts, std::size_t aggregate_count) {
  return std::make_unique<CollationLogic>(std::move(parts), aggregate_count);
}

}  // namespace tandem::compute
