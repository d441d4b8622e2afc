#pragma once
// ExecResult: what executing one statement produced, in a form the protocol
// layer encodes without knowing the statement: the result columns (for
// RowDescription), the rows (packed, formatted to text or binary per the
// client's format codes), the command tag, parameter changes to report and
// notices. Plain data, except a streamed result's producer (row_stream.hpp).

#include <string>
#include <utility>
#include <vector>

#include "common/row.hpp"
#include "common/status.hpp"
#include "common/types.hpp"
#include "frontend/adapter/copy_format.hpp"
#include "frontend/adapter/row_stream.hpp"

#include <memory>
#include <optional>

namespace tandem::frontend {

struct ResultColumn {
  std::string name;
  ColumnType type;
};

// A NoticeResponse to send before the statement's completion.
struct ResultNotice {
  enum class Severity : uint8_t { kNotice, kWarning };
  Severity severity = Severity::kNotice;
  Status status;  // sqlstate, message, detail, hint
};

struct ExecResult {
  // True for statements that return rows (SELECT, SHOW, VALUES, FETCH), even
  // when there are none: they get a RowDescription; others get NoData.
  bool returns_rows = false;
  std::vector<ResultColumn> columns;
  std::vector<Row> rows;
  // Rows produced while the client reads them, sent after `rows`. The tag
  // is then the command word ("SELECT", "COPY"), completed with the count
  // of rows sent.
  std::shared_ptr<RowStream> stream;
  // CommandComplete tag, e.g. "SELECT 3", "SET", "BEGIN". Empty for an empty
  // query (EmptyQueryResponse).
  std::string tag;
  bool empty_query = false;
  // ParameterStatus messages to send (reported variables that changed).
  std::vector<std::pair<std::string, std::string>> parameter_changes;
  std::vector<ResultNotice> notices;
  // COPY ... FROM STDIN: the connection runs the copy-in sub-protocol for
  // `columns.size()` columns and hands the data to Adapter::copy_in.
  bool copy_in = false;
  // COPY ... TO STDOUT: `rows` go out as CopyData lines in this format.
  std::optional<CopyFormat> copy_out;
};

}  // namespace tandem::frontend
