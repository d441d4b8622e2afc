#pragma once
// Encoding of results and decoding of parameters between the wire formats
// (text or binary per column, chosen by the client) and tandem's packed
// rows. Hot path: rows are written straight into the output buffer.

#include <cstdint>
#include <span>
#include <vector>

#include "common/row.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/prepared_statement.hpp"
#include "frontend/pgwire/backend_writer.hpp"
#include "frontend/pgwire/messages.hpp"

namespace tandem::frontend {

// RowDescription for the columns; `formats` empty means all text, else one
// format code per column.
void write_row_description(pgwire::BackendWriter& writer, std::span<const ResultColumn> columns,
                           std::span<const int16_t> formats);

// DataRows for result.rows[begin, end).
void write_data_rows(pgwire::BackendWriter& writer, const ExecResult& result, size_t begin, size_t end,
                     std::span<const int16_t> formats);
void write_data_rows(pgwire::BackendWriter& writer, std::span<const ResultColumn> columns, std::span<const Row> rows,
                     std::span<const int16_t> formats);
// The header line of COPY TO STDOUT (CSV HEADER): the column names, quoted
// as fields are.
void write_copy_header(pgwire::BackendWriter& writer, std::span<const ResultColumn> columns, const CopyFormat& format);
// CopyData lines (COPY TO STDOUT) for `rows` in `format`: one message per
// row. In the binary format a non-empty `*binary_header` (the format's
// header) goes out in front of the first tuple, in the same message, as
// PostgreSQL sends it (psycopg expects it so), and is cleared.
void write_copy_rows(pgwire::BackendWriter& writer, std::span<const ResultColumn> columns, std::span<const Row> rows,
                     const CopyFormat& format, std::string* binary_header = nullptr);

// Bind's result format codes (0, 1 or one per column) expanded to one per
// column; 08P01 on a count mismatch, 22023 on an unknown code.
Result<std::vector<int16_t>> normalize_result_formats(std::span<const int16_t> codes, size_t column_count);

// Bind's parameter values decoded with the statement's parameter types, one
// datum per parameter, packed.
Result<Row> decode_parameters(const PreparedStatement& statement, const pgwire::Bind& bind);

}  // namespace tandem::frontend
