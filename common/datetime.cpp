#include "common/datetime.hpp"

#include <cctype>
#include <cstdio>

#include "common/sqlstate.hpp"

namespace tandem {
namespace {

constexpr int64_t kDaysFrom1970To2000 = 10957;
// PostgreSQL's range: Julian day 0 (4714-11-24 BC) .. 5874897-12-31 for
// dates, .. 294276-12-31 for timestamps.
constexpr int64_t kMinDate = -2451545;
constexpr int64_t kMaxDate = 2147483494 - 2451545 - 1;
constexpr int64_t kMinTimestamp = -211813488000000000LL;
constexpr int64_t kEndTimestamp = 9223371331200000000LL;

Status syntax_error(std::string_view type, std::string_view text) {
  return Status::error(sqlstate::kInvalidDatetimeFormat,
                       "invalid input syntax for type " + std::string(type) + ": \"" + std::string(text) + "\"");
}
Status field_range_error(std::string_view text) {
  return Status::error(sqlstate::kDatetimeFieldOverflow,
                       "date/time field value out of range: \"" + std::string(text) + "\"");
}

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

void append_padded(std::string* out, int64_t v, int width) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%0*lld", width, static_cast<long long>(v));
  out->append(buf);
}

// Appends ":SS[.ffffff]" style seconds with trailing zeros trimmed.
void append_seconds(std::string* out, int64_t sec, int64_t frac_us) {
  append_padded(out, sec, 2);
  if (frac_us) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(frac_us));
    std::string_view f(buf);
    while (f.back() == '0') f.remove_suffix(1);
    out->append(f);
  }
}

bool is_time_word(std::string_view s) {
  return ieq(s, "now") || ieq(s, "today") || ieq(s, "tomorrow") || ieq(s, "yesterday") || ieq(s, "allballs");
}

// Cursor over the input for the hand-written parsers.
struct Scanner {
  std::string_view s;
  size_t i = 0;
  bool at_end() const { return i >= s.size(); }
  char peek() const { return at_end() ? '\0' : s[i]; }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  // Reads up to max_digits digits; returns the count read.
  int digits(int64_t* v, int max_digits = 18) {
    int n = 0;
    *v = 0;
    while (!at_end() && n < max_digits && std::isdigit(static_cast<unsigned char>(s[i]))) {
      *v = *v * 10 + (s[i] - '0');
      ++i;
      ++n;
    }
    return n;
  }
  // Fraction after '.', as microseconds rounded half up; false if no digits.
  bool fraction_us(int64_t* us) {
    int n = 0;
    int64_t v = 0;
    bool round_up = false;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (n < 6) v = v * 10 + (s[i] - '0');
      else if (n == 6) round_up = s[i] >= '5';
      ++n;
      ++i;
    }
    if (n == 0) return false;
    for (int k = n; k < 6; ++k) v *= 10;
    *us = v + (round_up ? 1 : 0);
    return true;
  }
};

enum class ParseOutcome { kOk, kSyntax, kRange };

// Parses "HH:MM[:SS[.frac]]" at the scanner. 24:00:00 is allowed.
ParseOutcome parse_clock(Scanner* sc, int64_t* micros) {
  int64_t h, m, s = 0, frac = 0;
  if (sc->digits(&h, 9) == 0) return ParseOutcome::kSyntax;
  if (sc->peek() != ':') return ParseOutcome::kSyntax;
  ++sc->i;
  if (sc->digits(&m, 2) != 2 && !(m < 10)) return ParseOutcome::kSyntax;
  if (sc->peek() == ':') {
    ++sc->i;
    if (sc->digits(&s, 2) == 0) return ParseOutcome::kSyntax;
    if (sc->peek() == '.') {
      ++sc->i;
      if (!sc->fraction_us(&frac)) frac = 0;
    }
  }
  if (h > 24 || m > 59 || s > 60) return ParseOutcome::kRange;
  if (h == 24 && (m != 0 || s != 0 || frac != 0)) return ParseOutcome::kRange;
  *micros = ((h * 60 + m) * 60 + s) * kUsecsPerSec + frac;
  return ParseOutcome::kOk;
}

// Parses an optional zone at the scanner: Z, UTC, GMT, +HH[[:]MM[[:]SS]].
// Returns false on syntax errors; sets *offset_secs (east positive).
Result<bool> parse_zone(Scanner* sc, int64_t* offset_secs, bool* present) {
  *present = false;
  *offset_secs = 0;
  sc->skip_space();
  if (sc->at_end()) return true;
  const char c = sc->peek();
  if (c == '+' || c == '-') {
    const bool neg = c == '-';
    ++sc->i;
    int64_t h = 0, m = 0, s = 0;
    const int nh = sc->digits(&h, 4);
    if (nh == 0) return false;
    if (nh > 2) {  // +HHMM
      if (nh != 4) return false;
      m = h % 100;
      h /= 100;
    } else if (sc->peek() == ':') {
      ++sc->i;
      if (sc->digits(&m, 2) != 2) return false;
      if (sc->peek() == ':') {
        ++sc->i;
        if (sc->digits(&s, 2) != 2) return false;
      }
    }
    if (h > 15 || m > 59 || s > 59) {
      return Status::error(sqlstate::kInvalidTimeZoneDisplacement, "time zone displacement out of range");
    }
    *offset_secs = (neg ? -1 : 1) * (h * 3600 + m * 60 + s);
    *present = true;
    return true;
  }
  size_t j = sc->i;
  while (j < sc->s.size() && (std::isalpha(static_cast<unsigned char>(sc->s[j])) || sc->s[j] == '/' || sc->s[j] == '_')) ++j;
  std::string_view word = sc->s.substr(sc->i, j - sc->i);
  if (word.empty()) return false;
  if (ieq(word, "z") || ieq(word, "utc") || ieq(word, "gmt") || ieq(word, "zulu") || ieq(word, "etc/utc")) {
    sc->i = j;
    *present = true;
    return true;
  }
  if (ieq(word, "bc") || ieq(word, "ad")) return true;  // era, handled by caller
  return Status::error(sqlstate::kFeatureNotSupported,
                       "time zone \"" + std::string(word) + "\" is not supported (only UTC and numeric offsets)");
}

struct DateParts {
  int64_t year = 0;
  int month = 0, day = 0;
};

ParseOutcome parse_ymd(Scanner* sc, DateParts* d) {
  int64_t y, m, dd;
  const int ny = sc->digits(&y, 9);
  if (ny == 0) return ParseOutcome::kSyntax;
  if (ny == 8 && sc->peek() != '-') {  // YYYYMMDD
    d->year = y / 10000;
    d->month = static_cast<int>(y / 100 % 100);
    d->day = static_cast<int>(y % 100);
  } else {
    const char sep = sc->peek();
    if (sep != '-' && sep != '/' && sep != '.') return ParseOutcome::kSyntax;
    ++sc->i;
    if (sc->digits(&m, 2) == 0 || sc->peek() != sep) return ParseOutcome::kSyntax;
    ++sc->i;
    if (sc->digits(&dd, 2) == 0) return ParseOutcome::kSyntax;
    if (ny <= 2) return ParseOutcome::kSyntax;  // only year-first (ISO) order
    d->year = y;
    d->month = static_cast<int>(m);
    d->day = static_cast<int>(dd);
  }
  return ParseOutcome::kOk;
}

// Optional trailing "BC"/"AD"; converts year to astronomical numbering.
bool parse_era(Scanner* sc, DateParts* d) {
  sc->skip_space();
  if (sc->at_end()) return true;
  std::string_view rest = sc->s.substr(sc->i);
  if (ieq(rest.substr(0, 2), "bc")) {
    d->year = 1 - d->year;
    sc->i += 2;
    return true;
  }
  if (ieq(rest.substr(0, 2), "ad")) {
    sc->i += 2;
    return true;
  }
  return true;
}

bool valid_ymd(const DateParts& d) {
  return d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= days_in_month(d.year, d.month);
}

}  // namespace

bool is_leap_year(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap_year(y) ? 29 : kDays[m - 1];
}

int64_t days_from_ymd(int64_t y, int m, int d) {
  // Howard Hinnant's days_from_civil, then shifted to the 2000 epoch.
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468 - kDaysFrom1970To2000;
}

void ymd_from_days(int64_t days, int64_t* year, int* month, int* day) {
  const int64_t z = days + kDaysFrom1970To2000 + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (m <= 2);
  *month = m;
  *day = d;
}

int day_of_week(int64_t days) { return static_cast<int>(floor_mod(days + 6, 7)); }  // 2000-01-01 was a Saturday

bool date_in_range(int64_t days) { return days >= kMinDate && days <= kMaxDate; }
bool timestamp_in_range(int64_t us) { return us >= kMinTimestamp && us < kEndTimestamp; }

void format_date(int32_t days, std::string* out) {
  if (days == kDateNegInfinity) { out->append("-infinity"); return; }
  if (days == kDatePosInfinity) { out->append("infinity"); return; }
  int64_t y;
  int m, d;
  ymd_from_days(days, &y, &m, &d);
  const bool bc = y <= 0;
  append_padded(out, bc ? 1 - y : y, 4);
  out->push_back('-');
  append_padded(out, m, 2);
  out->push_back('-');
  append_padded(out, d, 2);
  if (bc) out->append(" BC");
}

void format_time(int64_t us, std::string* out) {
  const int64_t h = us / kUsecsPerHour;
  const int64_t m = us / kUsecsPerMinute % 60;
  const int64_t s = us / kUsecsPerSec % 60;
  append_padded(out, h, 2);
  out->push_back(':');
  append_padded(out, m, 2);
  out->push_back(':');
  append_seconds(out, s, us % kUsecsPerSec);
}

void format_timestamp(int64_t us, bool with_tz, std::string* out) {
  if (us == kTimestampNegInfinity) { out->append("-infinity"); return; }
  if (us == kTimestampPosInfinity) { out->append("infinity"); return; }
  const int64_t days = floor_div(us, kUsecsPerDay);
  const int64_t tod = us - days * kUsecsPerDay;
  int64_t y;
  int m, d;
  ymd_from_days(days, &y, &m, &d);
  const bool bc = y <= 0;
  append_padded(out, bc ? 1 - y : y, 4);
  out->push_back('-');
  append_padded(out, m, 2);
  out->push_back('-');
  append_padded(out, d, 2);
  out->push_back(' ');
  format_time(tod, out);
  if (with_tz) out->append("+00");
  if (bc) out->append(" BC");
}

void format_interval(const Interval& iv, std::string* out) {
  bool is_zero = true, is_before = false;
  auto part = [&](int64_t v, const char* unit) {
    if (v == 0) return;
    if (!is_zero) out->push_back(' ');
    if (is_before && v > 0) out->push_back('+');
    out->append(std::to_string(v));
    out->push_back(' ');
    out->append(unit);
    if (v != 1) out->push_back('s');
    is_before = v < 0;
    is_zero = false;
  };
  part(iv.months / 12, "year");
  part(iv.months % 12, "mon");
  part(iv.days, "day");
  const int64_t t = iv.micros;
  if (is_zero || t != 0) {
    const int64_t h = t / kUsecsPerHour;
    const int64_t m = t / kUsecsPerMinute % 60;
    const int64_t s = t / kUsecsPerSec % 60;
    const int64_t f = t % kUsecsPerSec;
    const bool minus = t < 0;
    if (!is_zero) out->push_back(' ');
    if (minus) out->push_back('-');
    else if (is_before) out->push_back('+');
    append_padded(out, h < 0 ? -h : h, 2);
    out->push_back(':');
    append_padded(out, m < 0 ? -m : m, 2);
    out->push_back(':');
    append_seconds(out, s < 0 ? -s : s, f < 0 ? -f : f);
  }
}

Result<int32_t> parse_date(std::string_view text) {
  std::string_view t = trim(text);
  if (ieq(t, "infinity") || ieq(t, "+infinity")) return kDatePosInfinity;
  if (ieq(t, "-infinity")) return kDateNegInfinity;
  if (ieq(t, "epoch")) return static_cast<int32_t>(-kDaysFrom1970To2000);
  if (is_time_word(t)) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         "date input \"" + std::string(t) + "\" depends on the current time and is not supported");
  }
  Scanner sc{t};
  DateParts d;
  if (parse_ymd(&sc, &d) != ParseOutcome::kOk) return syntax_error("date", text);
  // A time part is accepted and ignored, as PostgreSQL does.
  sc.skip_space();
  if (sc.peek() == 'T' || sc.peek() == 't') ++sc.i;
  if (std::isdigit(static_cast<unsigned char>(sc.peek()))) {
    int64_t us;
    if (parse_clock(&sc, &us) != ParseOutcome::kOk) return syntax_error("date", text);
    int64_t off;
    bool present;
    auto z = parse_zone(&sc, &off, &present);
    if (!z.ok()) return z.status();
    if (!*z) return syntax_error("date", text);
  }
  parse_era(&sc, &d);
  sc.skip_space();
  if (!sc.at_end()) return syntax_error("date", text);
  if (!valid_ymd(d)) return field_range_error(text);
  const int64_t days = days_from_ymd(d.year, d.month, d.day);
  if (!date_in_range(days)) {
    return Status::error(sqlstate::kDatetimeFieldOverflow, "date out of range: \"" + std::string(text) + "\"");
  }
  return static_cast<int32_t>(days);
}

Result<int64_t> parse_time(std::string_view text) {
  std::string_view t = trim(text);
  if (ieq(t, "allballs")) return int64_t{0};
  if (is_time_word(t)) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         "time input \"" + std::string(t) + "\" depends on the current time and is not supported");
  }
  Scanner sc{t};
  // An optional leading date is accepted and ignored.
  {
    Scanner probe = sc;
    DateParts d;
    if (parse_ymd(&probe, &d) == ParseOutcome::kOk) {
      sc = probe;
      sc.skip_space();
      if (sc.peek() == 'T' || sc.peek() == 't') ++sc.i;
    }
  }
  int64_t us;
  switch (parse_clock(&sc, &us)) {
    case ParseOutcome::kSyntax: return syntax_error("time", text);
    case ParseOutcome::kRange: return field_range_error(text);
    case ParseOutcome::kOk: break;
  }
  int64_t off;
  bool present;
  auto z = parse_zone(&sc, &off, &present);
  if (!z.ok()) return z.status();
  sc.skip_space();
  if (!*z || !sc.at_end()) return syntax_error("time", text);
  if (us > kUsecsPerDay) return field_range_error(text);
  return us;
}

Result<int64_t> parse_timestamp(std::string_view text, bool with_tz) {
  const std::string_view type = with_tz ? "timestamp with time zone" : "timestamp";
  std::string_view t = trim(text);
  if (ieq(t, "infinity") || ieq(t, "+infinity")) return kTimestampPosInfinity;
  if (ieq(t, "-infinity")) return kTimestampNegInfinity;
  if (ieq(t, "epoch")) return -kDaysFrom1970To2000 * kUsecsPerDay;
  if (is_time_word(t)) {
    return Status::error(sqlstate::kFeatureNotSupported,
                         std::string(type) + " input \"" + std::string(t) +
                             "\" depends on the current time and is not supported");
  }
  Scanner sc{t};
  DateParts d;
  if (parse_ymd(&sc, &d) != ParseOutcome::kOk) return syntax_error(type, text);
  int64_t tod = 0;
  const size_t before = sc.i;
  sc.skip_space();
  if (sc.peek() == 'T' || sc.peek() == 't') ++sc.i;
  if (std::isdigit(static_cast<unsigned char>(sc.peek()))) {
    switch (parse_clock(&sc, &tod)) {
      case ParseOutcome::kSyntax: return syntax_error(type, text);
      case ParseOutcome::kRange: return field_range_error(text);
      case ParseOutcome::kOk: break;
    }
  } else {
    sc.i = before;
  }
  int64_t offset = 0;
  bool present = false;
  auto z = parse_zone(&sc, &offset, &present);
  if (!z.ok()) return z.status();
  if (!*z) return syntax_error(type, text);
  parse_era(&sc, &d);
  sc.skip_space();
  if (!sc.at_end()) return syntax_error(type, text);
  if (!valid_ymd(d)) return field_range_error(text);
  const int64_t days = days_from_ymd(d.year, d.month, d.day);
  if (days < kMinDate || days > kEndTimestamp / kUsecsPerDay) {
    return Status::error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range: \"" + std::string(text) + "\"");
  }
  int64_t us = days * kUsecsPerDay + tod;
  // timestamp without time zone ignores an explicit zone, as PostgreSQL does.
  if (with_tz) us -= offset * kUsecsPerSec;
  if (!timestamp_in_range(us)) {
    return Status::error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range: \"" + std::string(text) + "\"");
  }
  return us;
}

Result<int64_t> timestamp_add_interval(int64_t ts, const Interval& iv) {
  if (ts == kTimestampNegInfinity || ts == kTimestampPosInfinity) return ts;
  auto range = [] { return Status::error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); };
  if (iv.months != 0) {
    const int64_t days = floor_div(ts, kUsecsPerDay);
    const int64_t tod = ts - days * kUsecsPerDay;
    int64_t y;
    int m, d;
    ymd_from_days(days, &y, &m, &d);
    int64_t mi = y * 12 + (m - 1) + iv.months;
    y = floor_div(mi, 12);
    m = static_cast<int>(floor_mod(mi, 12)) + 1;
    if (d > days_in_month(y, m)) d = days_in_month(y, m);
    const int64_t nd = days_from_ymd(y, m, d);
    if (nd < kMinDate || nd > kEndTimestamp / kUsecsPerDay) return range();
    ts = nd * kUsecsPerDay + tod;
  }
  int64_t r;
  if (__builtin_mul_overflow(static_cast<int64_t>(iv.days), kUsecsPerDay, &r) || __builtin_add_overflow(ts, r, &ts) ||
      __builtin_add_overflow(ts, iv.micros, &ts) || !timestamp_in_range(ts)) {
    return range();
  }
  return ts;
}

Interval timestamp_diff(int64_t a, int64_t b) {
  const int64_t diff = a - b;
  Interval iv;
  iv.days = static_cast<int32_t>(diff / kUsecsPerDay);
  iv.micros = diff % kUsecsPerDay;
  return iv;
}

}  // namespace tandem
