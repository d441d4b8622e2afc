// IndexScan: a fast-path walk of a sealed, published index, read in pieces:
// a full scan whose rows stream to a client while the scan goes on
// instead of being collected into one PeekResponse first, or a
// literal-key lookup walked for a budget of positions at a time, inline and
// then on the offload pool (offloaded_peek.hpp). With literal keys the walk
// visits the keys in sorted order in each part, exactly as read_peek does,
// so the rows of a walk split anywhere are read_peek's rows.
//
// Runtime::scan_if_ready opens one when the peek's time is sealed on every
// part of the index (since <= time < upper on the data and error traces).
// The scan owns the snapshots it reads, so every batch it walks stays alive
// and exact at `time` however the trace compacts meanwhile (the batches are
// immutable and held by reference count, TraceSnapshot's contract). The
// index's error collection is read when the scan opens: an error at `time`
// fails open() before any row is produced, as a peek answers its error
// instead of rows.
//
// A reader that walks the scan off the thread that opened it (a streamed
// scan on the offload pool) keeps the read's time held on every trace it
// reads (keep_holds, TraceHandle's since hold) until the scan is destroyed,
// besides the batches the snapshots pin.
//
// next(fuel) walks at most `fuel` (key, val) positions (STYLE #6: the caller
// bounds the work of one call) and returns the rows found there, each passed
// through the peek's MFP, with its multiplicity. An empty answer with done()
// true is the end; an MFP evaluation error ends the scan.
//
// Threading: one thread at a time, any thread.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "common/status.hpp"
#include "compute/arrangement/cursor_list.hpp"
#include "compute/arrangement/trace_handle.hpp"
#include "compute/arrangement/trace_snapshot.hpp"
#include "compute/dataflow/mfp_eval.hpp"
#include "compute/protocol/command.hpp"
#include "compute/protocol/response.hpp"

namespace tandem::compute {

class IndexScan {
 public:
  using Part = IndexPart;  // oks, errs

  // REQUIRES: since <= peek.time < upper on every part.
  static Result<std::unique_ptr<IndexScan>> open(const Peek& peek, std::vector<Part> parts);
  // Whether opening and walking the scan would read spilled blocks back
  // from the spill (spill_probe.hpp): the blocks the peek's literal keys
  // fall in (every block for a full scan) and every block of the error
  // collections. Pages nothing in.
  static bool would_page(const Peek& peek, const std::vector<Part>& parts);

  // Releases the holds, then runs on_close.
  ~IndexScan() {
    holds_.clear();
    if (on_close_) on_close_();
  }
  IndexScan(const IndexScan&) = delete;
  IndexScan& operator=(const IndexScan&) = delete;

  Result<std::vector<std::pair<Row, Diff>>> next(std::size_t fuel);
  bool done() const { return part_ >= parts_.size(); }
  // Runs when the scan is destroyed (the read is over), on that thread.
  void set_on_close(std::function<void()> on_close) { on_close_ = std::move(on_close); }
  // Since holds at the read's time, released when the scan is destroyed.
  void keep_holds(std::vector<TraceHandle> holds) { holds_ = std::move(holds); }
  // For a full scan, whether its walk read spilled blocks back when it was
  // opened (would_page): a reader then walks it off its own thread.
  bool pages() const { return pages_; }

 private:
  IndexScan(const Peek& peek, std::vector<Part> parts);
  // Positions cursor_ on part_ (or past the last part).
  void start_part();
  // Positions the cursor on the next key to walk in the current part (the
  // next literal key present, from key_ on); false when there is none.
  bool seek_present_key();
  // Moves past the current key; false when the part has no more to walk.
  bool advance_key();

  Timestamp time_;
  MfpEvaluator mfp_;
  std::vector<Part> parts_;
  std::optional<std::vector<Row>> keys_;  // literal keys: normalized, sorted, unique
  std::size_t part_ = 0;
  std::size_t key_ = 0;  // into keys_, in the current part
  std::unique_ptr<CursorList> cursor_;
  std::vector<TraceHandle> holds_;
  std::function<void()> on_close_;
  bool pages_ = false;
};

}  // namespace tandem::compute
