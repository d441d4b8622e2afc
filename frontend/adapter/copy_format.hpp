#pragma once
// COPY's text and CSV formats (PostgreSQL's COPY FROM STDIN / TO STDOUT):
// splitting the input into rows of fields (with NULL markers and escapes),
// and formatting result rows. Parsing is pure; errors name the line.
// Threading: pure functions.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

struct CopyFormat {
  bool csv = false;
  bool binary = false;  // copy_binary.hpp; the other fields then do not apply
  char delimiter = '\t';
  std::string null_string = "\\N";
  bool header = false;
  char quote = '"';
  char escape = '"';
};

// From COPY's WITH (...) options; 0A000/22023 for unknown or bad options.
Result<CopyFormat> copy_format_from_options(const std::vector<sql::Option>& options);

// One parsed line: fields, nullopt for NULL. `line` is 1-based.
struct CopyRow {
  size_t line = 0;
  std::vector<std::optional<std::string>> fields;
};

// Streams the rows of the COPY FROM input: `fn(line, fields)` per row, with
// nullopt for NULL; the views are valid only during the call. No per-field
// allocation: fields point into `data` or into one reused buffer.
using CopyRowFn = std::function<Status(size_t line, const std::vector<std::optional<std::string_view>>& fields)>;
Status for_each_copy_row(std::string_view data, const CopyFormat& format, const CopyRowFn& fn);

// The same split over input that arrives in pieces (CopyData messages cut
// anywhere): feed() passes every record completed so far to `fn`, finish()
// the last one. Line numbers run across pieces; after the text format's
// `\.` marker the rest is ignored. Keeps only the unfinished record.
class CopyRowSplitter {
 public:
  CopyRowSplitter(CopyFormat format, CopyRowFn fn)
      : format_(std::move(format)), fn_(std::move(fn)), skip_header_(format_.header) {}
  Status feed(std::string_view piece);
  Status finish();

 private:
  // The length of `data`'s prefix made of whole records.
  size_t complete_prefix(std::string_view data);

  CopyFormat format_;
  CopyRowFn fn_;
  std::string pending_;
  size_t lines_ = 0;
  bool skip_header_;
  bool ended_ = false;
  size_t scanned_ = 0;     // CSV: how far pending_ was scanned for quotes
  bool in_quote_ = false;  // CSV: the quote state at scanned_
};

// Splits the whole COPY FROM input (the concatenated CopyData payloads).
// The text format's `\.` end marker ends the data. Errors: 22P04
// ("bad copy file format") with the line number.
Result<std::vector<CopyRow>> parse_copy_data(std::string_view data, const CopyFormat& format);

// Appends one output line (with the trailing newline) for COPY TO.
void format_copy_row(const std::vector<std::optional<std::string>>& fields, const CopyFormat& format,
                     std::string* out);

}  // namespace tandem::frontend
