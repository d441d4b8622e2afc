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

class MergeLogic final : public GroupLogic {
 public:
  MergeLogic(std::vector<AggregateExpr> aggregates, std::size_t key_arity)
      : aggregates_(std::move(aggregates)), key_arity_(key_arity) {}

  void apply(RowRef key, const GroupContents& group, GroupResult* out) override {
    arena_.clear();
    buckets_.resize(group.size());
    for (std::size_t i = 0; i < group.size(); ++i) {
      unpack_into(RowRef(group[i].first), &buckets_[i], &arena_);
      // Bucket rows are unique per bucket; a negative one is invalid input too.
      if (group[i].second < 0 || buckets_[i][key_arity_ + 1].as_bool()) {
        out->errs.emplace_back(error_row(negative_multiplicity()), 1);
        return;
      }
    }
    Row row(std::string(key.bytes()));
    RowPacker packer(&row);
    for (std::size_t a = 0; a < aggregates_.size(); ++a) {
      const std::size_t base = key_arity_ + 2 + a * kFieldsPerAggregate;
      const std::vector<Datum>* error = nullptr;
      const std::vector<Datum>* best = nullptr;
      for (const std::vector<Datum>& b : buckets_) {
        const std::string_view val = b[base + 2].as_bytes();
        switch (b[base].as_integer()) {
          case kError:
            if (error == nullptr || val < (*error)[base + 2].as_bytes()) error = &b;
            break;
          case kValue:
            if (best == nullptr || better(aggregates_[a].func, b[base + 1], (*best)[base + 1]) ||
                (compare_datums(b[base + 1], (*best)[base + 1]) == 0 && val < (*best)[base + 2].as_bytes()))
              best = &b;
            break;
          default:
            break;
        }
      }
      if (error != nullptr) {
        out->errs.emplace_back(Row(std::string((*error)[base + 3].as_bytes())), 1);
        return;
      }
      packer.push(best != nullptr ? (*best)[base + 1] : Datum::null());
    }
    out->oks.emplace_back(std::move(row), 1);
  }

 private:
  std::vector<AggregateExpr> aggregates_;
  std::size_t key_arity_;
  RowArena arena_;
  std::vector<std::vector<Datum>> buckets_;
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

std::unique_ptr<GroupLogic> make_minmax_merge_logic(std::vector<AggregateExpr> aggregates, std::size_t key_arity) {
  return std::make_unique<MergeLogic>(std::move(aggregates), key_arity);
}

// An update and its retraction must meet in one bucket: the bucket is a pure
// function of the val bytes (std::hash is fixed within the process, and the
// buckets' state lives only in this process).
void BucketKeyOp::step() {
  InputPort& in = inputs_[0];
  for (Update& u : in.pending.oks) {
    const auto bucket = static_cast<std::int32_t>(std::hash<std::string_view>{}(u.val.bytes()) % kHierarchicalBuckets);
    u.key = concat_rows(u.key, Row::pack_one(Datum::from_int32(bucket)));
    out_.oks.push_back(std::move(u));
  }
  in.pending.oks.clear();
  forward_errors();
  advance_frontier(in.frontier);
}

}  // namespace tandem::compute
