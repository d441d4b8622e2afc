#pragma once
// Cursor: a DECLAREd cursor of a transaction block (DECLARE c CURSOR FOR
// {SELECT ... | SUBSCRIBE ...}), read with FETCH and gone at CLOSE or at the
// end of the transaction. It holds what its statement produced: collected
// rows, then a stream (a large scan, or a subscribe's live updates).
// Closing or dropping a cursor abandons its stream, which for a subscribe
// drops its dataflow and read holds.
// Threading: owned by its session.

#include <memory>
#include <vector>

#include "common/row.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/row_stream.hpp"

namespace tandem::frontend {

struct Cursor {
  std::vector<ResultColumn> columns;
  std::vector<Row> rows;  // collected, from `next_row` on
  size_t next_row = 0;
  std::shared_ptr<RowStream> stream;
  bool subscribe = false;

  Cursor() = default;
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  Cursor(Cursor&&) = default;
  Cursor& operator=(Cursor&&) = default;
  ~Cursor() {
    if (stream) stream->abandon(Status::error(sqlstate::kQueryCanceled, "cursor closed"));
  }
};

}  // namespace tandem::frontend
