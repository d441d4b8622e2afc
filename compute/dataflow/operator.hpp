// Operator: one node of a rendered dataflow on one worker.
//
// Model. Time is totally ordered, so progress is one frontier per edge: an
// input port's `frontier` promises that no update with time < frontier will
// arrive on it again. Each step, the Dataflow (dataflow.hpp) hands an
// operator the updates its producers emitted plus their frontiers; step()
// consumes what it can, appends its output to out_ and sets frontier_, the
// least time at which it may still emit. frontier_ never decreases and is
// at most the least input frontier plus what the operator holds back
// (stateful operators process a time only once every input passed it).
// Every operator passes its inputs' error updates through (STYLE #9) unless
// it documents otherwise.
//
// Threading: an operator belongs to its worker thread; nothing here is
// shared. Cross-worker traffic goes through compute/dataflow/exchange.hpp.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "common/timestamp.hpp"
#include "compute/dataflow/update.hpp"

namespace tandem::compute {

struct InputPort {
  Stream pending;
  Timestamp frontier = kMinTimestamp;
};

class Operator {
 public:
  explicit Operator(std::string name, std::size_t inputs) : name_(std::move(name)), inputs_(inputs) {}
  virtual ~Operator() = default;
  Operator(const Operator&) = delete;
  Operator& operator=(const Operator&) = delete;

  // Runs to completion on the input available (the maintenance behaviour).
  virtual void step() = 0;
  // True if the operator holds input it will emit in later steps (a source
  // walking a large history in bounded pieces): its worker steps again
  // without waiting for a wake-up.
  virtual bool has_more() const { return false; }

  const std::string& name() const { return name_; }
  Timestamp frontier() const { return frontier_; }
  std::size_t input_count() const { return inputs_.size(); }
  InputPort& input(std::size_t i) { return inputs_[i]; }
  Stream& output() { return out_; }

 protected:
  Timestamp least_input_frontier() const {
    Timestamp f = kMaxTimestamp;
    for (const InputPort& p : inputs_) f = std::min(f, p.frontier);
    return f;
  }
  void advance_frontier(Timestamp f) { frontier_ = std::max(frontier_, f); }
  // Moves every pending error of every input to the output.
  void forward_errors() {
    for (InputPort& p : inputs_) {
      if (out_.errs.empty()) {
        out_.errs.swap(p.pending.errs);
      } else {
        for (Update& u : p.pending.errs) out_.errs.push_back(std::move(u));
      }
      p.pending.errs.clear();
    }
  }

  std::string name_;
  std::vector<InputPort> inputs_;
  Stream out_;
  Timestamp frontier_ = kMinTimestamp;
};

}  // namespace tandem::compute
