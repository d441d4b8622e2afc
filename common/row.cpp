#include "common/row.hpp"

#include <bit>
#include <cassert>
#include <cmath>

#include "common/jsonb.hpp"

namespace tandem {
namespace {

enum Tag : uint8_t {
  kTagBool = 0x10,
  kTagInt16,
  kTagInt32,
  kTagInt64,
  kTagFloat32,
  kTagFloat64,
  kTagNumeric,
  kTagDate,
  kTagTime,
  kTagTimestamp,
  kTagTimestampTz,
  kTagInterval,
  kTagOid,
  kTagMzTimestamp,
  kTagString,
  kTagBytes,
  kTagArray,  // the elements' datums, then kArrayEnd
  kTagJsonb,  // the jsonb encoding (self-delimiting; common/jsonb.hpp)
  kTagNull = 0xFF,  // largest: NULLs last
};

// Ends an array's elements; below every tag, so a prefix sorts first.
constexpr char kArrayEnd = 0x01;

// Numeric classes, in value order (NaN above +Infinity, as PostgreSQL sorts).
enum NumClass : uint8_t { kNumNegInf = 1, kNumNeg, kNumZero, kNumPos, kNumPosInf, kNumNaN };

template <class U>
void put_be(std::string* out, U v) {
  char buf[sizeof(U)];
  for (size_t i = 0; i < sizeof(U); ++i) buf[i] = static_cast<char>(v >> (8 * (sizeof(U) - 1 - i)));
  out->append(buf, sizeof(U));
}

template <class U>
U get_be(const char*& p) {
  U v = 0;
  for (size_t i = 0; i < sizeof(U); ++i) v = static_cast<U>((v << 8) | static_cast<uint8_t>(p[i]));
  p += sizeof(U);
  return v;
}

uint64_t flip64(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t(1) << 63); }
int64_t unflip64(uint64_t v) { return static_cast<int64_t>(v ^ (uint64_t(1) << 63)); }
uint32_t flip32(int32_t v) { return static_cast<uint32_t>(v) ^ (uint32_t(1) << 31); }
int32_t unflip32(uint32_t v) { return static_cast<int32_t>(v ^ (uint32_t(1) << 31)); }

uint64_t encode_f64(double f) {
  if (std::isnan(f)) f = std::numeric_limits<double>::quiet_NaN();
  if (f == 0) f = 0.0;  // -0.0 -> 0.0
  uint64_t u = std::bit_cast<uint64_t>(f);
  if (std::isnan(f)) u = 0x7ff8000000000000ULL;
  return (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
}
double decode_f64(uint64_t u) {
  u = (u >> 63) ? (u & ~(uint64_t(1) << 63)) : ~u;
  return std::bit_cast<double>(u);
}
uint32_t encode_f32(float f) {
  if (f == 0) f = 0.0f;
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) u = 0x7fc00000U;
  return (u >> 31) ? ~u : (u | (uint32_t(1) << 31));
}
float decode_f32(uint32_t u) {
  u = (u >> 31) ? (u & ~(uint32_t(1) << 31)) : ~u;
  return std::bit_cast<float>(u);
}

void encode_numeric(std::string* out, const Numeric& n, bool normalize) {
  switch (n.special()) {
    case Numeric::Special::kNaN: out->push_back(static_cast<char>(kNumNaN)); return;
    case Numeric::Special::kPosInf: out->push_back(static_cast<char>(kNumPosInf)); return;
    case Numeric::Special::kNegInf: out->push_back(static_cast<char>(kNumNegInf)); return;
    case Numeric::Special::kFinite: break;
  }
  const int display_scale = normalize ? 0 : n.display_scale();
  if (n.coef() == 0) {
    out->push_back(static_cast<char>(kNumZero));
    out->push_back(static_cast<char>(display_scale));
    return;
  }
  const Numeric canon = n.normalized();
  const bool neg = canon.coef() < 0;
  u128 mag = neg ? u128(0) - u128(canon.coef()) : u128(canon.coef());
  char digits[40];
  int nd = 0;
  while (mag) {
    digits[nd++] = static_cast<char>(mag % 10);
    mag /= 10;
  }
  const int exponent = nd - 1 - canon.scale();  // of the leading digit, in [-38, 37]
  const uint8_t mask = neg ? 0xFF : 0x00;
  out->push_back(static_cast<char>(neg ? kNumNeg : kNumPos));
  out->push_back(static_cast<char>(static_cast<uint8_t>(exponent + 64) ^ mask));
  for (int i = nd - 1; i >= 0; i -= 2) {
    const int d1 = digits[i];
    const int d2 = i >= 1 ? digits[i - 1] : 0;
    out->push_back(static_cast<char>(static_cast<uint8_t>(d1 * 10 + d2 + 1) ^ mask));
  }
  out->push_back(static_cast<char>(mask));  // terminator, below every digit pair
  out->push_back(static_cast<char>(normalize ? canon.scale() : display_scale));
}

Numeric decode_numeric(const char*& p) {
  const uint8_t cls = static_cast<uint8_t>(*p++);
  switch (cls) {
    case kNumNaN: return Numeric::nan();
    case kNumPosInf: return Numeric::infinity(false);
    case kNumNegInf: return Numeric::infinity(true);
    case kNumZero: return Numeric::from_parts(0, static_cast<uint8_t>(*p++));
    default: break;
  }
  const bool neg = cls == kNumNeg;
  const uint8_t mask = neg ? 0xFF : 0x00;
  const int exponent = static_cast<int>(static_cast<uint8_t>(*p++) ^ mask) - 64;
  u128 coef = 0;
  int nd = 0;
  for (;;) {
    const uint8_t b = static_cast<uint8_t>(*p++) ^ mask;
    if (b == 0) break;
    coef = coef * 100 + (b - 1);
    nd += 2;
  }
  const int scale = static_cast<uint8_t>(*p++);
  // value = coef * 10^(exponent - nd + 1); coef at display scale:
  int shift = exponent - nd + 1 + scale;
  while (shift < 0) {  // only the padding zero of an odd digit count
    coef /= 10;
    ++shift;
  }
  // Zeros past 38 digits are shown, not stored.
  int pad = 0;
  while (shift > 0 && (shift > Numeric::kMaxDigits || coef >= pow10_128(Numeric::kMaxDigits - shift))) {
    --shift;
    ++pad;
  }
  coef *= pow10_128(shift);
  const i128 c = static_cast<i128>(coef);
  return Numeric::from_stored(neg ? -c : c, scale - pad, pad);
}

void encode_string(std::string* out, std::string_view s) {
  size_t start = 0;
  for (;;) {
    const void* z = s.empty() ? nullptr : std::memchr(s.data() + start, 0, s.size() - start);
    if (!z) break;
    const size_t pos = static_cast<const char*>(z) - s.data();
    out->append(s.data() + start, pos - start);
    out->push_back('\0');
    out->push_back('\xFF');
    start = pos + 1;
  }
  out->append(s.data() + start, s.size() - start);
  out->push_back('\0');
  out->push_back('\x01');
}

// Returns the view of the string starting at p; advances p past it.
std::string_view decode_string(const char*& p, const char* end, RowArena* arena) {
  const char* start = p;
  const char* z = static_cast<const char*>(std::memchr(p, 0, end - p));
  if (z[1] == '\x01') {
    p = z + 2;
    return std::string_view(start, z - start);
  }
  // Escaped NUL bytes: unescape into the arena.
  std::string tmp(start, z - start);
  const char* q = z;
  for (;;) {
    if (q[1] == '\x01') break;
    tmp.push_back('\0');
    q += 2;
    const char* nz = static_cast<const char*>(std::memchr(q, 0, end - q));
    tmp.append(q, nz - q);
    q = nz;
  }
  p = q + 2;
  assert(arena != nullptr && "decoding a bytea with NUL bytes needs a RowArena");
  return arena->push(tmp);
}

void skip_string(const char*& p, const char* end) {
  for (;;) {
    const char* z = static_cast<const char*>(std::memchr(p, 0, end - p));
    p = z + 2;
    if (z[1] == '\x01') return;
  }
}

}  // namespace

void RowPacker::push(const Datum& d) {
  std::string* o = out_;
  switch (d.kind()) {
    case DatumKind::kNull: o->push_back(static_cast<char>(kTagNull)); return;
    case DatumKind::kBool:
      o->push_back(static_cast<char>(kTagBool));
      o->push_back(d.as_bool() ? 1 : 0);
      return;
    case DatumKind::kInt16:
      o->push_back(static_cast<char>(kTagInt16));
      put_be<uint16_t>(o, static_cast<uint16_t>(d.as_int16()) ^ 0x8000);
      return;
    case DatumKind::kInt32:
      o->push_back(static_cast<char>(kTagInt32));
      put_be<uint32_t>(o, flip32(d.as_int32()));
      return;
    case DatumKind::kInt64:
      o->push_back(static_cast<char>(kTagInt64));
      put_be<uint64_t>(o, flip64(d.as_int64()));
      return;
    case DatumKind::kFloat32:
      o->push_back(static_cast<char>(kTagFloat32));
      put_be<uint32_t>(o, encode_f32(d.as_float32()));
      return;
    case DatumKind::kFloat64:
      o->push_back(static_cast<char>(kTagFloat64));
      put_be<uint64_t>(o, encode_f64(d.as_float64()));
      return;
    case DatumKind::kNumeric:
      o->push_back(static_cast<char>(kTagNumeric));
      encode_numeric(o, d.as_numeric(), normalize_numeric_);
      return;
    case DatumKind::kDate:
      o->push_back(static_cast<char>(kTagDate));
      put_be<uint32_t>(o, flip32(d.as_date()));
      return;
    case DatumKind::kTime:
      o->push_back(static_cast<char>(kTagTime));
      put_be<uint64_t>(o, flip64(d.as_time()));
      return;
    case DatumKind::kTimestamp:
      o->push_back(static_cast<char>(kTagTimestamp));
      put_be<uint64_t>(o, flip64(d.as_timestamp()));
      return;
    case DatumKind::kTimestampTz:
      o->push_back(static_cast<char>(kTagTimestampTz));
      put_be<uint64_t>(o, flip64(d.as_timestamp()));
      return;
    case DatumKind::kInterval: {
      const Interval iv = d.as_interval();
      const i128 span = interval_span(iv);
      o->push_back(static_cast<char>(kTagInterval));
      put_be<u128>(o, static_cast<u128>(span) ^ (u128(1) << 127));
      put_be<uint32_t>(o, flip32(iv.months));
      put_be<uint32_t>(o, flip32(iv.days));
      put_be<uint64_t>(o, flip64(iv.micros));
      return;
    }
    case DatumKind::kOid:
      o->push_back(static_cast<char>(kTagOid));
      put_be<uint32_t>(o, d.as_oid());
      return;
    case DatumKind::kMzTimestamp:
      o->push_back(static_cast<char>(kTagMzTimestamp));
      put_be<uint64_t>(o, d.as_mz_timestamp());
      return;
    case DatumKind::kString:
      o->push_back(static_cast<char>(kTagString));
      encode_string(o, d.as_string());
      return;
    case DatumKind::kBytes:
      o->push_back(static_cast<char>(kTagBytes));
      encode_string(o, d.as_bytes());
      return;
    case DatumKind::kArray: {
      o->push_back(static_cast<char>(kTagArray));
      const std::string_view elements = d.as_array();
      if (!normalize_numeric_) {
        o->append(elements);
      } else {
        // Key mode reaches into the elements (numeric[] keys).
        RowIter it{RowRef(elements)};
        while (!it.done()) {
          const std::string_view packed = it.next_packed();
          if (packed_is_key_mode(packed)) {
            o->append(packed);
          } else {
            RowArena arena;
            push(unpack_one(RowRef(packed), &arena));
          }
        }
      }
      o->push_back(kArrayEnd);
      return;
    }
    case DatumKind::kJsonb:
      o->push_back(static_cast<char>(kTagJsonb));
      if (normalize_numeric_) append_jsonb_key_mode(d.as_jsonb(), o);
      else o->append(d.as_jsonb());
      return;
  }
}

Datum RowIter::next() {
  assert(!done());
  const uint8_t tag = static_cast<uint8_t>(*p_++);
  switch (tag) {
    case kTagNull: return Datum::null();
    case kTagBool: return Datum::from_bool(*p_++ != 0);
    case kTagInt16: return Datum::from_int16(static_cast<int16_t>(get_be<uint16_t>(p_) ^ 0x8000));
    case kTagInt32: return Datum::from_int32(unflip32(get_be<uint32_t>(p_)));
    case kTagInt64: return Datum::from_int64(unflip64(get_be<uint64_t>(p_)));
    case kTagFloat32: return Datum::from_float32(decode_f32(get_be<uint32_t>(p_)));
    case kTagFloat64: return Datum::from_float64(decode_f64(get_be<uint64_t>(p_)));
    case kTagNumeric: return Datum::from_numeric(decode_numeric(p_));
    case kTagDate: return Datum::from_date(unflip32(get_be<uint32_t>(p_)));
    case kTagTime: return Datum::from_time(unflip64(get_be<uint64_t>(p_)));
    case kTagTimestamp: return Datum::from_timestamp(unflip64(get_be<uint64_t>(p_)));
    case kTagTimestampTz: return Datum::from_timestamptz(unflip64(get_be<uint64_t>(p_)));
    case kTagInterval: {
      p_ += 16;
      Interval iv;
      iv.months = unflip32(get_be<uint32_t>(p_));
      iv.days = unflip32(get_be<uint32_t>(p_));
      iv.micros = unflip64(get_be<uint64_t>(p_));
      return Datum::from_interval(iv);
    }
    case kTagOid: return Datum::from_oid(get_be<uint32_t>(p_));
    case kTagMzTimestamp: return Datum::from_mz_timestamp(get_be<uint64_t>(p_));
    case kTagString: return Datum::from_string(decode_string(p_, end_, arena_));
    case kTagBytes: return Datum::from_bytes(decode_string(p_, end_, arena_));
    case kTagArray: {
      const char* start = p_;
      while (*p_ != kArrayEnd) skip();
      return Datum::from_array(std::string_view(start, static_cast<size_t>(p_++ - start)));
    }
    case kTagJsonb: {
      const std::string_view rest(p_, static_cast<size_t>(end_ - p_));
      const size_t n = jsonb_encoded_size(rest);
      p_ += n;
      return Datum::from_jsonb(rest.substr(0, n));
    }
    default: assert(false && "corrupt row"); return Datum::null();
  }
}

void RowIter::skip() {
  const uint8_t tag = static_cast<uint8_t>(*p_++);
  switch (tag) {
    case kTagNull: return;
    case kTagBool: p_ += 1; return;
    case kTagInt16: p_ += 2; return;
    case kTagInt32: case kTagFloat32: case kTagDate: case kTagOid: p_ += 4; return;
    case kTagInt64: case kTagFloat64: case kTagTime: case kTagTimestamp: case kTagTimestampTz:
    case kTagMzTimestamp: p_ += 8; return;
    case kTagInterval: p_ += 32; return;
    case kTagNumeric: {
      const uint8_t cls = static_cast<uint8_t>(*p_++);
      if (cls == kNumZero) { p_ += 1; return; }
      if (cls != kNumPos && cls != kNumNeg) return;
      const uint8_t term = cls == kNumNeg ? 0xFF : 0x00;
      ++p_;
      while (static_cast<uint8_t>(*p_++) != term) {}
      ++p_;
      return;
    }
    case kTagString: case kTagBytes: skip_string(p_, end_); return;
    case kTagArray:
      while (*p_ != kArrayEnd) skip();
      ++p_;
      return;
    case kTagJsonb: p_ += jsonb_encoded_size(std::string_view(p_, static_cast<size_t>(end_ - p_))); return;
    default: assert(false && "corrupt row");
  }
}

Row Row::pack(std::span<const Datum> datums) {
  Row r;
  RowPacker p(&r);
  p.push_all(datums);
  return r;
}

void unpack_into(RowRef row, std::vector<Datum>* out, RowArena* arena) {
  out->clear();
  RowIter it(row, arena);
  while (!it.done()) out->push_back(it.next());
}

std::vector<Datum> unpack(RowRef row, RowArena* arena) {
  std::vector<Datum> v;
  unpack_into(row, &v, arena);
  return v;
}

Datum unpack_one(RowRef row, RowArena* arena) {
  RowIter it(row, arena);
  return it.done() ? Datum::null() : it.next();
}

size_t row_arity(RowRef row) {
  RowIter it(row);
  size_t n = 0;
  while (!it.done()) {
    it.skip();
    ++n;
  }
  return n;
}

void split_packed(RowRef row, std::vector<std::string_view>* out) {
  out->clear();
  RowIter it(row);
  while (!it.done()) out->push_back(it.next_packed());
}

bool packed_is_null(std::string_view datum) { return static_cast<uint8_t>(datum[0]) == kTagNull; }

bool packed_is_key_mode(std::string_view datum) {
  const auto tag = static_cast<uint8_t>(datum[0]);
  if (tag == kTagNumeric) return false;
  if (tag == kTagJsonb) return jsonb_is_key_mode(datum.substr(1));
  if (tag != kTagArray) return true;
  RowIter it{RowRef(datum.substr(1, datum.size() - 2))};
  while (!it.done()) {
    if (!packed_is_key_mode(it.next_packed())) return false;
  }
  return true;
}

uint64_t hash_bytes(std::string_view bytes, uint64_t seed) {
  // 64-bit multiply-xorshift over 8-byte words (in the style of wyhash/rrmxmx).
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ULL;
  uint64_t h = seed ^ (bytes.size() * kMul);
  const char* p = bytes.data();
  size_t n = bytes.size();
  auto mix = [](uint64_t x) {
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ULL;
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ULL;
    return x ^ (x >> 32);
  };
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = mix(h ^ (w * kMul));
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  std::memcpy(&w, p, n);
  h = mix(h ^ (w * kMul) ^ n);
  return h;
}

uint64_t hash_row(RowRef row) { return hash_bytes(row.bytes()); }

}  // namespace tandem
