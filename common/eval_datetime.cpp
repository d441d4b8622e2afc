// Date/time arithmetic, date_trunc and extract/date_part with PostgreSQL's
// semantics (month arithmetic clamps the day; timestamp - timestamp is
// justified into days + time; extract returns numeric, date_part float8).
#include <cctype>

#include "common/datetime.hpp"
#include "common/eval_internal.hpp"
#include "common/sqlstate.hpp"

namespace tandem::detail {
namespace {

Status ts_range() { return Status::error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); }
Status date_range() { return Status::error(sqlstate::kDatetimeFieldOverflow, "date out of range"); }

std::string lower(std::string_view s) {
  std::string r;
  for (char c : s) r.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return r;
}

// Canonical unit names with PostgreSQL's aliases.
std::string canonical_unit(std::string_view raw) {
  const std::string u = lower(raw);
  struct A { const char* alias; const char* unit; };
  static constexpr A kAliases[] = {
      {"microseconds", "microseconds"}, {"microsecond", "microseconds"}, {"us", "microseconds"}, {"usec", "microseconds"},
      {"usecs", "microseconds"}, {"milliseconds", "milliseconds"}, {"millisecond", "milliseconds"}, {"ms", "milliseconds"},
      {"msec", "milliseconds"}, {"msecs", "milliseconds"}, {"second", "second"}, {"seconds", "second"}, {"sec", "second"},
      {"secs", "second"}, {"s", "second"}, {"minute", "minute"}, {"minutes", "minute"}, {"min", "minute"}, {"mins", "minute"},
      {"m", "minute"}, {"hour", "hour"}, {"hours", "hour"}, {"hr", "hour"}, {"hrs", "hour"}, {"h", "hour"}, {"day", "day"},
      {"days", "day"}, {"d", "day"}, {"week", "week"}, {"weeks", "week"}, {"w", "week"}, {"month", "month"},
      {"months", "month"}, {"mon", "month"}, {"mons", "month"}, {"quarter", "quarter"}, {"qtr", "quarter"},
      {"year", "year"}, {"years", "year"}, {"yr", "year"}, {"yrs", "year"}, {"y", "year"}, {"decade", "decade"},
      {"decades", "decade"}, {"century", "century"}, {"centuries", "century"}, {"millennium", "millennium"},
      {"millennia", "millennium"}, {"dow", "dow"}, {"isodow", "isodow"}, {"doy", "doy"}, {"epoch", "epoch"},
      {"isoyear", "isoyear"}, {"timezone", "timezone"}, {"timezone_hour", "timezone_hour"},
      {"timezone_minute", "timezone_minute"}, {"julian", "julian"},
  };
  for (const auto& a : kAliases) {
    if (u == a.alias) return a.unit;
  }
  return u;
}

Status unit_error(std::string_view unit, std::string_view type, bool recognized) {
  return Status::error(recognized ? sqlstate::kFeatureNotSupported : sqlstate::kInvalidParameterValue,
                       "unit \"" + std::string(unit) + "\" " + (recognized ? "not supported" : "not recognized") +
                           " for type " + std::string(type));
}

bool known_unit(const std::string& u) {
  static constexpr const char* kUnits[] = {"microseconds", "milliseconds", "second", "minute", "hour", "day", "week",
                                           "month", "quarter", "year", "decade", "century", "millennium", "dow",
                                           "isodow", "doy", "epoch", "isoyear", "timezone", "timezone_hour",
                                           "timezone_minute", "julian"};
  for (const char* k : kUnits) {
    if (u == k) return true;
  }
  return false;
}

struct Fields {
  int64_t year;
  int month, day;
  int64_t tod;  // microseconds in the day
  int64_t days;
};

Fields split(int64_t ts) {
  Fields f;
  f.days = floor_div(ts, kUsecsPerDay);
  f.tod = ts - f.days * kUsecsPerDay;
  ymd_from_days(f.days, &f.year, &f.month, &f.day);
  return f;
}

// ISO 8601 week number and ISO year of a date.
void iso_week(int64_t days, int64_t* iso_year, int* week) {
  const int isodow = (day_of_week(days) + 6) % 7 + 1;  // Mon=1..Sun=7
  const int64_t thursday = days - isodow + 4;
  int64_t y;
  int m, d;
  ymd_from_days(thursday, &y, &m, &d);
  *iso_year = y;
  *week = static_cast<int>((thursday - days_from_ymd(y, 1, 1)) / 7 + 1);
}

Result<int64_t> trunc_timestamp(const std::string& unit, int64_t ts, std::string_view type) {
  if (ts == kTimestampNegInfinity || ts == kTimestampPosInfinity) return ts;
  Fields f = split(ts);
  int64_t y = f.year;
  int m = f.month, d = f.day;
  int64_t tod = f.tod;
  if (unit == "microseconds") return ts;
  if (unit == "milliseconds") return f.days * kUsecsPerDay + tod / 1000 * 1000;
  if (unit == "second") return f.days * kUsecsPerDay + tod / kUsecsPerSec * kUsecsPerSec;
  if (unit == "minute") return f.days * kUsecsPerDay + tod / kUsecsPerMinute * kUsecsPerMinute;
  if (unit == "hour") return f.days * kUsecsPerDay + tod / kUsecsPerHour * kUsecsPerHour;
  if (unit == "day") return f.days * kUsecsPerDay;
  if (unit == "week") return (f.days - (day_of_week(f.days) + 6) % 7) * kUsecsPerDay;
  if (unit == "month") d = 1;
  else if (unit == "quarter") { m = (m - 1) / 3 * 3 + 1; d = 1; }
  else if (unit == "year") { m = 1; d = 1; }
  else if (unit == "decade") { y = floor_div(y, 10) * 10; m = 1; d = 1; }
  else if (unit == "century") { y = y > 0 ? (y - 1) / 100 * 100 + 1 : -((99 - y) / 100) * 100 + 1; m = 1; d = 1; }
  else if (unit == "millennium") { y = y > 0 ? (y - 1) / 1000 * 1000 + 1 : -((999 - y) / 1000) * 1000 + 1; m = 1; d = 1; }
  else return unit_error(unit, type, known_unit(unit));
  return days_from_ymd(y, m, d) * kUsecsPerDay;
}

Numeric num(int64_t v) { return Numeric::from_int(v); }

Result<Numeric> extract_timestamp(const std::string& unit, int64_t ts, bool tz, bool is_date) {
  const std::string_view type = is_date ? "date" : tz ? "timestamp with time zone" : "timestamp without time zone";
  if (ts == kTimestampNegInfinity || ts == kTimestampPosInfinity) {
    if (unit == "epoch" || unit == "year" || unit == "decade" || unit == "century" || unit == "millennium" ||
        unit == "julian" || unit == "isoyear") {
      return Numeric::infinity(ts == kTimestampNegInfinity);
    }
    return Status::error(sqlstate::kFeatureNotSupported, "extract of infinite value");  // PG returns NULL
  }
  const Fields f = split(ts);
  const bool time_unit = unit == "microseconds" || unit == "milliseconds" || unit == "second" || unit == "minute" ||
                         unit == "hour" || unit == "timezone" || unit == "timezone_hour" || unit == "timezone_minute";
  if (is_date && time_unit) return unit_error(unit, type, true);
  if (unit == "microseconds") return num(f.tod % kUsecsPerMinute);
  if (unit == "milliseconds") return Numeric::from_parts(f.tod % kUsecsPerMinute, 3);
  if (unit == "second") return Numeric::from_parts(f.tod % kUsecsPerMinute, 6);
  if (unit == "minute") return num(f.tod / kUsecsPerMinute % 60);
  if (unit == "hour") return num(f.tod / kUsecsPerHour);
  if (unit == "day") return num(f.day);
  if (unit == "month") return num(f.month);
  if (unit == "quarter") return num((f.month - 1) / 3 + 1);
  if (unit == "year") return num(f.year > 0 ? f.year : f.year - 1);
  if (unit == "decade") return num(floor_div(f.year, 10));
  if (unit == "century") return num(f.year > 0 ? (f.year + 99) / 100 : -((99 - (f.year - 1)) / 100));
  if (unit == "millennium") return num(f.year > 0 ? (f.year + 999) / 1000 : -((999 - (f.year - 1)) / 1000));
  if (unit == "dow") return num(day_of_week(f.days));
  if (unit == "isodow") return num((day_of_week(f.days) + 6) % 7 + 1);
  if (unit == "doy") return num(f.days - days_from_ymd(f.year, 1, 1) + 1);
  if (unit == "week" || unit == "isoyear") {
    int64_t iy;
    int w;
    iso_week(f.days, &iy, &w);
    return num(unit == "week" ? w : (iy > 0 ? iy : iy - 1));
  }
  if (unit == "epoch") {
    const int64_t unix_us = ts + 946684800LL * kUsecsPerSec;
    return is_date ? num(floor_div(unix_us, kUsecsPerSec)) : Numeric::from_parts(unix_us, 6);
  }
  if (unit == "timezone" || unit == "timezone_hour" || unit == "timezone_minute") {
    if (!tz) return unit_error(unit, type, true);
    return num(0);  // session time zone is UTC
  }
  if (unit == "julian") {
    return Numeric::from_int(f.days + 2451545).add(Numeric::from_parts(f.tod, 6).div(Numeric::from_int(86400)).value());
  }
  return unit_error(unit, type, false);
}

Result<Numeric> extract_interval(const std::string& unit, const Interval& iv) {
  const int64_t t = iv.micros;
  if (unit == "microseconds") return num(t % kUsecsPerMinute);
  if (unit == "milliseconds") return Numeric::from_parts(t % kUsecsPerMinute, 3);
  if (unit == "second") return Numeric::from_parts(t % kUsecsPerMinute, 6);
  if (unit == "minute") return num(t / kUsecsPerMinute % 60);
  if (unit == "hour") return num(t / kUsecsPerHour);
  if (unit == "day") return num(iv.days);
  if (unit == "month") return num(iv.months % 12);
  if (unit == "quarter") return num(iv.months % 12 / 3 + 1);
  if (unit == "year") return num(iv.months / 12);
  if (unit == "decade") return num(iv.months / 120);
  if (unit == "century") return num(iv.months / 1200);
  if (unit == "millennium") return num(iv.months / 12000);
  if (unit == "epoch") {
    const i128 us = static_cast<i128>(t) + static_cast<i128>(iv.days) * kUsecsPerDay +
                    static_cast<i128>(iv.months / 12) * 31557600LL * kUsecsPerSec +
                    static_cast<i128>(iv.months % 12) * 30 * kUsecsPerDay;
    return Numeric::from_parts(us, 6);
  }
  return unit_error(unit, "interval", known_unit(unit));
}

Result<Numeric> extract_any(std::string_view raw_unit, const Datum& v) {
  const std::string unit = canonical_unit(raw_unit);
  switch (v.kind()) {
    case DatumKind::kTimestamp: return extract_timestamp(unit, v.as_timestamp(), false, false);
    case DatumKind::kTimestampTz: return extract_timestamp(unit, v.as_timestamp(), true, false);
    case DatumKind::kDate: {
      const int32_t d = v.as_date();
      const int64_t ts = d == kDateNegInfinity ? kTimestampNegInfinity
                         : d == kDatePosInfinity ? kTimestampPosInfinity : static_cast<int64_t>(d) * kUsecsPerDay;
      return extract_timestamp(unit, ts, false, true);
    }
    case DatumKind::kTime: {
      const int64_t t = v.as_time();
      if (unit == "microseconds") return num(t % kUsecsPerMinute);
      if (unit == "milliseconds") return Numeric::from_parts(t % kUsecsPerMinute, 3);
      if (unit == "second") return Numeric::from_parts(t % kUsecsPerMinute, 6);
      if (unit == "minute") return num(t / kUsecsPerMinute % 60);
      if (unit == "hour") return num(t / kUsecsPerHour);
      if (unit == "epoch") return Numeric::from_parts(t, 6);
      return unit_error(unit, "time without time zone", known_unit(unit));
    }
    case DatumKind::kInterval: return extract_interval(unit, v.as_interval());
    default:
      return Status::error(sqlstate::kInternalError, "extract on unexpected datum kind");
  }
}

}  // namespace

Result<Datum> eval_datetime_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx) {
  (void)ctx;
  switch (f) {
    case BinaryFunc::kAddDateInt4:
    case BinaryFunc::kSubDateInt4: {
      const int32_t d = a.as_date();
      if (d == kDateNegInfinity || d == kDatePosInfinity) return a;
      const int64_t r = static_cast<int64_t>(d) + (f == BinaryFunc::kAddDateInt4 ? b.as_integer() : -b.as_integer());
      if (!date_in_range(r)) return date_range();
      return Datum::from_date(static_cast<int32_t>(r));
    }
    case BinaryFunc::kSubDate: {
      if (a.as_date() == kDateNegInfinity || a.as_date() == kDatePosInfinity || b.as_date() == kDateNegInfinity ||
          b.as_date() == kDatePosInfinity) {
        return Status::error(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite dates");
      }
      return Datum::from_int32(a.as_date() - b.as_date());
    }
    case BinaryFunc::kAddDateInterval:
    case BinaryFunc::kSubDateInterval: {
      const int32_t d = a.as_date();
      if (d == kDateNegInfinity) return Datum::from_timestamp(kTimestampNegInfinity);
      if (d == kDatePosInfinity) return Datum::from_timestamp(kTimestampPosInfinity);
      Interval iv = b.as_interval();
      if (f == BinaryFunc::kSubDateInterval) iv = Interval{-iv.months, -iv.days, -iv.micros};
      TANDEM_ASSIGN_OR_RETURN(int64_t r, timestamp_add_interval(static_cast<int64_t>(d) * kUsecsPerDay, iv));
      return Datum::from_timestamp(r);
    }
    case BinaryFunc::kAddDateTime: {
      const int32_t d = a.as_date();
      if (d == kDateNegInfinity || d == kDatePosInfinity) {
        return Datum::from_timestamp(d == kDateNegInfinity ? kTimestampNegInfinity : kTimestampPosInfinity);
      }
      const int64_t r = static_cast<int64_t>(d) * kUsecsPerDay + b.as_time();
      if (!timestamp_in_range(r)) return ts_range();
      return Datum::from_timestamp(r);
    }
    case BinaryFunc::kAddTimestampInterval:
    case BinaryFunc::kSubTimestampInterval:
    case BinaryFunc::kAddTimestampTzInterval:
    case BinaryFunc::kSubTimestampTzInterval: {
      Interval iv = b.as_interval();
      if (f == BinaryFunc::kSubTimestampInterval || f == BinaryFunc::kSubTimestampTzInterval) {
        iv = Interval{-iv.months, -iv.days, -iv.micros};
      }
      TANDEM_ASSIGN_OR_RETURN(int64_t r, timestamp_add_interval(a.as_timestamp(), iv));
      return a.kind() == DatumKind::kTimestampTz ? Datum::from_timestamptz(r) : Datum::from_timestamp(r);
    }
    case BinaryFunc::kSubTimestamp:
    case BinaryFunc::kSubTimestampTz: {
      const int64_t x = a.as_timestamp(), y = b.as_timestamp();
      if (x == kTimestampNegInfinity || x == kTimestampPosInfinity || y == kTimestampNegInfinity ||
          y == kTimestampPosInfinity) {
        return Status::error(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite timestamps");
      }
      return Datum::from_interval(timestamp_diff(x, y));
    }
    case BinaryFunc::kAddTimeInterval:
      return Datum::from_time(floor_mod(a.as_time() + b.as_interval().micros % kUsecsPerDay, kUsecsPerDay));
    case BinaryFunc::kSubTimeInterval:
      return Datum::from_time(floor_mod(a.as_time() - b.as_interval().micros % kUsecsPerDay, kUsecsPerDay));
    case BinaryFunc::kSubTime: return Datum::from_interval(Interval{0, 0, a.as_time() - b.as_time()});
    case BinaryFunc::kDateTruncTimestamp:
    case BinaryFunc::kDateTruncTimestampTz: {
      const bool tz = f == BinaryFunc::kDateTruncTimestampTz;
      TANDEM_ASSIGN_OR_RETURN(int64_t r, trunc_timestamp(canonical_unit(a.as_string()), b.as_timestamp(),
                                                        tz ? "timestamp with time zone" : "timestamp without time zone"));
      return tz ? Datum::from_timestamptz(r) : Datum::from_timestamp(r);
    }
    case BinaryFunc::kDateTruncInterval: {
      const std::string unit = canonical_unit(a.as_string());
      Interval iv = b.as_interval();
      auto trunc_us = [&](int64_t q) { iv.micros = iv.micros / q * q; };
      if (unit == "microseconds") {}
      else if (unit == "milliseconds") trunc_us(1000);
      else if (unit == "second") trunc_us(kUsecsPerSec);
      else if (unit == "minute") trunc_us(kUsecsPerMinute);
      else if (unit == "hour") trunc_us(kUsecsPerHour);
      else if (unit == "day") iv.micros = 0;
      else if (unit == "month") { iv.micros = 0; iv.days = 0; }
      else if (unit == "quarter") { iv = Interval{iv.months / 3 * 3, 0, 0}; }
      else if (unit == "year") { iv = Interval{iv.months / 12 * 12, 0, 0}; }
      else if (unit == "decade") { iv = Interval{iv.months / 120 * 120, 0, 0}; }
      else if (unit == "century") { iv = Interval{iv.months / 1200 * 1200, 0, 0}; }
      else if (unit == "millennium") { iv = Interval{iv.months / 12000 * 12000, 0, 0}; }
      else return unit_error(unit, "interval", known_unit(unit));
      return Datum::from_interval(iv);
    }
    case BinaryFunc::kExtract: {
      TANDEM_ASSIGN_OR_RETURN(Numeric n, extract_any(a.as_string(), b));
      return Datum::from_numeric(n);
    }
    case BinaryFunc::kDatePart: {
      TANDEM_ASSIGN_OR_RETURN(Numeric n, extract_any(a.as_string(), b));
      return Datum::from_float64(n.to_double());
    }
    default:
      return Status::error(sqlstate::kInternalError, "unexpected function " + std::string(func_id(f)));
  }
}

}  // namespace tandem::detail
