// cast_datum (declared in common/eval.hpp): PostgreSQL cast semantics between
// all pairs of supported types. Numeric/integer/float conversions use the
// dedicated PostgreSQL routines (numeric -> int rounds half away from zero,
// float -> int rounds half to even like rint); every other pair goes through
// the text I/O functions, as PostgreSQL's I/O conversion casts do.
#include <cmath>

#include "common/array.hpp"
#include "common/datetime.hpp"
#include "common/eval.hpp"
#include "common/eval_internal.hpp"
#include "common/sqlstate.hpp"
#include "common/value_io.hpp"

namespace tandem {
namespace {

constexpr int64_t kUnixEpochUs = 946684800LL * kUsecsPerSec;  // 2000-01-01 - 1970-01-01

Status int_range(TypeId t) {
  const char* msg = t == TypeId::kInt2 ? "smallint out of range" : t == TypeId::kInt4 ? "integer out of range"
                                                                                       : "bigint out of range";
  return Status::error(sqlstate::kNumericValueOutOfRange, msg);
}

Result<Datum> make_int(int64_t v, TypeId t) {
  switch (t) {
    case TypeId::kInt2:
      if (v < INT16_MIN || v > INT16_MAX) return int_range(t);
      return Datum::from_int16(static_cast<int16_t>(v));
    case TypeId::kInt4:
      if (v < INT32_MIN || v > INT32_MAX) return int_range(t);
      return Datum::from_int32(static_cast<int32_t>(v));
    default:
      return Datum::from_int64(v);
  }
}

Result<Datum> float_to_int(double f, TypeId t) {
  f = std::nearbyint(f);  // rint: half to even, as PostgreSQL
  if (std::isnan(f)) return int_range(t);
  // -2^63 <= f < 2^63 fits int64.
  if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0)) return int_range(t);
  return make_int(static_cast<int64_t>(f), t);
}

Result<Datum> to_float4(double v) {
  const float f = static_cast<float>(v);
  if (std::isinf(f) && !std::isinf(v)) {
    return Status::error(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
  }
  if (f == 0 && v != 0) return Status::error(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
  return Datum::from_float32(f);
}

Result<Datum> to_numeric(const Numeric& n, const ColumnType& to) {
  TANDEM_ASSIGN_OR_RETURN(Numeric m, n.apply_typmod(to.typmod));
  return Datum::from_numeric(m);
}

Status mz_range() { return Status::error(sqlstate::kNumericValueOutOfRange, "mz_timestamp out of range"); }

Result<Datum> from_numberish(const Datum& d, TypeId from, const ColumnType& to) {
  // from is an integer, float or numeric type.
  const bool is_int = is_integer_type(from) || from == TypeId::kOid;
  switch (to.id) {
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
      if (is_int) return make_int(d.as_integer(), to.id);
      if (from == TypeId::kNumeric) {
        const Numeric n = d.as_numeric();
        if (to.id == TypeId::kInt2) { TANDEM_ASSIGN_OR_RETURN(int16_t v, n.to_int16()); return Datum::from_int16(v); }
        if (to.id == TypeId::kInt4) { TANDEM_ASSIGN_OR_RETURN(int32_t v, n.to_int32()); return Datum::from_int32(v); }
        TANDEM_ASSIGN_OR_RETURN(int64_t v, n.to_int64());
        return Datum::from_int64(v);
      }
      return float_to_int(d.as_float64(), to.id);
    case TypeId::kFloat4:
      if (is_int) return Datum::from_float32(static_cast<float>(d.as_integer()));
      if (from == TypeId::kNumeric) return to_float4(d.as_numeric().to_double());
      return to_float4(d.as_float64());
    case TypeId::kFloat8:
      if (is_int) return Datum::from_float64(static_cast<double>(d.as_integer()));
      if (from == TypeId::kNumeric) return Datum::from_float64(d.as_numeric().to_double());
      return Datum::from_float64(d.as_float64());
    case TypeId::kNumeric:
      if (is_int) return to_numeric(Numeric::from_int(d.as_integer()), to);
      if (from == TypeId::kNumeric) return to_numeric(d.as_numeric(), to);
      if (from == TypeId::kFloat4) {
        TANDEM_ASSIGN_OR_RETURN(Numeric n, Numeric::from_float(d.as_float32()));
        return to_numeric(n, to);
      } else {
        TANDEM_ASSIGN_OR_RETURN(Numeric n, Numeric::from_double(d.as_float64()));
        return to_numeric(n, to);
      }
    case TypeId::kOid: {
      if (!is_int) break;
      const int64_t v = d.as_integer();
      if (from == TypeId::kInt8 && (v < 0 || v > UINT32_MAX)) {
        return Status::error(sqlstate::kNumericValueOutOfRange, "OID out of range");
      }
      return Datum::from_oid(static_cast<uint32_t>(v));
    }
    case TypeId::kBool:
      if (from == TypeId::kInt4) return Datum::from_bool(d.as_integer() != 0);
      break;
    case TypeId::kMzTimestamp: {
      int64_t v;
      if (is_int) {
        v = d.as_integer();
      } else if (from == TypeId::kNumeric) {
        TANDEM_ASSIGN_OR_RETURN(v, d.as_numeric().to_int64());
      } else {
        break;
      }
      if (v < 0) return mz_range();
      return Datum::from_mz_timestamp(static_cast<uint64_t>(v));
    }
    default:
      break;
  }
  return Status::error(sqlstate::kCannotCoerce,
                       "cannot cast type " + std::string(type_name(from)) + " to " + format_type(to));
}

bool numberish(TypeId t) {
  return is_integer_type(t) || t == TypeId::kFloat4 || t == TypeId::kFloat8 || t == TypeId::kNumeric ||
         t == TypeId::kOid;
}

Result<Datum> to_string_type(const Datum& d, const ColumnType& from, const ColumnType& to, bool explicit_cast,
                             RowArena& arena) {
  std::string_view s;
  if (is_string_type(from.id)) {
    s = d.as_string();
    if (from.id == TypeId::kBpchar && to.id != TypeId::kBpchar) {
      while (!s.empty() && s.back() == ' ') s.remove_suffix(1);  // char(n) -> text drops the padding
    }
  } else if (from.id == TypeId::kBool) {
    s = d.as_bool() ? "true" : "false";  // booltext, unlike boolout's t/f
  } else {
    std::string text;
    format_datum(d, from, &text);
    s = arena.push(text);
  }
  TANDEM_ASSIGN_OR_RETURN(std::string_view r, coerce_char_length(s, to, explicit_cast, arena));
  return Datum::from_string(r);
}

}  // namespace

Result<Datum> cast_datum(const Datum& d, const ColumnType& from, const ColumnType& to, bool explicit_cast,
                         RowArena& arena) {
  if (d.is_null()) return d;
  if (is_array_type(from.id) && is_array_type(to.id)) {
    if (from.same_type(to)) return d;
    return cast_array(d, from, to, explicit_cast, arena);
  }
  if (from.id == TypeId::kJsonb || from.id == TypeId::kJson) {
    if (auto r = detail::cast_json(d, from, to, arena)) return std::move(*r);
  }
  if (is_string_type(to.id) && to.id != TypeId::kUnknown) return to_string_type(d, from, to, explicit_cast, arena);
  if (is_string_type(from.id)) return parse_datum(d.as_string(), to, arena);
  if (numberish(from.id) && from.id != to.id) return from_numberish(d, from.id, to);
  switch (to.id) {
    case TypeId::kNumeric:
      if (from.id == TypeId::kNumeric) return to_numeric(d.as_numeric(), to);
      break;
    case TypeId::kInt4:
      if (from.id == TypeId::kBool) return Datum::from_int32(d.as_bool() ? 1 : 0);
      if (from.id == TypeId::kInt4) return d;
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      int64_t us;
      if (from.id == TypeId::kDate) {
        const int32_t days = d.as_date();
        if (days == kDateNegInfinity) us = kTimestampNegInfinity;
        else if (days == kDatePosInfinity) us = kTimestampPosInfinity;
        else us = static_cast<int64_t>(days) * kUsecsPerDay;
        if (!timestamp_in_range(us) && days != kDateNegInfinity && days != kDatePosInfinity) {
          return Status::error(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp");
        }
      } else if (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz) {
        us = d.as_timestamp();
      } else if (from.id == TypeId::kMzTimestamp) {
        const uint64_t ms = d.as_mz_timestamp();
        if (ms > static_cast<uint64_t>(INT64_MAX / 1000)) return Status::error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
        us = static_cast<int64_t>(ms) * 1000 - kUnixEpochUs;
        if (!timestamp_in_range(us)) return Status::error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
      } else {
        break;
      }
      return to.id == TypeId::kTimestamp ? Datum::from_timestamp(us) : Datum::from_timestamptz(us);
    }
    case TypeId::kDate:
      if (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz) {
        const int64_t us = d.as_timestamp();
        if (us == kTimestampNegInfinity) return Datum::from_date(kDateNegInfinity);
        if (us == kTimestampPosInfinity) return Datum::from_date(kDatePosInfinity);
        return Datum::from_date(static_cast<int32_t>(floor_div(us, kUsecsPerDay)));
      }
      if (from.id == TypeId::kDate) return d;
      break;
    case TypeId::kTime:
      if (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz) {
        const int64_t us = d.as_timestamp();
        if (us == kTimestampNegInfinity || us == kTimestampPosInfinity) return Datum::null();
        return Datum::from_time(floor_mod(us, kUsecsPerDay));
      }
      if (from.id == TypeId::kInterval) return Datum::from_time(floor_mod(d.as_interval().micros, kUsecsPerDay));
      if (from.id == TypeId::kTime) return d;
      break;
    case TypeId::kInterval:
      if (from.id == TypeId::kTime) return Datum::from_interval(Interval{0, 0, d.as_time()});
      if (from.id == TypeId::kInterval) return d;
      break;
    case TypeId::kMzTimestamp:
      if (from.id == TypeId::kMzTimestamp) return d;
      if (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz || from.id == TypeId::kDate) {
        int64_t us = from.id == TypeId::kDate ? static_cast<int64_t>(d.as_date()) * kUsecsPerDay : d.as_timestamp();
        if (us == kTimestampNegInfinity || us == kTimestampPosInfinity ||
            (from.id == TypeId::kDate && (d.as_date() == kDatePosInfinity || d.as_date() == kDateNegInfinity))) {
          return mz_range();
        }
        us += kUnixEpochUs;
        if (us < 0) return mz_range();
        return Datum::from_mz_timestamp(static_cast<uint64_t>(us / 1000));
      }
      break;
    default:
      if (from.id == to.id) return d;
      break;
  }
  if (from.id == to.id) return d;
  return Status::error(sqlstate::kCannotCoerce,
                       "cannot cast type " + format_type(from) + " to " + format_type(to));
}

}  // namespace tandem
