#include "compute/dataflow/hierarchical_reduce.hpp"

#include <atomic>
#include <cstdlib>
#include <functional>
#include <string_view>

#include "common/eval.hpp"
#include "compute/dataflow/error_row.hpp"

namespace tandem::compute {
namespace {

bool enabled_by_environment() {
  const char* v = std::getenv("TANDEM_HIERARCHICAL_REDUCE");
  return v == nullptr || std::string_view(v) != "0";
}

std::atomic<bool> g_enabled{enabled_by_environment()};

enum Kind : std::int32_t { kValue = 0, kError = 1, kNoValue = 2 };
constexpr std::size_t kFieldsPerAggregate = 4;

// The same status ReduceLogic reports, so the error rows agree.
Status negative_multiplicity() {
  return Status::error(sqlstate::kInternalError, "invalid data in dataflow: negative multiplicity in group input");
}

// True if `v` beats `best` for a min (max) aggregate.
bool better(AggregateFunc func, const Datum& v, const Datum& best) {
  const int c = compare_datums(v, best);
  return func == AggregateFunc::kMin ? c < 0 : c > 0;
}

class BucketLogic final : public GroupLogic {
 public:
  explicit BucketLogic(std::vector<AggregateExpr> aggregates) : aggregates_(std::move(aggregates)) {}

  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    Row row(std::string(key.bytes()));
    RowPacker packer(&row);
    bool negative = false;
    for (const auto& [val, diff] : group) negative = negative || diff < 0;
    packer.push(Datum::from_bool(negative));
    if (!negative) summarize(group, packer);
    out->oks.emplace_back(std::move(row), 1);
  }

 private:
  struct Best {
    Kind kind = kNoValue;
    Datum value;
    std::string_view val;  // the input row that produced value / the error
    Row error;
  };

  // Vals arrive in byte order, so the first failure and the first best value
  // found per aggregate are the ones ReduceLogic would meet first.
  void summarize(const GroupContents& group, RowPacker& packer) {
    arena_.clear();
    ctx_.arena.clear();
    best_.assign(aggregates_.size(), Best{});
    for (const auto& [val, diff] : group) {
      unpack_into(RowRef(val), &datums_, &arena_);
      for (std::size_t a = 0; a < aggregates_.size(); ++a) {
        Best& b = best_[a];
        if (b.kind == kError) continue;
        auto v = eval(aggregates_[a].expr, datums_, ctx_);
        if (!v.ok()) {
          b.kind = kError;
          b.val = val;
          b.error = error_row(v.status());
          continue;
        }
        if (v->is_null()) continue;
        if (b.kind == kNoValue || better(aggregates_[a].func, *v, b.value)) {
          b.kind = kValue;
          b.value = *v;
          b.val = val;
        }
      }
    }
    for (const Best& b : best_) {
      packer.push(Datum::from_int32(b.kind));
      packer.push(b.kind == kValue ? b.value : Datum::null());
      packer.push(Datum::from_bytes(b.val));
      packer.push(b.kind == kError ? Datum::from_bytes(b.error.bytes()) : Datum::null());
    }
  }

  std::vector<AggregateExpr> aggregates_;
  EvalContext ctx_;
  RowArena arena_;
  std::vector<Datum> datums_;
  std::vector<Best> best_;
};

// Per aggregate, the winner over bucket rows: the least failing input row's
// error, else the best value (ties by least input row), else nothing.
struct Winner {
  const std::vector<Datum>* error = nullptr;
  const std::vector<Datum>* best = nullptr;
};

Winner winner(AggregateFunc func, const std::vector<std::vector<Datum>>& buckets, std::size_t base) {
  Winner w;
  for (const std::vector<Datum>& b : buckets) {
    const std::string_view val = b[base + 2].as_bytes();
    switch (b[base].as_integer()) {
      case kError:
        if (w.error == nullptr || val < (*w.error)[base + 2].as_bytes()) w.error = &b;
        break;
      case kValue:
        if (w.best == nullptr || better(func, b[base + 1], (*w.best)[base + 1]) ||
            (compare_datums(b[base + 1], (*w.best)[base + 1]) == 0 && val < (*w.best)[base + 2].as_bytes()))
          w.best = &b;
        break;
      default:
        break;
    }
  }
  return w;
}

// Levels above the first: key = group key ++ bucket, vals = bucket rows of
// the level below (whose own bucket column is at key_arity).
class BucketRows {
 public:
  explicit BucketRows(std::size_t key_arity) : key_arity_(key_arity) {}
  // Unpacks the group; false if any bucket row is negative (invalid input).
  bool unpack(const GroupContents& group) {
    arena_.clear();
    buckets_.resize(group.size());
    for (std::size_t i = 0; i < group.size(); ++i) {
      unpack_into(RowRef(group[i].first), &buckets_[i], &arena_);
      // Bucket rows are unique per bucket; a negative one is invalid input too.
      if (group[i].second < 0 || buckets_[i][key_arity_ + 1].as_bool()) return false;
    }
    return true;
  }
  const std::vector<std::vector<Datum>>& buckets() const { return buckets_; }
  std::size_t base(std::size_t aggregate) const { return key_arity_ + 2 + aggregate * kFieldsPerAggregate; }

 private:
  std::size_t key_arity_;
  RowArena arena_;
  std::vector<std::vector<Datum>> buckets_;
};

// A middle level: the bucket rows of a coarser bucket, in the same layout.
class RebucketLogic final : public GroupLogic {
 public:
  RebucketLogic(std::vector<AggregateExpr> aggregates, std::size_t key_arity)
      : aggregates_(std::move(aggregates)), rows_(key_arity) {}

  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    Row row(std::string(key.bytes()));
    RowPacker packer(&row);
    const bool valid = rows_.unpack(group);
    packer.push(Datum::from_bool(!valid));
    if (valid) {
      for (std::size_t a = 0; a < aggregates_.size(); ++a) {
        const std::size_t base = rows_.base(a);
        const Winner w = winner(aggregates_[a].func, rows_.buckets(), base);
        const std::vector<Datum>* chosen = w.error != nullptr ? w.error : w.best;
        if (chosen == nullptr) {
          packer.push(Datum::from_int32(kNoValue));
          packer.push(Datum::null());
          packer.push(Datum::from_bytes(""));
          packer.push(Datum::null());
          continue;
        }
        for (std::size_t f = 0; f < kFieldsPerAggregate; ++f) packer.push((*chosen)[base + f]);
      }
    }
    out->oks.emplace_back(std::move(row), 1);
  }

 private:
  std::vector<AggregateExpr> aggregates_;
  BucketRows rows_;
};

class MergeLogic final : public GroupLogic {
 public:
  MergeLogic(std::vector<AggregateExpr> aggregates, std::size_t key_arity)
      : aggregates_(std::move(aggregates)), rows_(key_arity) {}

  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    if (!rows_.unpack(group)) {
      out->errs.emplace_back(error_row(negative_multiplicity()), 1);
      return;
    }
    Row row(std::string(key.bytes()));
    RowPacker packer(&row);
    for (std::size_t a = 0; a < aggregates_.size(); ++a) {
      const std::size_t base = rows_.base(a);
      const Winner w = winner(aggregates_[a].func, rows_.buckets(), base);
      if (w.error != nullptr) {
        out->errs.emplace_back(Row(std::string((*w.error)[base + 3].as_bytes())), 1);
        return;
      }
      packer.push(w.best != nullptr ? (*w.best)[base + 1] : Datum::null());
    }
    out->oks.emplace_back(std::move(row), 1);
  }

 private:
  std::vector<AggregateExpr> aggregates_;
  BucketRows rows_;
};

}  // namespace

bool is_hierarchical(const std::vector<AggregateExpr>& aggregates) {
  if (aggregates.empty()) return false;
  for (const AggregateExpr& agg : aggregates)
    if (agg.distinct || (agg.func != AggregateFunc::kMin && agg.func != AggregateFunc::kMax)) return false;
  return true;
}

bool hierarchical_reduce_enabled() { return g_enabled.load(std::memory_order_relaxed); }
void set_hierarchical_reduce_enabled(bool enabled) { g_enabled.store(enabled, std::memory_order_relaxed); }

std::unique_ptr<GroupLogic> make_minmax_bucket_logic(std::vector<AggregateExpr> aggregates) {
  return std::make_unique<BucketLogic>(std::move(aggregates));
}

std::unique_ptr<GroupLogic> make_minmax_rebucket_logic(std::vector<AggregateExpr> aggregates,
                                                      std::size_t key_arity) {
  return std::make_unique<RebucketLogic>(std::move(aggregates), key_arity);
}

std::unique_ptr<GroupLogic> make_minmax_merge_logic(std::vector<AggregateExpr> aggregates, std::size_t key_arity) {
  return std::make_unique<MergeLogic>(std::move(aggregates), key_arity);
}

// An update and its retraction must meet in one bucket: the bucket is a pure
// function of the val bytes (std::hash is fixed within the process, and the
// buckets' state lives only in this process).
void BucketKeyOp::step() {
  InputPort& in = inputs_[0];
  for (Update& u : in.pending.oks) {
    const auto bucket = static_cast<std::int32_t>(std::hash<std::string_view>{}(u.val.bytes()) %
                                                  static_cast<std::size_t>(kHierarchicalBuckets[0]));
    u.key = concat_rows(u.key, Row::pack_one(Datum::from_int32(bucket)));
    out_.oks.push_back(std::move(u));
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

void RebucketKeyOp::step() {
  InputPort& in = inputs_[0];
  for (Update& u : in.pending.oks) {
    RowIter it(u.val);
    std::size_t key_size = 0;
    for (std::size_t i = 0; i < key_arity_ && !it.done(); ++i) key_size += it.next_packed().size();
    const auto bucket = static_cast<std::int32_t>(it.next().as_integer() % buckets_);
    u.key = concat_rows(RowRef(u.val.bytes().substr(0, key_size)), Row::pack_one(Datum::from_int32(bucket)));
    out_.oks.push_back(std::move(u));
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

}  // namespace tandem::compute
