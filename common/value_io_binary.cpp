// PostgreSQL wire binary formats (typsend/typreceive), all big-endian:
// bool 1 byte; int2/int4/int8/oid; float4/float8 IEEE; text and bytea raw
// bytes; date int32 days and time/timestamp/timestamptz int64 microseconds
// since 2000-01-01; interval int64 micros, int32 days, int32 months;
// numeric int16 ndigits, weight, sign, dscale then base-10000 digits;
// mz_timestamp uint64.
#include <bit>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/array.hpp"
#include "common/datetime.hpp"
#include "common/jsonb.hpp"
#include "common/sqlstate.hpp"
#include "common/value_io.hpp"

namespace tandem {
namespace {

template <class U>
void put(std::string* out, U v) {
  for (size_t i = 0; i < sizeof(U); ++i) out->push_back(static_cast<char>(v >> (8 * (sizeof(U) - 1 - i))));
}

template <class U>
U get(const char* p) {
  U v = 0;
  for (size_t i = 0; i < sizeof(U); ++i) v = static_cast<U>((v << 8) | static_cast<uint8_t>(p[i]));
  return v;
}

Status bad_length(size_t have, size_t want) {
  if (have < want) return Status::error(sqlstate::kInvalidBinaryRepresentation, "insufficient data left in message");
  return Status::error(sqlstate::kInvalidBinaryRepresentation, "incorrect binary data format");
}

constexpr uint16_t kNumericPos = 0x0000, kNumericNeg = 0x4000, kNumericNaN = 0xC000, kNumericPInf = 0xD000,
                   kNumericNInf = 0xF000;

void send_numeric(const Numeric& n, std::string* out) {
  auto header = [&](int16_t ndigits, int16_t weight, uint16_t sign, int16_t dscale) {
    put<uint16_t>(out, static_cast<uint16_t>(ndigits));
    put<uint16_t>(out, static_cast<uint16_t>(weight));
    put<uint16_t>(out, sign);
    put<uint16_t>(out, static_cast<uint16_t>(dscale));
  };
  switch (n.special()) {
    case Numeric::Special::kNaN: header(0, 0, kNumericNaN, 0); return;
    case Numeric::Special::kPosInf: header(0, 0, kNumericPInf, 0); return;
    case Numeric::Special::kNegInf: header(0, 0, kNumericNInf, 0); return;
    case Numeric::Special::kFinite: break;
  }
  const int scale = n.display_scale();
  u128 mag = n.coef() < 0 ? u128(0) - u128(n.coef()) : u128(n.coef());
  std::string dec;
  while (mag) {
    dec.insert(dec.begin(), static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  }
  if (!dec.empty()) dec.append(static_cast<size_t>(n.pad()), '0');
  if (dec.size() < static_cast<size_t>(scale)) dec.insert(0, scale - dec.size(), '0');
  std::string ip = dec.substr(0, dec.size() - scale), fp = dec.substr(dec.size() - scale);
  ip.insert(0, (4 - ip.size() % 4) % 4, '0');
  fp.append((4 - fp.size() % 4) % 4, '0');
  std::vector<uint16_t> groups;
  for (size_t i = 0; i < ip.size(); i += 4) groups.push_back(static_cast<uint16_t>(std::stoi(ip.substr(i, 4))));
  int weight = static_cast<int>(groups.size()) - 1;
  for (size_t i = 0; i < fp.size(); i += 4) groups.push_back(static_cast<uint16_t>(std::stoi(fp.substr(i, 4))));
  size_t first = 0;
  while (first < groups.size() && groups[first] == 0) {
    ++first;
    --weight;
  }
  size_t last = groups.size();
  while (last > first && groups[last - 1] == 0) --last;
  if (first == last) {
    header(0, 0, kNumericPos, static_cast<int16_t>(scale));
    return;
  }
  header(static_cast<int16_t>(last - first), static_cast<int16_t>(weight), n.coef() < 0 ? kNumericNeg : kNumericPos,
         static_cast<int16_t>(scale));
  for (size_t i = first; i < last; ++i) put<uint16_t>(out, groups[i]);
}

Result<Numeric> recv_numeric(std::string_view b) {
  if (b.size() < 8) return bad_length(b.size(), 8);
  const int ndigits = static_cast<int16_t>(get<uint16_t>(b.data()));
  const int weight = static_cast<int16_t>(get<uint16_t>(b.data() + 2));
  const uint16_t sign = get<uint16_t>(b.data() + 4);
  const int dscale = static_cast<int16_t>(get<uint16_t>(b.data() + 6));
  if (ndigits < 0 || b.size() != 8 + 2 * static_cast<size_t>(ndigits)) return bad_length(b.size(), 8 + 2 * std::max(ndigits, 0));
  if (sign == kNumericNaN) return Numeric::nan();
  if (sign == kNumericPInf) return Numeric::infinity(false);
  if (sign == kNumericNInf) return Numeric::infinity(true);
  if (sign != kNumericPos && sign != kNumericNeg) {
    return Status::error(sqlstate::kInvalidBinaryRepresentation, "invalid sign in external \"numeric\" value");
  }
  if (dscale < 0 || dscale > 0x3FFF) {
    return Status::error(sqlstate::kInvalidBinaryRepresentation, "invalid scale in external \"numeric\" value");
  }
  // Render as decimal text and reuse the parser (exact, with its limits).
  std::string text = sign == kNumericNeg ? "-0" : "0";
  std::string digits;
  for (int i = 0; i < ndigits; ++i) {
    const uint16_t d = get<uint16_t>(b.data() + 8 + 2 * i);
    if (d >= 10000) {
      return Status::error(sqlstate::kInvalidBinaryRepresentation, "invalid digit in external \"numeric\" value");
    }
    char buf[8];
    std::snprintf(buf, sizeof(buf), "%04u", d);
    digits.append(buf);
  }
  text.append(digits.empty() ? "0" : digits);
  text.append("e");
  text.append(std::to_string(4 * (weight - ndigits + 1)));
  TANDEM_ASSIGN_OR_RETURN(Numeric n, Numeric::parse(text));
  return n.round(dscale);
}

}  // namespace

void send_datum(const Datum& d, const ColumnType& type, std::string* out) {
  (void)type;
  switch (d.kind()) {
    case DatumKind::kNull: return;
    case DatumKind::kBool: out->push_back(d.as_bool() ? 1 : 0); return;
    case DatumKind::kInt16: put<uint16_t>(out, static_cast<uint16_t>(d.as_int16())); return;
    case DatumKind::kInt32: put<uint32_t>(out, static_cast<uint32_t>(d.as_int32())); return;
    case DatumKind::kInt64: put<uint64_t>(out, static_cast<uint64_t>(d.as_int64())); return;
    case DatumKind::kOid: put<uint32_t>(out, d.as_oid()); return;
    case DatumKind::kMzTimestamp: put<uint64_t>(out, d.as_mz_timestamp()); return;
    case DatumKind::kFloat32: put<uint32_t>(out, std::bit_cast<uint32_t>(d.as_float32())); return;
    case DatumKind::kFloat64: put<uint64_t>(out, std::bit_cast<uint64_t>(d.as_float64())); return;
    case DatumKind::kNumeric:
      send_numeric(type.id == TypeId::kNumeric ? d.as_numeric().at_typmod_scale(type.typmod) : d.as_numeric(), out);
      return;
    case DatumKind::kDate: put<uint32_t>(out, static_cast<uint32_t>(d.as_date())); return;
    case DatumKind::kTime:
    case DatumKind::kTimestamp:
    case DatumKind::kTimestampTz: put<uint64_t>(out, static_cast<uint64_t>(d.as_timestamp())); return;
    case DatumKind::kInterval: {
      const Interval iv = d.as_interval();
      put<uint64_t>(out, static_cast<uint64_t>(iv.micros));
      put<uint32_t>(out, static_cast<uint32_t>(iv.days));
      put<uint32_t>(out, static_cast<uint32_t>(iv.months));
      return;
    }
    case DatumKind::kString:
    case DatumKind::kBytes: out->append(d.as_string()); return;
    case DatumKind::kArray: send_array(d, type, out); return;
    case DatumKind::kJsonb: send_jsonb(d, out); return;
  }
}

Result<Datum> recv_datum(std::string_view b, const ColumnType& type, RowArena& arena) {
  if (is_array_type(type.id)) return recv_array(b, type, arena);
  if (type.id == TypeId::kJsonb) return recv_jsonb(b, arena);
  if (type.id == TypeId::kJson) return parse_json_text(b, arena);
  auto need = [&](size_t n) -> Status { return b.size() == n ? Status::ok() : bad_length(b.size(), n); };
  switch (type.id) {
    case TypeId::kBool:
      TANDEM_RETURN_IF_ERROR(need(1));
      return Datum::from_bool(b[0] != 0);
    case TypeId::kInt2:
      TANDEM_RETURN_IF_ERROR(need(2));
      return Datum::from_int16(static_cast<int16_t>(get<uint16_t>(b.data())));
    case TypeId::kInt4:
      TANDEM_RETURN_IF_ERROR(need(4));
      return Datum::from_int32(static_cast<int32_t>(get<uint32_t>(b.data())));
    case TypeId::kInt8:
      TANDEM_RETURN_IF_ERROR(need(8));
      return Datum::from_int64(static_cast<int64_t>(get<uint64_t>(b.data())));
    case TypeId::kOid:
      TANDEM_RETURN_IF_ERROR(need(4));
      return Datum::from_oid(get<uint32_t>(b.data()));
    case TypeId::kMzTimestamp:
      TANDEM_RETURN_IF_ERROR(need(8));
      return Datum::from_mz_timestamp(get<uint64_t>(b.data()));
    case TypeId::kFloat4:
      TANDEM_RETURN_IF_ERROR(need(4));
      return Datum::from_float32(std::bit_cast<float>(get<uint32_t>(b.data())));
    case TypeId::kFloat8:
      TANDEM_RETURN_IF_ERROR(need(8));
      return Datum::from_float64(std::bit_cast<double>(get<uint64_t>(b.data())));
    case TypeId::kNumeric: {
      TANDEM_ASSIGN_OR_RETURN(Numeric n, recv_numeric(b));
      TANDEM_ASSIGN_OR_RETURN(Numeric m, n.apply_typmod(type.typmod));
      return Datum::from_numeric(m);
    }
    case TypeId::kDate:
      TANDEM_RETURN_IF_ERROR(need(4));
      return Datum::from_date(static_cast<int32_t>(get<uint32_t>(b.data())));
    case TypeId::kTime: {
      TANDEM_RETURN_IF_ERROR(need(8));
      const int64_t v = static_cast<int64_t>(get<uint64_t>(b.data()));
      if (v < 0 || v > kUsecsPerDay) return Status::error(sqlstate::kDatetimeFieldOverflow, "time out of range");
      return Datum::from_time(v);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      TANDEM_RETURN_IF_ERROR(need(8));
      const int64_t v = static_cast<int64_t>(get<uint64_t>(b.data()));
      if (v != kTimestampNegInfinity && v != kTimestampPosInfinity && !timestamp_in_range(v)) {
        return Status::error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
      }
      return type.id == TypeId::kTimestamp ? Datum::from_timestamp(v) : Datum::from_timestamptz(v);
    }
    case TypeId::kInterval: {
      TANDEM_RETURN_IF_ERROR(need(16));
      Interval iv;
      iv.micros = static_cast<int64_t>(get<uint64_t>(b.data()));
      iv.days = static_cast<int32_t>(get<uint32_t>(b.data() + 8));
      iv.months = static_cast<int32_t>(get<uint32_t>(b.data() + 12));
      return Datum::from_interval(iv);
    }
    case TypeId::kUnknown:
    case TypeId::kText: return Datum::from_string(arena.push(b));
    case TypeId::kVarchar:
    case TypeId::kBpchar: {
      TANDEM_ASSIGN_OR_RETURN(std::string_view s, coerce_char_length(b, type, false, arena));
      if (s.data() == b.data()) s = arena.push(s);
      return Datum::from_string(s);
    }
    case TypeId::kBytea: return Datum::from_bytes(arena.push(b));
    default: break;
  }
  return Status::error(sqlstate::kFeatureNotSupported, "unsupported type for binary input");
}

}  // namespace tandem
