#include "common/datum.hpp"

#include <cmath>

#include "common/jsonb.hpp"
#include "common/row.hpp"

namespace tandem {
namespace {

template <class T>
int cmp3(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

int cmp_float(double a, double b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return cmp3(a, b);  // -0.0 == 0.0
}

}  // namespace

int compare_datums(const Datum& a, const Datum& b) {
  if (a.is_null() || b.is_null()) return a.is_null() == b.is_null() ? 0 : (a.is_null() ? 1 : -1);
  switch (a.kind()) {
    case DatumKind::kNull: return 0;
    case DatumKind::kBool:
    case DatumKind::kInt16:
    case DatumKind::kInt32:
    case DatumKind::kInt64:
    case DatumKind::kDate:
    case DatumKind::kTime:
    case DatumKind::kTimestamp:
    case DatumKind::kTimestampTz:
    case DatumKind::kOid:
      return cmp3(a.as_integer(), b.as_integer());
    case DatumKind::kMzTimestamp: return cmp3(a.as_mz_timestamp(), b.as_mz_timestamp());
    case DatumKind::kFloat32:
    case DatumKind::kFloat64: return cmp_float(a.as_float64(), b.as_float64());
    case DatumKind::kNumeric: return a.as_numeric().compare(b.as_numeric());
    case DatumKind::kInterval: return cmp3(interval_span(a.as_interval()), interval_span(b.as_interval()));
    case DatumKind::kString:
    case DatumKind::kBytes: {
      const int c = a.as_string().compare(b.as_string());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case DatumKind::kArray: {
      RowArena arena;  // only a bytea element holding 0x00 needs it
      RowIter x(RowRef(a.as_array()), &arena);
      RowIter y(RowRef(b.as_array()), &arena);
      while (!x.done() && !y.done()) {
        const int c = compare_datums(x.next(), y.next());
        if (c != 0) return c;
      }
      return x.done() == y.done() ? 0 : (x.done() ? -1 : 1);
    }
    case DatumKind::kJsonb: {
      // The key-mode encodings order as jsonb_cmp (display scales ignored).
      std::string x, y;
      append_jsonb_key_mode(a.as_jsonb(), &x);
      append_jsonb_key_mode(b.as_jsonb(), &y);
      const int c = x.compare(y);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
  }
  return 0;
}

}  // namespace tandem
