// Operator microbenchmarks through the maintenance runtime (1 worker):
// `count(*), sum(b) GROUP BY a` and a two-way equi-join, each fed by an
// InputHandle and exported as an index. One benchmark iteration is one
// timestamp: range(1) random updates (half inserts, half retractions of
// present rows) sent, the input advanced, and the export's upper awaited, so
// updates/s includes sealing, arranging, the operator, the output
// arrangement and the frontier report. At the end the export is peeked and
// checked against a model (a wrong answer marks the benchmark as failed).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <random>

#include "bench/micro/bench_support.hpp"
#include "compute/runtime/runtime.hpp"

namespace tandem::bench {
namespace {

using namespace tandem::compute;

constexpr GlobalId kIndex = 100;

ScalarExpr int_col(std::size_t i) { return ScalarExpr::column(i, ColumnType{TypeId::kInt4}); }

// One runtime with one dataflow and its inputs; step() seals a time.
class Pipeline {
 public:
  Pipeline(const PlanNode& plan, const std::vector<GlobalId>& sources) : runtime_(RuntimeOptions{1}) {
    DataflowDescription desc;
    desc.debug_name = "bench";
    for (const GlobalId id : sources) {
      inputs_[id] = runtime_.create_input(id);
      desc.source_imports.push_back(SourceImport{id});
    }
    desc.objects_to_build.push_back(BuildDesc{kIndex + 1, plan});
    desc.index_exports.push_back(IndexExport{kIndex, kIndex + 1, {int_col(0)}});
    runtime_.send(CreateDataflow{std::move(desc)});
  }

  void send(GlobalId source, Row row, Diff diff) { inputs_.at(source)->send(std::move(row), time_, diff); }

  // Seals the current time and waits until the export's upper passes it.
  void step() {
    ++time_;
    for (auto& [id, input] : inputs_) input->advance_to(time_);
    while (upper_ < time_) {
      auto r = runtime_.recv(std::chrono::seconds(60));
      if (!r) throw std::runtime_error("timed out waiting for the export's upper");
      if (auto* f = std::get_if<FrontierUpper>(&*r)) upper_ = std::max(upper_, f->upper);
    }
  }

  // The export's rows at the last sealed time.
  std::vector<std::pair<Row, Diff>> peek(std::size_t arity) {
    runtime_.send(Peek{1, kIndex, time_ - 1, std::nullopt, MapFilterProject::identity(arity)});
    for (;;) {
      auto r = runtime_.recv(std::chrono::seconds(60));
      if (!r) throw std::runtime_error("timed out waiting for a peek");
      if (auto* p = std::get_if<PeekResponse>(&*r)) {
        if (p->kind != PeekResponse::Kind::kRows) throw std::runtime_error("peek failed");
        return std::move(p->rows);
      }
    }
  }

 private:
  Runtime runtime_;
  std::map<GlobalId, std::shared_ptr<InputHandle>> inputs_;
  Timestamp time_ = 0;
  Timestamp upper_ = 0;
};

// A model of one (a, b) collection: the b values present under each a.
struct Model {
  std::vector<std::vector<std::int32_t>> by_key;
  std::uint64_t size = 0;
  explicit Model(std::size_t keys) : by_key(keys) {}

  Row insert(std::mt19937_64& rng) {
    const auto a = static_cast<std::int32_t>(rng() % by_key.size());
    const auto b = static_cast<std::int32_t>(rng() % 1000);
    by_key[a].push_back(b);
    ++size;
    return int_row(a, b);
  }
  // Retracts a random present row (REQUIRES size > 0).
  Row retract(std::mt19937_64& rng) {
    for (;;) {
      const auto a = static_cast<std::int32_t>(rng() % by_key.size());
      auto& vals = by_key[a];
      if (vals.empty()) continue;
      const std::size_t i = rng() % vals.size();
      const std::int32_t b = vals[i];
      vals[i] = vals.back();
      vals.pop_back();
      --size;
      return int_row(a, b);
    }
  }
};

std::int64_t datum_int(const Datum& d) { return d.kind() == DatumKind::kNumeric ? 0 : d.as_integer(); }

// count(*), sum(b) GROUP BY a over range(0) groups.
void BM_ReduceCountSum(benchmark::State& state) {
  const std::size_t groups = static_cast<std::size_t>(state.range(0));
  const std::int64_t per_time = state.range(1);
  const std::uint64_t initial = bench_rows() / 10;
  AggregateExpr count;  // count(*)
  AggregateExpr sum;
  sum.func = AggregateFunc::kSumInt;
  sum.expr = int_col(1);
  PlanNode plan{Reduce{PlanNode{Get{1, Get::Kind::kSource}}, {int_col(0)}, {count, sum}}};
  Pipeline pipeline(plan, {1});
  Model model(groups);
  std::mt19937_64 rng(5);
  for (std::uint64_t i = 0; i < initial; ++i) pipeline.send(1, model.insert(rng), 1);
  pipeline.step();
  for (auto _ : state) {
    for (std::int64_t i = 0; i < per_time; i += 2) {
      pipeline.send(1, model.insert(rng), 1);
      pipeline.send(1, model.retract(rng), -1);
    }
    pipeline.step();
  }
  state.SetItemsProcessed(state.iterations() * per_time);
  // Check: every group's count and sum against the model.
  std::int64_t count_total = 0, sum_total = 0, model_sum = 0;
  for (const auto& [row, diff] : pipeline.peek(3)) {
    const std::vector<Datum> d = unpack(row);
    count_total += d[1].as_int64() * diff;
    sum_total += datum_int(d[2]) * diff;
  }
  for (const auto& vals : model.by_key)
    for (const std::int32_t b : vals) model_sum += b;
  if (count_total != static_cast<std::int64_t>(model.size) || sum_total != model_sum)
    state.SkipWithError("reduce output disagrees with the model");
  state.counters["groups"] = static_cast<double>(groups);
  state.counters["rows"] = static_cast<double>(model.size);
}

// A(a, x) JOIN B(a, y) ON a, each side range(0) keys; updates alternate sides.
void BM_JoinTwoWay(benchmark::State& state) {
  const std::size_t keys = static_cast<std::size_t>(state.range(0));
  const std::int64_t per_time = state.range(1);
  const std::uint64_t initial = bench_rows() / 20;  // per side
  PlanNode plan{Join{PlanNode{Get{1, Get::Kind::kSource}}, PlanNode{Get{2, Get::Kind::kSource}}, {int_col(0)},
                     {int_col(0)}}};
  Pipeline pipeline(plan, {1, 2});
  Model lhs(keys), rhs(keys);
  std::mt19937_64 rng(6);
  for (std::uint64_t i = 0; i < initial; ++i) {
    pipeline.send(1, lhs.insert(rng), 1);
    pipeline.send(2, rhs.insert(rng), 1);
  }
  pipeline.step();
  for (auto _ : state) {
    for (std::int64_t i = 0; i < per_time; i += 4) {
      pipeline.send(1, lhs.insert(rng), 1);
      pipeline.send(1, lhs.retract(rng), -1);
      pipeline.send(2, rhs.insert(rng), 1);
      pipeline.send(2, rhs.retract(rng), -1);
    }
    pipeline.step();
  }
  state.SetItemsProcessed(state.iterations() * per_time);
  std::int64_t joined = 0, expected = 0;
  for (const auto& [row, diff] : pipeline.peek(4)) joined += diff;
  for (std::size_t k = 0; k < keys; ++k)
    expected += static_cast<std::int64_t>(lhs.by_key[k].size() * rhs.by_key[k].size());
  if (joined != expected) state.SkipWithError("join output disagrees with the model");
  state.counters["output_rows"] = static_cast<double>(joined);
}

}  // namespace

BENCHMARK(BM_ReduceCountSum)
    ->Args({10'000, 1'000})
    ->Args({10'000, 10'000})
    ->Args({1'000'000, 10'000})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JoinTwoWay)->Args({500'000, 1'000})->Args({500'000, 10'000})->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace tandem::bench
