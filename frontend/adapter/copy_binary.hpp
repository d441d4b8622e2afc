#pragma once
// PostgreSQL's binary COPY format (COPY ... (FORMAT binary)): an 11-byte
// signature "PGCOPY\n\377\r\n\0", a 32-bit flags word (bit 16: OIDs
// included, which tandem refuses; the other high bits must be 0) and a
// 32-bit header-extension length whose bytes are skipped; then one tuple
// per row: a 16-bit field count, and per field a 32-bit length (-1 for
// NULL) and that many bytes in the type's binary send/recv format; then a
// 16-bit -1 trailer. All integers are big-endian (network order).
//
// The writer side appends pieces to an output buffer; BinaryCopyReader
// splits COPY FROM input that arrives in pieces cut anywhere. Errors are
// 22P04 ("bad copy file format") naming the tuple. Threading: pure.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace tandem::frontend {

void append_binary_copy_header(std::string* out);
void append_binary_copy_trailer(std::string* out);

class BinaryCopyReader {
 public:
  // Called per tuple (`tuple` counts from 1) with each field's bytes,
  // nullopt for NULL; the views are valid only during the call.
  using TupleFn = std::function<Status(size_t tuple, const std::vector<std::optional<std::string_view>>& fields)>;
  explicit BinaryCopyReader(TupleFn fn) : fn_(std::move(fn)) {}

  Status feed(std::string_view piece);
  // The end of the input: an unfinished header or tuple is an error; the
  // trailer may be missing, as PostgreSQL allows.
  Status finish();

 private:
  // Consumes what `pending_` holds of whole header/tuples.
  Status drain();

  TupleFn fn_;
  std::string pending_;
  bool header_done_ = false;
  bool ended_ = false;  // the trailer was read
  size_t tuples_ = 0;
  std::vector<std::optional<std::string_view>> fields_;
};

}  // namespace tandem::frontend
