// Error rows: how an evaluation error travels in a dataflow's error
// collection (STYLE #9). The row packs (SQLSTATE, message) as two text
// datums, so equal errors consolidate and an error update retracts exactly
// like the data update that raised it. Reads surface the least error row.
// Threading: pure functions.
#pragma once

#include "common/row.hpp"
#include "common/status.hpp"

namespace tandem::compute {

// REQUIRES !status.is_ok().
Row error_row(const Status& status);
// The Status an error row encodes.
Status status_from_error_row(RowRef row);

// The error a read reports for an error of a dataflow's error collection or
// of a peek's MFP: Materialize's DataflowError::EvalError wording,
// "Evaluation error: <message>", with the SQLSTATE kept (22012 for a
// division by zero). Internal errors (class XX: invalid data, negative
// multiplicities) are reported as they are. Constant queries folded at plan
// time never get here and keep PostgreSQL's plain message.
// REQUIRES !status.is_ok().
Status evaluation_error(const Status& status);

}  // namespace tandem::compute
