#pragma once
// Datum: one SQL value, a small trivially-copyable tagged union (32 bytes).
//
// Representations (chosen to match PostgreSQL's internal ones):
//   date         int32 days since 2000-01-01 (the PostgreSQL epoch)
//   time         int64 microseconds since midnight
//   timestamp    int64 microseconds since 2000-01-01 00:00:00
//   timestamptz  int64 microseconds since 2000-01-01 00:00:00 UTC
//   interval     (months, days, microseconds), each signed
//   mz_timestamp uint64 milliseconds since the Unix epoch
//   text/bytea   a std::string_view BORROWED from a Row or RowArena: the datum
//                is valid only while that storage lives.
//   array        BORROWED too: the elements packed as a Row (common/row.hpp),
//                one-dimensional with lower bound 1 (common/array.hpp).
//   jsonb        BORROWED: its order-preserving encoding (common/jsonb.hpp).
//                json is text (kString).
// date/timestamp infinities are INT32/INT64 min/max, as in PostgreSQL.
// The Datum kind says which representation is held; it does not carry the SQL
// type's modifiers or the text/varchar/bpchar distinction (that is the
// column's ColumnType).
// Threading: plain value; borrowed bytes follow their owner's rules.

#include <cstdint>
#include <cstring>
#include <string_view>

#include "common/numeric.hpp"

namespace tandem {

enum class DatumKind : uint8_t {
  kNull,
  kBool,
  kInt16,
  kInt32,
  kInt64,
  kFloat32,
  kFloat64,
  kNumeric,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kInterval,
  kOid,
  kMzTimestamp,
  kString,  // text, varchar, bpchar, unknown
  kBytes,   // bytea
  kArray,   // any array type: its elements as a packed Row
  kJsonb,   // jsonb: its order-preserving encoding (common/jsonb.hpp)
};

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
  bool operator==(const Interval&) const = default;
};

inline constexpr int64_t kUsecsPerSec = 1000000;
inline constexpr int64_t kUsecsPerMinute = 60 * kUsecsPerSec;
inline constexpr int64_t kUsecsPerHour = 60 * kUsecsPerMinute;
inline constexpr int64_t kUsecsPerDay = 24 * kUsecsPerHour;
inline constexpr int32_t kDateNegInfinity = INT32_MIN;
inline constexpr int32_t kDatePosInfinity = INT32_MAX;
inline constexpr int64_t kTimestampNegInfinity = INT64_MIN;
inline constexpr int64_t kTimestampPosInfinity = INT64_MAX;

class Datum {
 public:
  constexpr Datum() : kind_(DatumKind::kNull), u_{} {}
  static constexpr Datum null() { return Datum(); }
  static Datum from_bool(bool v) { Datum d(DatumKind::kBool); d.u_.i = v; return d; }
  static Datum from_int16(int16_t v) { Datum d(DatumKind::kInt16); d.u_.i = v; return d; }
  static Datum from_int32(int32_t v) { Datum d(DatumKind::kInt32); d.u_.i = v; return d; }
  static Datum from_int64(int64_t v) { Datum d(DatumKind::kInt64); d.u_.i = v; return d; }
  static Datum from_float32(float v) { Datum d(DatumKind::kFloat32); d.u_.f = v; return d; }
  static Datum from_float64(double v) { Datum d(DatumKind::kFloat64); d.u_.f = v; return d; }
  static Datum from_numeric(const Numeric& n) {
    Datum d(DatumKind::kNumeric);
    d.u_.coef = n.coef();
    d.aux_ = static_cast<uint8_t>(static_cast<uint8_t>(n.special()) | (n.pad() << 2));
    d.scale_ = static_cast<int16_t>(n.scale());
    return d;
  }
  static Datum from_date(int32_t days) { Datum d(DatumKind::kDate); d.u_.i = days; return d; }
  static Datum from_time(int64_t us) { Datum d(DatumKind::kTime); d.u_.i = us; return d; }
  static Datum from_timestamp(int64_t us) { Datum d(DatumKind::kTimestamp); d.u_.i = us; return d; }
  static Datum from_timestamptz(int64_t us) { Datum d(DatumKind::kTimestampTz); d.u_.i = us; return d; }
  static Datum from_interval(Interval iv) { Datum d(DatumKind::kInterval); d.u_.iv = iv; return d; }
  static Datum from_oid(uint32_t v) { Datum d(DatumKind::kOid); d.u_.i = v; return d; }
  static Datum from_mz_timestamp(uint64_t v) { Datum d(DatumKind::kMzTimestamp); d.u_.i = static_cast<int64_t>(v); return d; }
  // Borrowed: the bytes must outlive the datum.
  static Datum from_string(std::string_view s) { Datum d(DatumKind::kString); d.set_bytes(s); return d; }
  static Datum from_bytes(std::string_view s) { Datum d(DatumKind::kBytes); d.set_bytes(s); return d; }
  // `elements`: the packed Row of the elements (borrowed).
  static Datum from_array(std::string_view elements) { Datum d(DatumKind::kArray); d.set_bytes(elements); return d; }
  // `encoding`: common/jsonb.hpp's encoding (borrowed).
  static Datum from_jsonb(std::string_view encoding) { Datum d(DatumKind::kJsonb); d.set_bytes(encoding); return d; }

  DatumKind kind() const { return kind_; }
  bool is_null() const { return kind_ == DatumKind::kNull; }

  // REQUIRES: the matching kind.
  bool as_bool() const { return u_.i != 0; }
  int16_t as_int16() const { return static_cast<int16_t>(u_.i); }
  int32_t as_int32() const { return static_cast<int32_t>(u_.i); }
  int64_t as_int64() const { return u_.i; }
  float as_float32() const { return static_cast<float>(u_.f); }
  double as_float64() const { return u_.f; }
  Numeric as_numeric() const {
    const auto sp = static_cast<Numeric::Special>(aux_ & 3);
    if (sp == Numeric::Special::kFinite) return Numeric::from_stored(u_.coef, scale_, aux_ >> 2);
    return sp == Numeric::Special::kNaN ? Numeric::nan() : Numeric::infinity(sp == Numeric::Special::kNegInf);
  }
  int32_t as_date() const { return static_cast<int32_t>(u_.i); }
  int64_t as_time() const { return u_.i; }
  int64_t as_timestamp() const { return u_.i; }
  Interval as_interval() const { return u_.iv; }
  uint32_t as_oid() const { return static_cast<uint32_t>(u_.i); }
  uint64_t as_mz_timestamp() const { return static_cast<uint64_t>(u_.i); }
  std::string_view as_string() const { return std::string_view(u_.s.ptr, u_.s.len); }
  std::string_view as_bytes() const { return as_string(); }
  std::string_view as_array() const { return as_string(); }
  std::string_view as_jsonb() const { return as_string(); }
  // Integer kinds (int2/int4/int8/oid) widened.
  int64_t as_integer() const { return u_.i; }

 private:
  explicit Datum(DatumKind k) : kind_(k), u_{} {}
  void set_bytes(std::string_view s) { u_.s.ptr = s.data(); u_.s.len = s.size(); }

  DatumKind kind_;
  uint8_t aux_ = 0;     // numeric: Numeric::Special | pad << 2
  int16_t scale_ = 0;   // numeric: the coefficient's scale
  union U {
    int64_t i;  // bool, integers, date, time, timestamps, oid, mz_timestamp
    double f;   // float4 is stored widened; exact
    i128 coef;
    Interval iv;
    struct { const char* ptr; size_t len; } s;
  } u_;
};

static_assert(sizeof(Datum) == 32);
static_assert(std::is_trivially_copyable_v<Datum>);

// SQL comparison of two datums of the same kind (NULL sorts last and equals
// NULL here, as ORDER BY does): floats with NaN above everything and -0 == 0,
// numerics by value, intervals by their 30-day-month span, strings and bytes
// bytewise (C collation), arrays element by element (NULL elements equal
// and last; a prefix sorts first), jsonb in PostgreSQL's jsonb order.
// Returns <0, 0, >0.
int compare_datums(const Datum& a, const Datum& b);
inline bool datums_equal(const Datum& a, const Datum& b) { return compare_datums(a, b) == 0; }

// Interval ordering key (PostgreSQL's interval_cmp_value).
inline i128 interval_span(const Interval& iv) {
  return static_cast<i128>(iv.micros) +
         (static_cast<i128>(iv.days) + static_cast<i128>(iv.months) * 30) * kUsecsPerDay;
}

}  // namespace tandem
