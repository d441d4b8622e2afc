#include "compute/dataflow/accumulable_reduce_op.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "common/eval.hpp"
#include "common/numeric.hpp"
#include "compute/dataflow/error_row.hpp"

namespace tandem::compute {

namespace {

// Default from the environment so one benchmark binary can measure both paths.
bool enabled_by_environment() {
  const char* v = std::getenv("TANDEM_ACCUMULABLE_REDUCE");
  return v == nullptr || std::string_view(v) != "0";
}

std::atomic<bool> g_enabled{enabled_by_environment()};

// The same status GroupLogic's ReduceLogic reports, so the error rows agree.
Status negative_multiplicity() {
  return Status::error(sqlstate::kInternalError, "invalid data in dataflow: negative multiplicity in group input");
}

}  // namespace

bool is_accumulable(const std::vector<AggregateExpr>& aggregates) {
  for (const AggregateExpr& agg : aggregates) {
    if (agg.distinct) return false;
    switch (agg.func) {
      case AggregateFunc::kCountAll:
      case AggregateFunc::kCount:
      case AggregateFunc::kSumInt:
      case AggregateFunc::kSumInt8:
      case AggregateFunc::kSumNumeric:
      case AggregateFunc::kSumFloat:
        break;
      default:
        return false;
    }
  }
  return true;
}

bool accumulable_reduce_enabled() { return g_enabled.load(std::memory_order_relaxed); }
void set_accumulable_reduce_enabled(bool enabled) { g_enabled.store(enabled, std::memory_order_relaxed); }

AccumulableReduceOp::AccumulableReduceOp(std::vector<AggregateExpr> aggregates)
    : Operator("Reduce", 1), aggregates_(std::move(aggregates)) {
  for (const AggregateExpr& agg : aggregates_)
    if (agg.func != AggregateFunc::kCountAll) needs_eval_ = true;
}

void AccumulableReduceOp::apply(Group& group, const Update& update) {
  const Diff diff = update.diff;
  group.rows += diff;
  if (!needs_eval_) return;
  arena_.clear();
  ctx_.arena.clear();
  unpack_into(RowRef(update.val.bytes()), &datums_, &arena_);
  for (std::size_t a = 0; a < aggregates_.size(); ++a) {
    const AggregateExpr& agg = aggregates_[a];
    if (agg.func == AggregateFunc::kCountAll) continue;
    auto value = eval(agg.expr, datums_, ctx_);
    if (!value.ok()) {
      if (!group.errors) group.errors = std::make_unique<ErrorRows>(aggregates_.size());
      auto& rows = (*group.errors)[a];
      auto [it, inserted] = rows.try_emplace(std::string(update.val.bytes()), Row(), 0);
      if (inserted) it->second.first = error_row(value.status());
      if ((it->second.second += diff) == 0) rows.erase(it);
      continue;
    }
    if (value->is_null()) continue;
    AggregateAccumulator& acc = group.aggregates[a];
    acc.non_null += diff;
    if (agg.func == AggregateFunc::kSumInt || agg.func == AggregateFunc::kSumInt8) {
      i128 term;
      if (__builtin_mul_overflow(static_cast<i128>(value->as_integer()), static_cast<i128>(diff), &term) ||
          __builtin_add_overflow(acc.sum, term, &acc.sum))
        acc.overflowed = true;
    } else if (agg.func == AggregateFunc::kSumNumeric) {
      acc.sums.add_numeric(value->as_numeric(), diff);
    } else if (agg.func == AggregateFunc::kSumFloat) {
      acc.sums.add_float(value->kind() == DatumKind::kFloat32 ? value->as_float32() : value->as_float64(), diff);
    }
  }
}

bool AccumulableReduceOp::is_empty(const Group& group) const {
  if (group.rows != 0) return false;
  for (const AggregateAccumulator& acc : group.aggregates)
    if (acc.non_null != 0 || acc.sum != 0 || !acc.sums.is_zero()) return false;
  if (group.errors)
    for (const auto& rows : *group.errors)
      if (!rows.empty()) return false;
  return true;
}

bool AccumulableReduceOp::result(RowRef key, const Group& group, Row* row, bool* is_error) {
  if (is_empty(group)) return false;
  // The totals-only stand-in for "some val has a negative multiplicity".
  bool negative = group.rows <= 0;
  for (const AggregateAccumulator& acc : group.aggregates)
    negative = negative || acc.non_null < 0 || acc.non_null > group.rows;
  if (group.errors)
    for (const auto& rows : *group.errors)
      for (const auto& [val, entry] : rows) negative = negative || entry.second < 0 || entry.second > group.rows;
  auto fail = [&](const Status& status) {
    *row = error_row(status);
    *is_error = true;
    return true;
  };
  if (negative) return fail(negative_multiplicity());
  *row = Row(std::string(key.bytes()));
  *is_error = false;
  RowPacker packer(row);
  for (std::size_t a = 0; a < aggregates_.size(); ++a) {
    if (group.errors && !(*group.errors)[a].empty()) {
      // The recompute meets the least failing val first (vals in byte order).
      *row = (*group.errors)[a].begin()->second.first;
      *is_error = true;
      return true;
    }
    const AggregateAccumulator& acc = group.aggregates[a];
    switch (aggregates_[a].func) {
      case AggregateFunc::kCountAll:
        packer.push(Datum::from_int64(static_cast<int64_t>(group.rows)));
        break;
      case AggregateFunc::kCount:
        packer.push(Datum::from_int64(static_cast<int64_t>(acc.non_null)));
        break;
      case AggregateFunc::kSumInt:
        if (acc.non_null == 0) {
          packer.push_null();
        } else if (acc.overflowed) {
          return fail(numeric_overflow());
        } else if (acc.sum > INT64_MAX || acc.sum < INT64_MIN) {
          return fail(Status::error(sqlstate::kNumericValueOutOfRange, "bigint out of range"));
        } else {
          packer.push(Datum::from_int64(static_cast<int64_t>(acc.sum)));
        }
        break;
      case AggregateFunc::kSumInt8: {
        const i128 e19 = static_cast<i128>(10'000'000'000'000'000'000ULL);
        const i128 limit = e19 * e19;  // numeric's 38 digits, as ReduceLogic
        if (acc.non_null == 0) {
          packer.push_null();
        } else if (acc.overflowed || acc.sum >= limit || acc.sum <= -limit) {
          return fail(numeric_overflow());
        } else {
          packer.push(Datum::from_numeric(Numeric::from_parts(acc.sum, 0)));
        }
        break;
      }
      case AggregateFunc::kSumNumeric:
      case AggregateFunc::kSumFloat: {
        if (acc.non_null == 0) {
          packer.push_null();
          break;
        }
        auto sum = acc.sums.sum_datum(aggregates_[a].func == AggregateFunc::kSumNumeric);
        if (!sum.ok()) return fail(sum.status());
        packer.push(*sum);
        break;
      }
      default:
        assert(false && "AccumulableReduceOp: aggregate is not accumulable");
    }
  }
  return true;
}

void AccumulableReduceOp::merge(Group& group, Group&& delta) {
  group.rows += delta.rows;
  for (std::size_t a = 0; a < aggregates_.size(); ++a) {
    AggregateAccumulator& acc = group.aggregates[a];
    const AggregateAccumulator& d = delta.aggregates[a];
    acc.non_null += d.non_null;
    if (d.overflowed || __builtin_add_overflow(acc.sum, d.sum, &acc.sum)) acc.overflowed = true;
    acc.sums.merge(d.sums);
  }
  if (!delta.errors) return;
  if (!group.errors) {
    group.errors = std::move(delta.errors);
    return;
  }
  for (std::size_t a = 0; a < aggregates_.size(); ++a) {
    auto& rows = (*group.errors)[a];
    for (auto& [val, entry] : (*delta.errors)[a]) {
      auto [it, inserted] = rows.try_emplace(val, std::move(entry.first), 0);
      if ((it->second.second += entry.second) == 0) rows.erase(it);
    }
  }
}

void AccumulableReduceOp::fold_pending() {
  std::vector<Update>& pending = inputs_[0].pending.oks;
  Group* delta = nullptr;
  std::string_view key;
  Timestamp time = kMinTimestamp;
  for (const Update& u : pending) {
    // Consecutive updates mostly share their group and time (one key for a
    // global aggregate): one lookup for the run.
    if (delta == nullptr || u.time != time || u.key.bytes() != key) {
      auto [it, inserted] = deltas_[u.time].try_emplace(std::string(u.key.bytes()));
      if (inserted) it->second.aggregates.resize(aggregates_.size());
      delta = &it->second;
      key = it->first;
      time = u.time;
    }
    apply(*delta, u);
  }
  pending.clear();
}

void AccumulableReduceOp::emit(RowRef key, Group& group, Timestamp t) {
  Row row;
  bool is_error = false;
  const bool present = result(key, group, &row, &is_error);
  if (group.has_output && present && is_error == group.output_is_error && row.bytes() == group.output.bytes())
    return;
  if (group.has_output)
    (group.output_is_error ? out_.errs : out_.oks).push_back(Update{{}, std::move(group.output), t, -1});
  group.has_output = present;
  if (present) {
    group.output_is_error = is_error;
    group.output = row;
    (is_error ? out_.errs : out_.oks).push_back(Update{{}, std::move(row), t, 1});
  }
}

void AccumulableReduceOp::step() {
  forward_errors();
  // Every update is folded into its (time, group) delta as it arrives, so
  // what waits for the frontier is one accumulator per (time, group), not
  // the updates: a peek dataflow's count(*) over an index larger than
  // memory holds one, whatever the index's size.
  fold_pending();
  const Timestamp f1 = inputs_[0].frontier;
  if (f1 <= done_) return;
  for (auto at = deltas_.begin(); at != deltas_.end() && at->first < f1; at = deltas_.erase(at)) {
    for (auto& [key, delta] : at->second) {
      auto [it, inserted] = groups_.try_emplace(key);
      Group& group = it->second;
      if (inserted) group.aggregates.resize(aggregates_.size());
      merge(group, std::move(delta));
      emit(RowRef(key), group, at->first);
      if (!group.has_output && is_empty(group)) groups_.erase(it);
    }
  }
  done_ = f1;
  advance_frontier(f1);
}

}  // namespace tandem::compute
