// A cluster's compute behind a Multiplexer, for tests: inputs, index
// installation, one-shot dataflows and blocking peeks.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "compute/runtime/multiplexer.hpp"
#include "compute/testing/harness.hpp"

namespace tandem::compute::testing {

// A cluster's compute with inputs, index installation and blocking peeks.
class Cluster {
 public:
  Cluster(std::size_t workers, bool interactive = true, bool interactive_dataflows = true)
      : mux_(options(workers, interactive, interactive_dataflows)) {}

  InputHandle& input(GlobalId id) {
    auto& in = inputs_[id];
    if (!in) in = mux_.create_input(id);
    return *in;
  }
  // An index keyed by column 0 over source `source_id`.
  void index(GlobalId index_id, GlobalId source_id, Timestamp as_of = 0) {
    input(source_id);
    DataflowDescription desc;
    desc.debug_name = "index";
    desc.source_imports.push_back(SourceImport{source_id});
    desc.objects_to_build.push_back(BuildDesc{1000 + index_id, source(source_id)});
    desc.index_exports.push_back(IndexExport{index_id, 1000 + index_id, {col(0)}});
    desc.as_of = as_of;
    mux_.send(CreateDataflow{std::move(desc)});
  }
  // A one-shot dataflow at `as_of` joining indexes `a` and `b` (two int4
  // columns each) on column 0, exported as `export_id`.
  void one_shot_join(GlobalId export_id, GlobalId a, GlobalId b, Timestamp as_of) {
    DataflowDescription desc;
    desc.debug_name = "peek";
    desc.index_imports.push_back(IndexImport{a, {col(0)}});
    desc.index_imports.push_back(IndexImport{b, {col(0)}});
    PlanNode join{Join{PlanNode{Get{a, Get::Kind::kIndex}}, PlanNode{Get{b, Get::Kind::kIndex}}, {col(0)}, {col(0)}}};
    desc.objects_to_build.push_back(BuildDesc{1000 + export_id, join});
    desc.index_exports.push_back(IndexExport{export_id, 1000 + export_id, {col(0)}});
    desc.as_of = as_of;
    desc.until = as_of + 1;
    mux_.send(CreateDataflow{std::move(desc)});
  }
  PeekId send_peek(GlobalId index, Timestamp time, std::size_t arity) {
    const PeekId id = next_peek_++;
    mux_.send(Peek{id, index, time, std::nullopt, MapFilterProject::identity(arity)});
    return id;
  }
  PeekResponse wait_peek(PeekId id) {
    return take_answer(answered_, id, std::chrono::seconds(60), [&] { record(mux_.recv(std::chrono::milliseconds(100))); });
  }
  // Responses seen so far, in order ("peek <id>" / "upper <id> <t>").
  void record(std::optional<ComputeResponse> r) {
    if (!r) return;
    if (auto* p = std::get_if<PeekResponse>(&*r)) {
      REQUIRE(answered_.count(p->uuid) == 0);  // exactly one response per peek
      events_.push_back("peek " + std::to_string(p->uuid));
      answered_[p->uuid] = std::move(*p);
    } else if (auto* f = std::get_if<FrontierUpper>(&*r)) {
      uppers_[f->id] = f->upper;
      events_.push_back("upper " + std::to_string(f->id));
    }
  }
  Multiplexer& mux() { return mux_; }
  const std::vector<std::string>& events() const { return events_; }

 private:
  static MultiplexerOptions options(std::size_t workers, bool interactive, bool interactive_dataflows) {
    MultiplexerOptions o;
    o.maintenance.workers = workers;
    o.interactive_runtime = interactive;
    o.interactive_dataflows = interactive_dataflows;
    return o;
  }

  Multiplexer mux_;
  std::map<GlobalId, std::shared_ptr<InputHandle>> inputs_;
  std::map<PeekId, PeekResponse> answered_;
  std::map<GlobalId, Timestamp> uppers_;
  std::vector<std::string> events_;
  PeekId next_peek_ = 1;
};

}  // namespace tandem::compute::testing
