// ComputeClient: the compute controller interface. The
// coordinator talks to a compute runtime only through it, as if compute
// were another process: commands in, responses out, nothing shared.
//
// Threading: send() and the receive calls may be called from any thread
// (typically the coordinator's). Responses arrive in the order compute
// produced them. set_response_waker installs a callback run (on a compute
// thread, after the response is queued) whenever a response is queued, so
// an event loop can schedule a drain instead of blocking; it must not call
// back into the client.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

#include <memory>

#include "compute/protocol/command.hpp"
#include "compute/protocol/response.hpp"
#include "compute/runtime/index_scan.hpp"
#include "compute/runtime/offloaded_peek.hpp"

namespace tandem::compute {

class ComputeClient {
 public:
  virtual ~ComputeClient() = default;
  virtual void send(ComputeCommand command) = 0;
  virtual std::optional<ComputeResponse> try_recv() = 0;
  // Waits up to `timeout` for a response.
  virtual std::optional<ComputeResponse> recv(std::chrono::milliseconds timeout) = 0;
  virtual void set_response_waker(std::function<void()> waker) = 0;
  // The fast path: answers a peek of an index on the calling
  // thread, with no hand-off, when its time is already sealed and its read
  // touches at most `inline_budget` updates (any number for literal-key
  // lookups); nullopt when it cannot (then send() the Peek). No Peek
  // command is involved: nothing to cancel, no response queued. A client in
  // another process answers nullopt.
  virtual std::optional<PeekResponse> peek_if_ready(const Peek& /*peek*/, std::size_t /*inline_budget*/) {
    return std::nullopt;
  }
  // peek_if_ready with offload: when the time is sealed, walks
  // at most `inline_budget` cursor positions here and, if the walk is not
  // done, with `offload` moves the rest of it to the offload pool (answered
  // through the returned OffloadedPeek); without `offload` (or with no pool,
  // or a full pool) a literal-key lookup walks to its end here and a larger
  // full scan is declined as by peek_if_ready. nullopt: send() the Peek.
  virtual std::optional<ReadyPeek> walk_if_ready(const Peek& /*peek*/, std::size_t /*inline_budget*/,
                                                 bool /*offload*/) {
    return std::nullopt;
  }
  // The streaming form of peek_if_ready for a full scan (no literal keys)
  // of any size: an IndexScan the caller reads piecewise on its own thread
  // (its open() error, e.g. the index's evaluation error, as the Result);
  // nullopt when the time is not sealed (then send() the Peek).
  virtual std::optional<Result<std::unique_ptr<IndexScan>>> scan_if_ready(const Peek& /*peek*/) {
    return std::nullopt;
  }
  // The upper index `id` is published at now (the least over its parts'
  // data and error traces), read on the calling thread: what a fast-path
  // read or a peek would find sealed right now, which FrontierUpper
  // responses report only later. nullopt when unknown (not yet published
  // by every part, or a client in another process).
  virtual std::optional<Timestamp> published_upper(GlobalId /*id*/) const { return std::nullopt; }
};

}  // namespace tandem::compute
