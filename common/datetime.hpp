#pragma once
// Calendar arithmetic and PostgreSQL-compatible text formats for date, time,
// timestamp, timestamptz and interval (DateStyle ISO, IntervalStyle postgres,
// session time zone UTC). Representations are those documented in
// common/datum.hpp (microseconds / days since 2000-01-01).
//
// Input accepted: ISO dates `2024-01-31` (also `20240131`, with `BC`/`AD`),
// times `12:34[:56[.789]]`, `T` or space between date and time, zones `Z`,
// `UTC`, `GMT`, `+02`, `+0530`, `-05:30`; `infinity`, `-infinity`, `epoch`.
// Intervals: `1 year 2 mons 3 days 04:05:06`, `-1 days +02:00:00`, units
// with fractions (`1.5 days`), `ago`, `@`, and ISO 8601 `P1Y2M3DT4H5M6S`.
// Time-dependent words (now, today, ...) and named time zones other than UTC
// are 0A000. Errors use PostgreSQL's messages: 22007 invalid input syntax,
// 22008 field value out of range / timestamp out of range.
// Threading: pure functions.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/datum.hpp"
#include "common/status.hpp"

namespace tandem {

// Days since 2000-01-01 of a proleptic Gregorian date; year 0 is 1 BC.
int64_t days_from_ymd(int64_t year, int month, int day);
void ymd_from_days(int64_t days, int64_t* year, int* month, int* day);
bool is_leap_year(int64_t year);
int days_in_month(int64_t year, int month);
// 0 = Sunday.
int day_of_week(int64_t days);

// Validity of finite values (PostgreSQL's ranges: dates 4714-11-24 BC to
// 5874897-12-31, timestamps 4714-11-24 BC to 294276-12-31).
bool date_in_range(int64_t days);
bool timestamp_in_range(int64_t micros);

void format_date(int32_t days, std::string* out);
void format_time(int64_t micros, std::string* out);
void format_timestamp(int64_t micros, bool with_tz, std::string* out);
void format_interval(const Interval& iv, std::string* out);

Result<int32_t> parse_date(std::string_view text);
Result<int64_t> parse_time(std::string_view text);
Result<int64_t> parse_timestamp(std::string_view text, bool with_tz);
Result<Interval> parse_interval(std::string_view text);

// Timestamp <-> date/time parts helpers used by evaluation.
inline int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
inline int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

// timestamp + interval with PostgreSQL's month arithmetic (day clamped to
// the month's length); 22008 "timestamp out of range".
Result<int64_t> timestamp_add_interval(int64_t ts, const Interval& iv);
// PostgreSQL's interval_justify_hours-style difference of two timestamps.
Interval timestamp_diff(int64_t a, int64_t b);

}  // namespace tandem
