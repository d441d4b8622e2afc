// Dataflow: one worker's instance of a rendered dataflow: operators in
// topological order and the edges between them.
//
// step() runs every operator once, producers before consumers, moving each
// operator's output and frontier to its consumers' input ports. One pass
// moves local input through the whole DAG; input that arrives later (from
// an InputHandle or another worker's exchange) wakes the worker, which steps
// again. There is no scheduler beyond this: operators with nothing to do
// return at once.
//
// Logging: with set_timed(true), step() adds each operator's running time
// to elapsed_ns()[i] (two clock reads per operator step; the worker's
// logger reads the totals at a flush).
// Threading: owned and stepped by one worker thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/dataflow/operator.hpp"

namespace tandem::compute {

class Dataflow {
 public:
  explicit Dataflow(std::string name) : name_(std::move(name)) {}

  // Adds an operator consuming the outputs of `inputs` (already added), one
  // input port per entry, in order. Returns the operator.
  template <typename Op>
  Op* add(std::unique_ptr<Op> op, const std::vector<Operator*>& inputs) {
    Op* raw = op.get();
    const std::size_t index = operators_.size();
    operators_.push_back(std::move(op));
    consumers_.emplace_back();
    for (std::size_t port = 0; port < inputs.size(); ++port) consumers_[find(inputs[port])].push_back({index, port});
    return raw;
  }

  // One pass over all operators. Returns true if any update moved.
  bool step();
  // Whether an operator holds input for later steps (Operator::has_more).
  bool has_more() const {
    for (const auto& op : operators_)
      if (op->has_more()) return true;
    return false;
  }

  const std::string& name() const { return name_; }
  std::size_t operator_count() const { return operators_.size(); }
  const Operator& operator_at(std::size_t i) const { return *operators_[i]; }
  void set_timed(bool timed) {
    timed_ = timed;
    elapsed_ns_.assign(operators_.size(), 0);
  }
  // Nanoseconds each operator ran, in operator order (empty unless timed).
  const std::vector<std::uint64_t>& elapsed_ns() const { return elapsed_ns_; }

 private:
  struct Consumer {
    std::size_t op;
    std::size_t port;
  };
  std::size_t find(const Operator* op) const;

  std::string name_;
  std::vector<std::unique_ptr<Operator>> operators_;
  std::vector<std::vector<Consumer>> consumers_;
  bool timed_ = false;
  std::vector<std::uint64_t> elapsed_ns_;
};

}  // namespace tandem::compute
