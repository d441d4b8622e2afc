#include "compute/dataflow/error_row.hpp"

#include <array>
#include <string>

namespace tandem::compute {

Row error_row(const Status& status) {
  const std::array<Datum, 2> datums = {Datum::from_string(status.sqlstate()),
                                       Datum::from_string(status.message())};
  return Row::pack(datums);
}

Status status_from_error_row(RowRef row) {
  RowArena arena;
  RowIter it(row, &arena);
  const Datum code = it.next();
  const Datum message = it.next();
  return Status::error(code.as_string(), std::string(message.as_string()));
}

Status evaluation_error(const Status& status) {
  if (status.sqlstate().starts_with("XX")) return status;
  Status out = Status::error(status.sqlstate(), "Evaluation error: " + status.message());
  if (!status.detail().empty()) std::move(out).with_detail(status.detail());
  if (!status.hint().empty()) std::move(out).with_hint(status.hint());
  return out;
}

}  // namespace tandem::compute
