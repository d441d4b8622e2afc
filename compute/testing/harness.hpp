// Test harness for compute tests (*_test.cpp only): a Runtime with N
// workers, named inputs mirrored by a model multiset, one-call dataflow
// installation and blocking peeks. Not part of the library.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compute/dataflow/error_row.hpp"
#include "compute/runtime/runtime.hpp"
#include "compute/testing/reference_eval.hpp"

namespace tandem::compute::testing {

inline ColumnType int4_type() { return ColumnType{TypeId::kInt4}; }
inline ScalarExpr col(std::size_t i) { return ScalarExpr::column(i, int4_type()); }
inline ScalarExpr lit(int32_t v) { return ScalarExpr::literal(Datum::from_int32(v), int4_type()); }
inline PlanNode source(GlobalId id) { return PlanNode{Get{id, Get::Kind::kSource}}; }
// A one-column int4 row: a key of an index keyed by an int4 column.
inline Row key(int a) { return Row::pack_one(Datum::from_int32(a)); }
// A peek's rows as a multiset of row bytes, each repeated by its multiplicity.
inline std::multiset<std::string> row_multiset(const PeekResponse& r) {
  std::multiset<std::string> out;
  for (const auto& [row, diff] : r.rows) {
    for (Diff d = 0; d < diff; ++d) out.insert(std::string(row.bytes()));
  }
  return out;
}
// A two-column int4 row (a, b).
inline Row row2(int a, int b) { return Row::pack(std::vector<Datum>{Datum::from_int32(a), Datum::from_int32(b)}); }

// Two int4 columns (a, b): a in [0, 4), b in [0, 5) or NULL.
inline Row random_row(std::mt19937_64& rng) {
  const int a = static_cast<int>(rng() % 4);
  const int b = static_cast<int>(rng() % 6);
  std::vector<Datum> d{Datum::from_int32(a), b == 5 ? Datum::null() : Datum::from_int32(b)};
  return Row::pack(d);
}

// Takes the response to `id` out of `answered`, calling `pull_one` (which
// waits briefly for a response and records it) until it is there; fails the
// test after `timeout`.
template <class PullOne>
PeekResponse take_answer(std::map<PeekId, PeekResponse>& answered, PeekId id, std::chrono::seconds timeout,
                         PullOne pull_one) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto it = answered.find(id); it != answered.end()) {
      PeekResponse r = std::move(it->second);
      answered.erase(it);
      return r;
    }
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    pull_one();
  }
}

inline RuntimeOptions with_workers(std::size_t workers) {
  RuntimeOptions options;
  options.workers = workers;
  return options;
}

class Harness {
 public:
  Harness(std::size_t workers, const std::vector<GlobalId>& sources) : Harness(with_workers(workers), sources) {}
  Harness(RuntimeOptions options, const std::vector<GlobalId>& sources) : runtime_(std::move(options)) {
    for (const GlobalId id : sources) {
      inputs_[id] = runtime_.create_input(id);
      model_.sources[id];
    }
  }

  // Builds `plan` as object 1000 + index_id and exports it keyed by column 0.
  void install(const PlanNode& plan, GlobalId index_id, Timestamp as_of = 0, std::uint64_t heap_limit_bytes = 0) {
    DataflowDescription desc;
    desc.debug_name = "test";
    for (const auto& [id, input] : inputs_) desc.source_imports.push_back(SourceImport{id});
    desc.objects_to_build.push_back(BuildDesc{1000 + index_id, plan});
    desc.index_exports.push_back(IndexExport{index_id, 1000 + index_id, {col(0)}});
    desc.as_of = as_of;
    desc.heap_limit_bytes = heap_limit_bytes;
    runtime_.send(CreateDataflow{std::move(desc)});
  }

  void update(GlobalId source, const Row& row, Timestamp time, Diff diff) {
    inputs_.at(source)->send(row, time, diff);
    Multiset& m = model_.sources[source];
    const std::string key(row.bytes());
    if ((m[key] += diff) == 0) m.erase(key);
  }
  // A random insert, or a retraction of some present row (sometimes all of it).
  void random_update(GlobalId source, Timestamp time, std::mt19937_64& rng) {
    Multiset& m = model_.sources[source];
    if (!m.empty() && rng() % 3 == 0) {
      auto it = m.begin();
      std::advance(it, static_cast<long>(rng() % m.size()));
      const Diff d = rng() % 2 == 0 ? it->second : 1;
      update(source, Row(it->first), time, -d);
    } else {
      update(source, random_row(rng), time, rng() % 4 == 0 ? 2 : 1);
    }
  }
  void advance_all(Timestamp frontier) {
    for (auto& [id, input] : inputs_) input->advance_to(frontier);
  }

  PeekId send_peek(GlobalId index, Timestamp time, std::size_t arity) {
    const PeekId id = next_peek_++;
    runtime_.send(Peek{id, index, time, std::nullopt, MapFilterProject::identity(arity)});
    return id;
  }
  // Waits for the response to `id` (other peeks' responses are kept).
  PeekResponse wait_peek(PeekId id) {
    return take_answer(answered_, id, std::chrono::seconds(30), [&] {
      auto r = runtime_.recv(std::chrono::milliseconds(100));
      if (!r) return;
      if (auto* p = std::get_if<PeekResponse>(&*r)) {
        REQUIRE(answered_.count(p->uuid) == 0);  // exactly one response per peek
        answered_[p->uuid] = std::move(*p);
      }
    });
  }
  // Whether `id` has been answered by now (takes the responses queued).
  bool answered(PeekId id) {
    while (auto r = runtime_.try_recv()) {
      if (auto* p = std::get_if<PeekResponse>(&*r)) answered_[p->uuid] = std::move(*p);
    }
    return answered_.count(id) != 0;
  }
  PeekResponse peek(GlobalId index, Timestamp time, std::size_t arity) {
    return wait_peek(send_peek(index, time, arity));
  }

  Runtime& runtime() { return runtime_; }
  const RefInputs& model() const { return model_; }

 private:
  Runtime runtime_;
  std::map<GlobalId, std::shared_ptr<InputHandle>> inputs_;
  RefInputs model_;
  PeekId next_peek_ = 1;
  std::map<PeekId, PeekResponse> answered_;
};

inline Multiset to_multiset(const std::vector<std::pair<Row, Diff>>& rows) {
  Multiset m;
  for (const auto& [row, d] : rows) {
    const std::string key(row.bytes());
    if ((m[key] += d) == 0) m.erase(key);
  }
  return m;
}

// Checks a peek's response against the reference evaluator's result: the
// same error (when the reference has errors) or the same multiset of rows.
inline void check_peek(const PeekResponse& r, const RefCollection& want) {
  if (!want.errs.empty()) {
    REQUIRE(r.kind == PeekResponse::Kind::kError);
    // A peek reports a dataflow error as evaluation_error() of it.
    const Row got = error_row(r.error);
    std::size_t matches = 0;
    for (const auto& [bytes, diff] : want.errs)
      matches += error_row(evaluation_error(status_from_error_row(RowRef(bytes)))) == got ? 1 : 0;
    INFO(r.error.to_string());
    CHECK(matches == 1);
  } else {
    INFO((r.kind == PeekResponse::Kind::kError ? r.error.to_string() : std::string("rows")));
    REQUIRE(r.kind == PeekResponse::Kind::kRows);
    CHECK(to_multiset(r.rows) == want.oks);
  }
}

}  // namespace tandem::compute::testing
