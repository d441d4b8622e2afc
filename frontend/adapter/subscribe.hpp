#pragma once
// SUBSCRIBE (issue 6 item 1; materialize.md §1): binding the statement and
// turning its dataflow's sinked updates into the rows a client receives.
//
// SUBSCRIBE [TO] obj | (query) [ENVELOPE UPSERT (KEY (cols))]
//   [WITH (SNAPSHOT [= bool], PROGRESS [= bool])] [AS OF [AT LEAST] t] [UP TO t]
// runs `query` (SELECT * FROM obj) as a maintained dataflow on the cluster's
// maintenance runtime from the as_of on, with a subscribe sink
// (coordinator_subscribe.cpp). Its rows are
//   mz_timestamp numeric, [mz_progressed boolean,] mz_diff bigint, columns...
// in time order (timestamps never decrease; updates of one time are
// consolidated), the snapshot at the as_of first unless SNAPSHOT = false.
// With PROGRESS, a row with mz_progressed = true and every other column NULL
// says that every row before its mz_timestamp has been sent; the first row
// is one at the as_of.
// ENVELOPE UPSERT (KEY (cols)) replaces mz_diff by `mz_state text` and lays
// the columns out as the KEY columns (in KEY order), then the others. Per
// time and key, the consolidated updates become one row: a single insert,
// or a retraction and an insert, is 'upsert' with the new values; a single
// retraction is 'delete' with NULL values; anything else (two values for
// one key at once, a multiplicity other than 1) is 'key_violation' with
// NULL values, as Materialize does. Rows of one time are in key order. The subscribe ends at UP TO (exclusive; UP TO = AS OF
// gives no rows), when its input completes, on an evaluation error (sent as
// the error after the rows before it), or when the consumer goes away.
//
// The rows wait in a bounded RowChannel for the client: a consumer that
// falls kBufferRows rows behind ends the subscribe with an error rather than
// making the server buffer without bound.
// Threading: bind_subscribe is pure; a SubscribeSink runs on the
// coordinator thread (deliver) and feeds a thread-safe channel.

#include <memory>
#include <optional>
#include <vector>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "compute/protocol/response.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/row_stream.hpp"
#include "planner/parser/parser.hpp"

namespace tandem::frontend {

struct BoundSubscribe {
  sql::Query query;  // SUBSCRIBE obj reads SELECT * FROM obj
  bool snapshot = true;
  bool progress = false;
  std::optional<sql::AsOf> as_of;
  std::optional<Timestamp> up_to;
  // ENVELOPE UPSERT: the KEY columns' positions among the query's columns.
  std::optional<std::vector<size_t>> upsert_key;
  std::vector<ResultColumn> columns;  // the output, mz_* columns first
};

// The query a SUBSCRIBE reads (to be described by the caller).
sql::Query subscribe_query(const sql::Subscribe& subscribe);
// Checks the options, evaluates UP TO and lays out the output columns
// around the query's `data_columns`.
Result<std::shared_ptr<const BoundSubscribe>> bind_subscribe(const sql::Subscribe& subscribe,
                                                             std::vector<ResultColumn> data_columns);

class SubscribeSink {
 public:
  static constexpr std::size_t kBufferRows = 1 << 20;

  SubscribeSink(std::shared_ptr<const BoundSubscribe> bound, Timestamp as_of, std::shared_ptr<RowChannel> channel);
  // The first rows (a progress row at the as_of); false if the subscribe is
  // already complete (UP TO = AS OF) and needs no dataflow.
  bool start();
  // One SinkBatch; false once the subscribe has ended (the coordinator then
  // drops its dataflow).
  bool deliver(compute::SinkBatch batch);

 private:
  Row progress_row(Timestamp t) const;
  // One time's consolidated updates, as mz_diff rows or upsert states.
  struct Update {
    Timestamp time;
    RowRef row;
    Diff diff;
  };
  void append_rows(const std::vector<Update>& updates, std::vector<Row>* out) const;
  void append_upserts(const std::vector<Update>& updates, std::vector<Row>* out) const;
  // Pushes `rows` (the channel takes them all or none); false on an end.
  bool push(std::vector<Row>& rows);

  std::shared_ptr<const BoundSubscribe> bound_;
  const Timestamp as_of_;
  std::shared_ptr<RowChannel> channel_;
  Timestamp progressed_ = kMinTimestamp;
  bool ended_ = false;
};

}  // namespace tandem::frontend
