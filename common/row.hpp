#pragma once
// Row: a packed, self-describing, ORDER-PRESERVING byte encoding of datums.
//
// Contract (what arrangements and RocksDB keys rely on):
//  * memcmp order of two rows whose columns have the same types is SQL
//    ORDER BY order: each column ascending in turn, NULLs last (PostgreSQL's
//    default), floats with NaN above +Infinity, numerics by value, intervals
//    by their span (1 mon = 30 days), text and bytea bytewise (C collation).
//  * Equal SQL values encode to equal bytes, except where the values are
//    distinguishable: -0.0/0.0 and all NaNs are normalized; numerics encode
//    their canonical value first and the display scale after it (1.0 and 1.00
//    tie on the value and differ on the trailing scale byte), and intervals
//    their span first then the (months, days, micros) fields.
//    EXCEPTION to the multi-column order: two such SQL-equal values with
//    different display forms are ordered by that form before the next
//    column is compared ((1.0,'b') sorts before (1.00,'a')).
//  * Key mode (RowPacker::set_normalize_numeric) drops the display scale, so
//    SQL-equal numerics are byte-equal and the order is exact across columns;
//    use it for arrangement keys, GROUP BY/DISTINCT/join keys and sort keys.
//    The decoded value then prints in its shortest form (1.00 -> 1).
//    Intervals stay exact in both modes ('1 mon' and '30 days' are distinct
//    keys, unlike PostgreSQL's interval equality).
//  * Each datum starts with a tag byte naming its DatumKind, so a row decodes
//    without its schema.
// Encoding per datum: tag, then big-endian sign-flipped integers, IEEE floats
// with the sign trick, decimal exponent + base-100 digit pairs for numerics,
// and strings with 0x00 escaped as 00 FF and terminated by 00 01.
// A string containing 0x00 (only bytea can) cannot be borrowed from the row
// bytes; decoding it needs a RowArena.
// Threading: Row is a value; RowRef borrows the bytes of a Row.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/datum.hpp"
#include "common/row_arena.hpp"

namespace tandem {

class RowRef {
 public:
  RowRef() = default;
  explicit RowRef(std::string_view bytes) : bytes_(bytes) {}
  std::string_view bytes() const { return bytes_; }
  size_t size() const { return bytes_.size(); }
  bool empty() const { return bytes_.empty(); }
  friend bool operator==(RowRef a, RowRef b) { return a.bytes_ == b.bytes_; }
  friend auto operator<=>(RowRef a, RowRef b) { return a.bytes_.compare(b.bytes_) <=> 0; }

 private:
  std::string_view bytes_;
};

class Row {
 public:
  Row() = default;
  explicit Row(std::string bytes) : bytes_(std::move(bytes)) {}
  // Packs the datums in order.
  static Row pack(std::span<const Datum> datums);
  static Row pack_one(const Datum& d) { return pack(std::span<const Datum>(&d, 1)); }

  RowRef ref() const { return RowRef(bytes_); }
  operator RowRef() const { return ref(); }  // NOLINT: a Row is viewable as a RowRef
  std::string_view bytes() const { return bytes_; }
  size_t size() const { return bytes_.size(); }
  void clear() { bytes_.clear(); }
  friend bool operator==(const Row& a, const Row& b) { return a.bytes_ == b.bytes_; }
  friend auto operator<=>(const Row& a, const Row& b) { return a.bytes_.compare(b.bytes_) <=> 0; }

 private:
  friend class RowPacker;
  std::string bytes_;
};

// Appends datums to a Row (or to any std::string buffer, e.g. a RocksDB key
// after a prefix). Reuses the buffer's capacity.
class RowPacker {
 public:
  explicit RowPacker(Row* row) : out_(&row->bytes_) {}
  explicit RowPacker(std::string* buffer) : out_(buffer) {}
  // Key mode: numerics lose their display scale (see the file comment).
  void set_normalize_numeric(bool on) { normalize_numeric_ = on; }
  void push(const Datum& d);
  void push_all(std::span<const Datum> ds) {
    for (const auto& d : ds) push(d);
  }
  void push_null() { push(Datum::null()); }

 private:
  std::string* out_;
  bool normalize_numeric_ = false;
};

// Forward iterator over the datums of a row. Strings are borrowed from the
// row's bytes; a bytea containing 0x00 is unescaped into `arena`
// (REQUIRES: arena != nullptr for such rows).
class RowIter {
 public:
  explicit RowIter(RowRef row, RowArena* arena = nullptr) : p_(row.bytes().data()), end_(p_ + row.size()), arena_(arena) {}
  bool done() const { return p_ >= end_; }
  // REQUIRES: !done().
  Datum next();
  // Skips one datum without materialising it.
  void skip();
  // Skips one datum and returns its packed bytes (a one-datum row).
  std::string_view next_packed() {
    const char* start = p_;
    skip();
    return std::string_view(start, static_cast<size_t>(p_ - start));
  }

 private:
  const char* p_;
  const char* end_;
  RowArena* arena_;
};

std::vector<Datum> unpack(RowRef row, RowArena* arena = nullptr);
// Clears `out` and appends the datums (keeps its capacity).
void unpack_into(RowRef row, std::vector<Datum>* out, RowArena* arena = nullptr);
// The first datum of a one-datum row (literals).
Datum unpack_one(RowRef row, RowArena* arena = nullptr);
// Number of datums in the row.
size_t row_arity(RowRef row);
// The packed bytes of each datum of `row`, in order (each is a one-datum
// row, so they concatenate into rows). Clears `out` first. Lets row-wise
// operators project or key a row by copying bytes instead of decoding and
// re-encoding it.
void split_packed(RowRef row, std::vector<std::string_view>* out);
// On one packed datum from split_packed: is it NULL; and are its bytes the
// same in key mode (RowPacker::set_normalize_numeric), true for every kind
// but numeric (and arrays and jsonb holding numerics that show a display scale).
bool packed_is_null(std::string_view datum);
bool packed_is_key_mode(std::string_view datum);

// Fast 64-bit hash of the row bytes, stable across processes and runs
// (usable for exchanging rows between workers by key).
uint64_t hash_row(RowRef row);
uint64_t hash_bytes(std::string_view bytes, uint64_t seed = 0);

}  // namespace tandem
