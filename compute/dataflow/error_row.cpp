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

}  // namespace tandem::compute
