#include "compute/dataflow/group_logic.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "common/array.hpp"
#include "common/eval.hpp"
#include "common/jsonb.hpp"
#include "compute/dataflow/error_row.hpp"
#include "compute/dataflow/sum_accumulator.hpp"

namespace tandem::compute {

int compare_in_order(const std::vector<Datum>& a, const std::vector<Datum>& b, const std::vector<ColumnOrder>& order) {
  for (const ColumnOrder& o : order) {
    const Datum& x = a[o.column];
    const Datum& y = b[o.column];
    if (x.is_null() || y.is_null()) {
      if (x.is_null() && y.is_null()) continue;
      return (x.is_null() == o.nulls_last) ? 1 : -1;
    }
    int c = compare_datums(x, y);
    if (o.desc) c = -c;
    if (c != 0) return c;
  }
  return 0;
}
namespace {

Status negative_multiplicity() {
  return Status::error(sqlstate::kInternalError, "invalid data in dataflow: negative multiplicity in group input");
}

bool has_negative(const GroupContents& group) {
  for (const auto& [val, diff] : group)
    if (diff < 0) return true;
  return false;
}

// The row a group of whole-row keys outputs: its first member present that
// kept its display form (a non-empty val: KeyByOp's keep_display), else the
// key itself. Members are equal rows, so any is right (as in PostgreSQL);
// taking the first keeps the choice a function of the group.
std::string_view display_form(RowRef key, const GroupContents& group) {
  for (const auto& [val, mult] : group) {
    if (mult <= 0) continue;
    return val.empty() ? key.bytes() : val;
  }
  return key.bytes();
}

// One aggregate over one group.
class AggregateState {
 public:
  explicit AggregateState(const AggregateExpr& agg) : agg_(agg) {}

  // Feeds a non-NULL value `mult` (> 0) times; `order_key` packs the
  // values of the aggregate's ORDER BY items for it (string_agg,
  // array_agg).
  Status add(const Datum& v, Diff mult, std::string_view order_key = {}) {
    any_ = true;
    switch (agg_.func) {
      case AggregateFunc::kCountAll:
      case AggregateFunc::kCount:
        count_ += mult;
        return Status::ok();
      case AggregateFunc::kSumInt:
      case AggregateFunc::kSumInt8: {
        i128 term;
        if (__builtin_mul_overflow(static_cast<i128>(v.as_integer()), static_cast<i128>(mult), &term) ||
            __builtin_add_overflow(isum_, term, &isum_))
          return numeric_overflow();
        return Status::ok();
      }
      case AggregateFunc::kSumNumeric:
        sum_.add_numeric(v.as_numeric(), mult);
        return Status::ok();
      case AggregateFunc::kSumFloat:
        sum_.add_float(v.kind() == DatumKind::kFloat32 ? v.as_float32() : v.as_float64(), mult);
        return Status::ok();
      case AggregateFunc::kMin:
        if (!has_best_ || compare_datums(v, best_) < 0) best_ = v, has_best_ = true;
        return Status::ok();
      case AggregateFunc::kMax:
        if (!has_best_ || compare_datums(v, best_) > 0) best_ = v, has_best_ = true;
        return Status::ok();
      case AggregateFunc::kStringAgg:
        for (Diff i = 0; i < mult; ++i) entries_.emplace_back(order_key, v.as_string());
        return Status::ok();
      case AggregateFunc::kArrayAgg:
      case AggregateFunc::kJsonbAgg:
      case AggregateFunc::kJsonbObjectAgg: {
        Row packed = Row::pack_one(v);
        for (Diff i = 0; i < mult; ++i) entries_.emplace_back(order_key, packed.bytes());
        return Status::ok();
      }
    }
    return Status::ok();
  }

  // The aggregate's value, packed; `separator` is the string_agg separator.
  Status finish(RowPacker& packer, const std::optional<std::string>& separator) {
    switch (agg_.func) {
      case AggregateFunc::kCountAll:
      case AggregateFunc::kCount:
        packer.push(Datum::from_int64(count_));
        return Status::ok();
      case AggregateFunc::kSumInt:
        if (!any_) return packer.push_null(), Status::ok();
        if (isum_ > INT64_MAX || isum_ < INT64_MIN)
          return Status::error(sqlstate::kNumericValueOutOfRange, "bigint out of range");
        packer.push(Datum::from_int64(static_cast<int64_t>(isum_)));
        return Status::ok();
      case AggregateFunc::kSumInt8: {
        if (!any_) return packer.push_null(), Status::ok();
        const i128 limit = static_cast<i128>(10'000'000'000'000'000'000ULL) * static_cast<i128>(10'000'000'000'000'000'000ULL);
        if (isum_ >= limit || isum_ <= -limit) return numeric_overflow();
        packer.push(Datum::from_numeric(Numeric::from_parts(isum_, 0)));
        return Status::ok();
      }
      case AggregateFunc::kSumNumeric:
      case AggregateFunc::kSumFloat: {
        if (!any_) return packer.push_null(), Status::ok();
        auto sum = sum_.sum_datum(agg_.func == AggregateFunc::kSumNumeric);
        if (!sum.ok()) return sum.status();
        packer.push(*sum);
        return Status::ok();
      }
      case AggregateFunc::kMin:
      case AggregateFunc::kMax:
        packer.push(has_best_ ? best_ : Datum::null());
        return Status::ok();
      case AggregateFunc::kStringAgg: {
        if (!any_) return packer.push_null(), Status::ok();
        sort_entries();
        std::string joined;
        for (std::size_t i = 0; i < entries_.size(); ++i) {
          if (i > 0 && separator) joined += *separator;
          joined += entries_[i].second;
        }
        packer.push(Datum::from_string(joined));
        return Status::ok();
      }
      case AggregateFunc::kArrayAgg: {
        if (!any_) return packer.push_null(), Status::ok();
        sort_entries();
        std::string elements;
        for (const auto& [key, packed] : entries_) elements += packed;
        packer.push(Datum::from_array(elements));
        return Status::ok();
      }
      case AggregateFunc::kJsonbAgg:
      case AggregateFunc::kJsonbObjectAgg: {
        if (!any_) return packer.push_null(), Status::ok();
        sort_entries();  // by the ORDER BY, else packed: jsonb order
        const bool object = agg_.func == AggregateFunc::kJsonbObjectAgg;
        JsonValue out = object ? JsonValue::object() : JsonValue::array();
        for (const auto& [key, packed] : entries_) {
          const Datum d = unpack_one(RowRef(packed));
          JsonValue v = d.is_null() ? JsonValue::null() : decode_jsonb(d);
          if (!object) {
            out.elements.push_back(std::move(v));
            continue;
          }
          for (auto& m : v.members) out.members.push_back(std::move(m));
        }
        if (object) jsonb_normalize_object(&out);
        RowArena arena;
        packer.push(make_jsonb(out, arena));
        return Status::ok();
      }
    }
    return Status::ok();
  }

 private:
  // By the aggregate's ORDER BY, ties (and everything, without one) by the
  // value: its text for string_agg, its packed form (SQL order, NULLs
  // last) for array_agg, jsonb_agg and jsonb_object_agg.
  void sort_entries() {
    if (agg_.order_by.empty()) {
      std::sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
      return;
    }
    RowArena arena;
    std::vector<Datum> x, y;
    std::sort(entries_.begin(), entries_.end(), [&](const auto& a, const auto& b) {
      arena.clear();
      unpack_into(RowRef(a.first), &x, &arena);
      unpack_into(RowRef(b.first), &y, &arena);
      for (std::size_t i = 0; i < agg_.order_by.size() && i < x.size() && i < y.size(); ++i) {
        const AggregateOrder& o = agg_.order_by[i];
        if (x[i].is_null() || y[i].is_null()) {
          if (x[i].is_null() && y[i].is_null()) continue;
          return x[i].is_null() != o.nulls_last;
        }
        const int c = compare_datums(x[i], y[i]);
        if (c != 0) return o.desc ? c > 0 : c < 0;
      }
      return a.second < b.second;
    });
  }

  const AggregateExpr& agg_;
  bool any_ = false;
  int64_t count_ = 0;
  i128 isum_ = 0;
  SumAccumulator sum_;  // sum(numeric), sum(float): shared with the accumulable reduce
  Datum best_;
  bool has_best_ = false;
  std::vector<std::pair<std::string, std::string>> entries_;  // (ORDER BY key, value)
};

class ReduceLogic final : public GroupLogic {
 public:
  explicit ReduceLogic(std::vector<AggregateExpr> aggregates) : aggregates_(std::move(aggregates)) {}

  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    if (has_negative(group)) {
      out->errs.emplace_back(error_row(negative_multiplicity()), 1);
      return;
    }
    Row row(std::string(key.bytes()));
    RowPacker packer(&row);
    for (const AggregateExpr& agg : aggregates_) {
      Status status = aggregate(agg, group, packer);
      if (!status.is_ok()) {
        out->errs.emplace_back(error_row(status), 1);
        return;
      }
    }
    out->oks.emplace_back(std::move(row), 1);
  }

 private:
  Status aggregate(const AggregateExpr& agg, const GroupContents& group, RowPacker& packer) {
    AggregateState state(agg);
    std::optional<std::string> separator;
    // DISTINCT: per value (packed in key mode, so 5 and 5.00 are one), the
    // first member's form as it was (packed as is), which is what is fed.
    std::map<std::string, std::string> distinct;
    bool first = true;
    // Values may borrow from both arenas until finish(): clear per group only.
    arena_.clear();
    ctx_.arena.clear();
    for (const auto& [val, mult] : group) {
      unpack_into(RowRef(val), &datums_, &arena_);
      if (agg.func == AggregateFunc::kCountAll) {
        TANDEM_RETURN_IF_ERROR(state.add(Datum::from_bool(true), mult));
        continue;
      }
      if (first && agg.separator) {
        auto sep = eval(*agg.separator, datums_, ctx_);
        if (!sep.ok()) return sep.status();
        if (!sep->is_null()) separator = std::string(sep->as_string());
      }
      first = false;
      if (agg.filter) {
        auto keep = eval(*agg.filter, datums_, ctx_);
        if (!keep.ok()) return keep.status();
        if (keep->is_null() || !keep->as_bool()) continue;
      }
      auto value = eval(agg.expr, datums_, ctx_);
      if (!value.ok()) return value.status();
      if (value->is_null() && agg.func != AggregateFunc::kArrayAgg) continue;
      Row order_key;
      if (!agg.order_by.empty() && !agg.distinct) {
        RowPacker key_packer(&order_key);
        for (const AggregateOrder& o : agg.order_by) {
          auto k = eval(o.expr, datums_, ctx_);
          if (!k.ok()) return k.status();
          key_packer.push(*k);
        }
      }
      if (agg.distinct) {
        Row packed;
        RowPacker p(&packed);
        p.set_normalize_numeric(true);
        p.push(*value);
        Row shown;
        RowPacker(&shown).push(*value);
        distinct.try_emplace(std::string(packed.bytes()), std::string(shown.bytes()));
        continue;
      }
      TANDEM_RETURN_IF_ERROR(state.add(*value, mult, order_key.bytes()));
    }
    if (agg.distinct) {
      // With DISTINCT, every ORDER BY item is the argument itself.
      RowArena arena;
      for (const auto& [value, shown] : distinct) {
        const Datum d = unpack_one(RowRef(shown), &arena);
        Row order_key;
        RowPacker key_packer(&order_key);
        for (std::size_t i = 0; i < agg.order_by.size(); ++i) key_packer.push(d);
        TANDEM_RETURN_IF_ERROR(state.add(d, 1, order_key.bytes()));
      }
      return state.finish(packer, separator);
    }
    return state.finish(packer, separator);
  }

  std::vector<AggregateExpr> aggregates_;
  EvalContext ctx_;
  RowArena arena_;
  std::vector<Datum> datums_;
};

// Distinct and Threshold count a group as a whole: its members are one
// value, possibly in several display forms (KeyByOp's keep_display), whose
// counts may cancel across forms (l - r where r holds the value in another
// form).
Diff group_total(const GroupContents& group) {
  Diff total = 0;
  for (const auto& [val, mult] : group) total += mult;
  return total;
}

class DistinctLogic final : public GroupLogic {
 public:
  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    const Diff total = group_total(group);
    if (total < 0) {
      out->errs.emplace_back(error_row(negative_multiplicity()), 1);
      return;
    }
    if (total > 0) out->oks.emplace_back(Row(std::string(display_form(key, group))), 1);
  }
};

// max(total, 0) copies, drawn from the members present in order, each at
// most as often as it is present: the output is a sub-multiset of the
// input's positive part, so `l - threshold(l - r)` (INTERSECT ALL) cancels
// exactly, form by form.
class ThresholdLogic final : public GroupLogic {
 public:
  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    Diff left = group_total(group);
    for (const auto& [val, mult] : group) {
      if (left <= 0) break;
      if (mult <= 0) continue;
      const Diff take = std::min(mult, left);
      out->oks.emplace_back(Row(std::string(val.empty() ? key.bytes() : val)), take);
      left -= take;
    }
  }
};

class TopKLogic final : public GroupLogic {
 public:
  TopKLogic(std::vector<ColumnOrder> order, std::optional<std::int64_t> limit, std::int64_t offset)
      : order_(std::move(order)), limit_(limit), offset_(offset) {}

  void apply(RowRef, const GroupContents& group, GroupResult* out) override {
    if (has_negative(group)) {
      out->errs.emplace_back(error_row(negative_multiplicity()), 1);
      return;
    }
    arena_.clear();
    rows_.resize(group.size());
    index_.resize(group.size());
    for (std::size_t i = 0; i < group.size(); ++i) {
      unpack_into(RowRef(group[i].first), &rows_[i], &arena_);
      index_[i] = i;
    }
    std::sort(index_.begin(), index_.end(), [&](std::size_t a, std::size_t b) {
      const int c = compare(rows_[a], rows_[b]);
      if (c != 0) return c < 0;
      return group[a].first < group[b].first;
    });
    std::int64_t position = 0;
    const std::int64_t end = limit_ ? offset_ + *limit_ : INT64_MAX;
    for (const std::size_t i : index_) {
      const std::int64_t lo = std::max(position, offset_);
      const std::int64_t hi = std::min(position + group[i].second, end);
      if (hi > lo) out->oks.emplace_back(Row(std::string(group[i].first)), hi - lo);
      position += group[i].second;
      if (position >= end) break;
    }
  }

 private:
  int compare(const std::vector<Datum>& a, const std::vector<Datum>& b) const { return compare_in_order(a, b, order_); }

  std::vector<ColumnOrder> order_;
  std::optional<std::int64_t> limit_;
  std::int64_t offset_;
  RowArena arena_;
  std::vector<std::vector<Datum>> rows_;
  std::vector<std::size_t> index_;
};

}  // namespace

struct AggregateAccumulator::State {
  explicit State(AggregateFunc func) : agg{func, ScalarExpr::null(ColumnType{TypeId::kInt8}), false, std::nullopt}, state(agg) {}
  AggregateExpr agg;
  AggregateState state;  // refers to agg
};

AggregateAccumulator::AggregateAccumulator(AggregateFunc func) : state_(std::make_unique<State>(func)) {}
AggregateAccumulator::~AggregateAccumulator() = default;
Status AggregateAccumulator::add(const Datum& v, Diff mult) { return state_->state.add(v, mult); }
Status AggregateAccumulator::finish(RowPacker& packer) { return state_->state.finish(packer, std::nullopt); }

std::unique_ptr<GroupLogic> make_reduce_logic(std::vector<AggregateExpr> aggregates) {
  return std::make_unique<ReduceLogic>(std::move(aggregates));
}
std::unique_ptr<GroupLogic> make_distinct_logic() { return std::make_unique<DistinctLogic>(); }
std::unique_ptr<GroupLogic> make_threshold_logic() { return std::make_unique<ThresholdLogic>(); }
std::unique_ptr<GroupLogic> make_topk_logic(std::vector<ColumnOrder> order, std::optional<std::int64_t> limit,
                                            std::int64_t offset) {
  return std::make_unique<TopKLogic>(std::move(order), limit, offset);
}

}  // namespace tandem::compute
