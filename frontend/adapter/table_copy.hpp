#pragma once
// COPY t [(cols)] FROM STDIN: binding (target columns, defaults, format) at
// Parse, and turning the received data into one write, parsed as it
// arrives and committed at CopyDone. Every
// value goes through its column type's input function; the first bad line
// fails the whole COPY (nothing is written) with an error naming the line.
// Threading: pure over an immutable catalog snapshot.

#include <memory>
#include <string_view>
#include <vector>

#include "catalog/catalog_snapshot.hpp"
#include "common/eval_context.hpp"
#include "frontend/adapter/copy_binary.hpp"
#include "frontend/adapter/copy_format.hpp"
#include "frontend/adapter/table_insert.hpp"
#include "frontend/coord/coordinator.hpp"

namespace tandem::frontend {

struct BoundCopyIn {
  std::shared_ptr<BoundInsert> target;  // table, targets and defaults
  CopyFormat format;
};

Result<std::shared_ptr<const BoundCopyIn>> bind_copy_in(const catalog::CatalogSnapshot& snapshot,
                                                        const catalog::SearchPath& path, const sql::Copy& copy);

// Turns COPY FROM data into one write as it arrives: each piece (a CopyData
// message, cut anywhere) is split, parsed and packed at once, so the work
// overlaps the client's sending and only the unfinished record is kept.
// A COPY whose packed rows pass StagedWrite::kPieceBytes becomes a staged
// write (frontend/coord/staged_write.hpp) when a coordinator is given:
// its rows go to storage piece by piece as they arrive, so the builder
// holds one piece of them, however large the COPY; an error, or dropping
// the builder uncommitted (a disconnect), deletes what was staged.
class CopyInBuilder {
 public:
  explicit CopyInBuilder(std::shared_ptr<const BoundCopyIn> copy);
  CopyInBuilder(const CopyInBuilder&) = delete;
  CopyInBuilder& operator=(const CopyInBuilder&) = delete;

  // Set up by the caller (statement time, cancellation) before start().
  EvalContext& context() { return ctx_; }
  // Stage large COPYs through `coordinator` (which must outlive the
  // builder), set before start().
  void stage_into(Coordinator* coordinator) { coordinator_ = coordinator; }
  // Evaluates the defaults of the columns the data does not provide.
  Status start();
  // The first error is final: later calls return it again.
  Status feed(std::string_view piece);
  // The write adding every row (empty when staged: see take_staged());
  // `*rows` counts them.
  Result<TableWrite> finish(size_t* rows);
  // After finish(): the staged write holding every row, if the COPY was
  // staged (commit it with Coordinator::commit_staged).
  std::unique_ptr<StagedWrite> take_staged() { return std::move(staged_); }

 private:
  // `fields` are text (or CSV) fields, or with `binary` the binary
  // format's field bytes (copy_binary.hpp).
  Status add_row(size_t line, const std::vector<std::optional<std::string_view>>& fields, bool binary);
  // Hands the rows collected so far to a new staged write.
  Status begin_staging();

  std::shared_ptr<const BoundCopyIn> copy_;
  EvalContext ctx_;
  std::vector<Datum> defaults_;
  std::vector<Datum> full_;
  Row staged_row_;  // the line being staged
  RowArena arena_;
  TableWrite write_;
  size_t write_bytes_ = 0;  // packed bytes in write_
  Coordinator* coordinator_ = nullptr;
  std::unique_ptr<StagedWrite> staged_;
  CopyRowSplitter splitter_;
  std::optional<BinaryCopyReader> binary_;  // FORMAT binary reads through this instead
  Status status_;
};

}  // namespace tandem::frontend
