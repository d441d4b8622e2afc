// parse_interval (declared in common/datetime.hpp): PostgreSQL's interval
// input for IntervalStyle postgres plus ISO 8601 designators.
#include <cctype>
#include <cmath>
#include <string>

#include "common/datetime.hpp"
#include "common/sqlstate.hpp"

namespace tandem {
namespace {

Status syntax(std::string_view text) {
  return Status::error(sqlstate::kInvalidDatetimeFormat,
                       "invalid input syntax for type interval: \"" + std::string(text) + "\"");
}
Status overflow(std::string_view text) {
  return Status::error(sqlstate::kIntervalFieldOverflow,
                       "interval field value out of range: \"" + std::string(text) + "\"");
}

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

enum class Unit { kNone, kMicro, kMilli, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kYear, kDecade, kCentury, kMillennium };

Unit unit_of(std::string_view w) {
  struct E { const char* name; Unit u; };
  static constexpr E kUnits[] = {
      {"microsecond", Unit::kMicro}, {"microseconds", Unit::kMicro}, {"usec", Unit::kMicro}, {"usecs", Unit::kMicro},
      {"us", Unit::kMicro}, {"millisecond", Unit::kMilli}, {"milliseconds", Unit::kMilli}, {"msec", Unit::kMilli},
      {"msecs", Unit::kMilli}, {"ms", Unit::kMilli}, {"second", Unit::kSecond}, {"seconds", Unit::kSecond},
      {"sec", Unit::kSecond}, {"secs", Unit::kSecond}, {"s", Unit::kSecond}, {"minute", Unit::kMinute},
      {"minutes", Unit::kMinute}, {"min", Unit::kMinute}, {"mins", Unit::kMinute}, {"m", Unit::kMinute},
      {"hour", Unit::kHour}, {"hours", Unit::kHour}, {"hr", Unit::kHour}, {"hrs", Unit::kHour}, {"h", Unit::kHour},
      {"day", Unit::kDay}, {"days", Unit::kDay}, {"d", Unit::kDay}, {"week", Unit::kWeek}, {"weeks", Unit::kWeek},
      {"w", Unit::kWeek}, {"month", Unit::kMonth}, {"months", Unit::kMonth}, {"mon", Unit::kMonth},
      {"mons", Unit::kMonth}, {"year", Unit::kYear}, {"years", Unit::kYear}, {"yr", Unit::kYear},
      {"yrs", Unit::kYear}, {"y", Unit::kYear}, {"decade", Unit::kDecade}, {"decades", Unit::kDecade},
      {"dec", Unit::kDecade}, {"decs", Unit::kDecade}, {"century", Unit::kCentury}, {"centuries", Unit::kCentury},
      {"cent", Unit::kCentury}, {"c", Unit::kCentury}, {"millennium", Unit::kMillennium},
      {"millennia", Unit::kMillennium}, {"mil", Unit::kMillennium}, {"mils", Unit::kMillennium},
  };
  for (const auto& e : kUnits) {
    if (ieq(w, e.name)) return e.u;
  }
  return Unit::kNone;
}

// Accumulates fields in wide integers; fractions cascade down as PostgreSQL
// does (months -> 30-day days -> microseconds).
struct Acc {
  long double months = 0, days = 0, micros = 0;
  void add(Unit u, long double v) {
    switch (u) {
      case Unit::kMicro: micros += v; break;
      case Unit::kMilli: micros += v * 1000; break;
      case Unit::kSecond: micros += v * kUsecsPerSec; break;
      case Unit::kMinute: micros += v * kUsecsPerMinute; break;
      case Unit::kHour: micros += v * kUsecsPerHour; break;
      case Unit::kDay: add_days(v); break;
      case Unit::kWeek: add_days(v * 7); break;
      case Unit::kMonth: add_months(v); break;
      case Unit::kYear: months += std::nearbyint(v * 12); break;
      case Unit::kDecade: months += std::nearbyint(v * 120); break;
      case Unit::kCentury: months += std::nearbyint(v * 1200); break;
      case Unit::kMillennium: months += std::nearbyint(v * 12000); break;
      case Unit::kNone: break;
    }
  }
  void add_days(long double v) {
    const long double whole = std::trunc(v);
    days += whole;
    micros += std::nearbyint((v - whole) * kUsecsPerDay);
  }
  void add_months(long double v) {
    const long double whole = std::trunc(v);
    months += whole;
    add_days((v - whole) * 30);
  }
};

Result<Interval> finish(const Acc& a, bool negate, std::string_view text) {
  long double m = a.months, d = a.days, us = std::nearbyint(a.micros);
  if (negate) {
    m = -m;
    d = -d;
    us = -us;
  }
  if (std::fabs(m) > 2147483647.0L || std::fabs(d) > 2147483647.0L || std::fabs(us) > 9.2e18L) return overflow(text);
  return Interval{static_cast<int32_t>(m), static_cast<int32_t>(d), static_cast<int64_t>(us)};
}

bool read_number(std::string_view s, size_t* i, long double* v) {
  const size_t start = *i;
  if (*i < s.size() && (s[*i] == '+' || s[*i] == '-')) ++*i;
  bool digits = false;
  while (*i < s.size() && (std::isdigit(static_cast<unsigned char>(s[*i])) || s[*i] == '.')) {
    digits |= s[*i] != '.';
    ++*i;
  }
  if (!digits) {
    *i = start;
    return false;
  }
  *v = std::strtold(std::string(s.substr(start, *i - start)).c_str(), nullptr);
  return true;
}

Result<Interval> parse_iso(std::string_view t, std::string_view text) {
  Acc acc;
  size_t i = 1;
  bool in_time = false, any = false;
  while (i < t.size()) {
    if (t[i] == 'T' || t[i] == 't') {
      in_time = true;
      ++i;
      continue;
    }
    long double v;
    if (!read_number(t, &i, &v) || i >= t.size()) return syntax(text);
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(t[i++])));
    Unit u = Unit::kNone;
    if (!in_time) {
      u = c == 'Y' ? Unit::kYear : c == 'M' ? Unit::kMonth : c == 'W' ? Unit::kWeek : c == 'D' ? Unit::kDay : Unit::kNone;
    } else {
      u = c == 'H' ? Unit::kHour : c == 'M' ? Unit::kMinute : c == 'S' ? Unit::kSecond : Unit::kNone;
    }
    if (u == Unit::kNone) return syntax(text);
    acc.add(u, v);
    any = true;
  }
  if (!any) return syntax(text);
  return finish(acc, false, text);
}

}  // namespace

Result<Interval> parse_interval(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  if (t.empty()) return syntax(text);
  if (t[0] == 'P' || t[0] == 'p') return parse_iso(t, text);
  if (t[0] == '@') t.remove_prefix(1);
  Acc acc;
  bool negate = false, any = false;
  size_t i = 0;
  auto skip_space = [&] {
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  };
  while (true) {
    skip_space();
    if (i >= t.size()) break;
    // "ago" flips the sign of everything; must be last.
    if (std::isalpha(static_cast<unsigned char>(t[i]))) {
      size_t j = i;
      while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
      if (ieq(t.substr(i, j - i), "ago")) {
        negate = true;
        i = j;
        skip_space();
        if (i != t.size() || !any) return syntax(text);
        break;
      }
      return syntax(text);
    }
    // A clock "[-]HH:MM[:SS[.frac]]".
    size_t j = i;
    if (j < t.size() && (t[j] == '+' || t[j] == '-')) ++j;
    size_t k = j;
    while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k]))) ++k;
    if (k < t.size() && t[k] == ':' && k > j) {
      const bool neg = t[i] == '-';
      long double parts[3] = {0, 0, 0};
      int n = 0;
      size_t p = j;
      while (n < 3) {
        size_t q = p;
        while (q < t.size() && (std::isdigit(static_cast<unsigned char>(t[q])) || (n == 2 && t[q] == '.'))) ++q;
        if (q == p) return syntax(text);
        parts[n++] = std::strtold(std::string(t.substr(p, q - p)).c_str(), nullptr);
        p = q;
        if (p < t.size() && t[p] == ':' && n < 3) {
          ++p;
          continue;
        }
        break;
      }
      if (n >= 2 && (parts[1] > 59 || parts[2] >= 60)) return Status::error(sqlstate::kDatetimeFieldOverflow,
          "interval field value out of range: \"" + std::string(text) + "\"");
      const long double us = parts[0] * kUsecsPerHour + parts[1] * kUsecsPerMinute + parts[2] * kUsecsPerSec;
      acc.micros += neg ? -us : us;
      i = p;
      any = true;
      continue;
    }
    long double v;
    if (!read_number(t, &i, &v)) return syntax(text);
    skip_space();
    size_t e = i;
    while (e < t.size() && std::isalpha(static_cast<unsigned char>(t[e]))) ++e;
    Unit u = Unit::kSecond;  // a bare number means seconds
    if (e > i) {
      u = unit_of(t.substr(i, e - i));
      if (u == Unit::kNone) {
        if (ieq(t.substr(i, e - i), "ago")) {
          acc.add(Unit::kSecond, v);
          any = true;
          continue;  // handled by the "ago" branch next round
        }
        return syntax(text);
      }
      i = e;
    }
    acc.add(u, v);
    any = true;
  }
  if (!any) return syntax(text);
  return finish(acc, negate, text);
}

}  // namespace tandem
