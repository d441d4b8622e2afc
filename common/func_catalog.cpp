#include "common/func_catalog.hpp"

namespace tandem {
namespace {

using T = TypeId;
using K = FuncSig::Kind;

struct Catalog {
  std::vector<FuncSig> ops;
  std::vector<FuncSig> funcs;

  void op(std::string_view n, std::vector<T> a, T r, BinaryFunc f, K k = K::kBinary) {
    ops.push_back({n, std::move(a), r, k, static_cast<uint16_t>(f)});
  }
  void prefix(std::string_view n, T a, T r, UnaryFunc f, K k = K::kUnary) {
    ops.push_back({n, {a}, r, k, static_cast<uint16_t>(f)});
  }
  void fn(std::string_view n, std::vector<T> a, T r, UnaryFunc f) {
    funcs.push_back({n, std::move(a), r, K::kUnary, static_cast<uint16_t>(f)});
  }
  void fn(std::string_view n, std::vector<T> a, T r, BinaryFunc f) {
    funcs.push_back({n, std::move(a), r, K::kBinary, static_cast<uint16_t>(f)});
  }
  void fn(std::string_view n, std::vector<T> a, T r, VariadicFunc f) {
    funcs.push_back({n, std::move(a), r, K::kVariadic, static_cast<uint16_t>(f)});
  }

  // json/jsonb operators and functions (common/jsonb_funcs.cpp); those
  // taking any type are bound by common/jsonb_resolve.cpp.
  void add_json() {
    using B = BinaryFunc;
    struct Get { T doc; B key, index, key_text, index_text, path, path_text; };
    for (const Get& g : {Get{T::kJsonb, B::kJsonbGetKey, B::kJsonbGetIndex, B::kJsonbGetKeyText,
                             B::kJsonbGetIndexText, B::kJsonbGetPath, B::kJsonbGetPathText},
                         Get{T::kJson, B::kJsonGetKey, B::kJsonGetIndex, B::kJsonGetKeyText, B::kJsonGetIndexText,
                             B::kJsonGetPath, B::kJsonGetPathText}}) {
      op("->", {g.doc, T::kText}, g.doc, g.key);
      op("->", {g.doc, T::kInt4}, g.doc, g.index);
      op("->>", {g.doc, T::kText}, T::kText, g.key_text);
      op("->>", {g.doc, T::kInt4}, T::kText, g.index_text);
      op("#>", {g.doc, T::kTextArray}, g.doc, g.path);
      op("#>>", {g.doc, T::kTextArray}, T::kText, g.path_text);
    }
    op("@>", {T::kJsonb, T::kJsonb}, T::kBool, B::kJsonbContains);
    op("<@", {T::kJsonb, T::kJsonb}, T::kBool, B::kJsonbContained);
    op("?", {T::kJsonb, T::kText}, T::kBool, B::kJsonbExists);
    op("?|", {T::kJsonb, T::kTextArray}, T::kBool, B::kJsonbExistsAny);
    op("?&", {T::kJsonb, T::kTextArray}, T::kBool, B::kJsonbExistsAll);
    op("||", {T::kJsonb, T::kJsonb}, T::kJsonb, B::kJsonbConcat);
    op("-", {T::kJsonb, T::kText}, T::kJsonb, B::kJsonbDeleteKey);
    op("-", {T::kJsonb, T::kInt4}, T::kJsonb, B::kJsonbDeleteIndex);
    op("-", {T::kJsonb, T::kTextArray}, T::kJsonb, B::kJsonbDeleteKeys);
    op("#-", {T::kJsonb, T::kTextArray}, T::kJsonb, B::kJsonbDeletePath);
    fn("jsonb_typeof", {T::kJsonb}, T::kText, UnaryFunc::kJsonbTypeof);
    fn("json_typeof", {T::kJson}, T::kText, UnaryFunc::kJsonTypeof);
    fn("jsonb_array_length", {T::kJsonb}, T::kInt4, UnaryFunc::kJsonbArrayLength);
    fn("json_array_length", {T::kJson}, T::kInt4, UnaryFunc::kJsonArrayLength);
    fn("jsonb_strip_nulls", {T::kJsonb}, T::kJsonb, UnaryFunc::kJsonbStripNulls);
    fn("jsonb_pretty", {T::kJsonb}, T::kText, UnaryFunc::kJsonbPretty);
  }

  Catalog() {
    static constexpr T kComparable[] = {T::kBool, T::kInt2, T::kInt4, T::kInt8, T::kFloat4, T::kFloat8,
                                        T::kNumeric, T::kText, T::kBpchar, T::kBytea, T::kDate, T::kTime,
                                        T::kTimestamp, T::kTimestampTz, T::kInterval, T::kOid, T::kMzTimestamp,
                                        T::kJsonb};
    std::vector<T> comparable(std::begin(kComparable), std::end(kComparable));
    for (int a = static_cast<int>(T::kBoolArray); a < kNumTypeIds; ++a) comparable.push_back(static_cast<T>(a));
    for (T t : comparable) {
      op("=", {t, t}, T::kBool, BinaryFunc::kEq);
      op("<>", {t, t}, T::kBool, BinaryFunc::kNotEq);
      op("<", {t, t}, T::kBool, BinaryFunc::kLt);
      op("<=", {t, t}, T::kBool, BinaryFunc::kLte);
      op(">", {t, t}, T::kBool, BinaryFunc::kGt);
      op(">=", {t, t}, T::kBool, BinaryFunc::kGte);
    }
    struct Arith { T t; BinaryFunc add, sub, mul, div; UnaryFunc neg, abs; };
    static const Arith kArith[] = {
        {T::kInt2, BinaryFunc::kAddInt2, BinaryFunc::kSubInt2, BinaryFunc::kMulInt2, BinaryFunc::kDivInt2, UnaryFunc::kNegInt2, UnaryFunc::kAbsInt2},
        {T::kInt4, BinaryFunc::kAddInt4, BinaryFunc::kSubInt4, BinaryFunc::kMulInt4, BinaryFunc::kDivInt4, UnaryFunc::kNegInt4, UnaryFunc::kAbsInt4},
        {T::kInt8, BinaryFunc::kAddInt8, BinaryFunc::kSubInt8, BinaryFunc::kMulInt8, BinaryFunc::kDivInt8, UnaryFunc::kNegInt8, UnaryFunc::kAbsInt8},
        {T::kFloat4, BinaryFunc::kAddFloat4, BinaryFunc::kSubFloat4, BinaryFunc::kMulFloat4, BinaryFunc::kDivFloat4, UnaryFunc::kNegFloat4, UnaryFunc::kAbsFloat4},
        {T::kFloat8, BinaryFunc::kAddFloat8, BinaryFunc::kSubFloat8, BinaryFunc::kMulFloat8, BinaryFunc::kDivFloat8, UnaryFunc::kNegFloat8, UnaryFunc::kAbsFloat8},
        {T::kNumeric, BinaryFunc::kAddNumeric, BinaryFunc::kSubNumeric, BinaryFunc::kMulNumeric, BinaryFunc::kDivNumeric, UnaryFunc::kNegNumeric, UnaryFunc::kAbsNumeric},
    };
    for (const auto& a : kArith) {
      op("+", {a.t, a.t}, a.t, a.add);
      op("-", {a.t, a.t}, a.t, a.sub);
      op("*", {a.t, a.t}, a.t, a.mul);
      op("/", {a.t, a.t}, a.t, a.div);
      prefix("-", a.t, a.t, a.neg);
      prefix("+", a.t, a.t, UnaryFunc::kCast, K::kIdentity);
      fn("abs", {a.t}, a.t, a.abs);
    }
    // real with double precision, either way round: computed in double
    // precision (and preferred over real's own operators when the other
    // operand needs a cast, as PostgreSQL's float48/float84 operators are).
    for (auto operands : {std::pair{T::kFloat4, T::kFloat8}, std::pair{T::kFloat8, T::kFloat4}}) {
      auto wide = [&](std::string_view n, T result, BinaryFunc f) {
        ops.push_back({n, {operands.first, operands.second}, result, K::kBinary, static_cast<uint16_t>(f),
                       T::kFloat8});
      };
      wide("+", T::kFloat8, BinaryFunc::kAddFloat8);
      wide("-", T::kFloat8, BinaryFunc::kSubFloat8);
      wide("*", T::kFloat8, BinaryFunc::kMulFloat8);
      wide("/", T::kFloat8, BinaryFunc::kDivFloat8);
      wide("=", T::kBool, BinaryFunc::kEq);
      wide("<>", T::kBool, BinaryFunc::kNotEq);
      wide("<", T::kBool, BinaryFunc::kLt);
      wide("<=", T::kBool, BinaryFunc::kLte);
      wide(">", T::kBool, BinaryFunc::kGt);
      wide(">=", T::kBool, BinaryFunc::kGte);
    }
    op("%", {T::kInt2, T::kInt2}, T::kInt2, BinaryFunc::kModInt2);
    op("%", {T::kInt4, T::kInt4}, T::kInt4, BinaryFunc::kModInt4);
    op("%", {T::kInt8, T::kInt8}, T::kInt8, BinaryFunc::kModInt8);
    op("%", {T::kNumeric, T::kNumeric}, T::kNumeric, BinaryFunc::kModNumeric);
    // Bitwise operators on integers; a shift's count is an integer of
    // any width, as PostgreSQL's int2shl / int4shl / int8shl take int4.
    struct Bitwise { T t; BinaryFunc band, bor, bxor, shl, shr; UnaryFunc bnot; };
    static const Bitwise kBitwise[] = {
        {T::kInt2, BinaryFunc::kBitAndInt2, BinaryFunc::kBitOrInt2, BinaryFunc::kBitXorInt2, BinaryFunc::kShiftLeftInt2, BinaryFunc::kShiftRightInt2, UnaryFunc::kBitNotInt2},
        {T::kInt4, BinaryFunc::kBitAndInt4, BinaryFunc::kBitOrInt4, BinaryFunc::kBitXorInt4, BinaryFunc::kShiftLeftInt4, BinaryFunc::kShiftRightInt4, UnaryFunc::kBitNotInt4},
        {T::kInt8, BinaryFunc::kBitAndInt8, BinaryFunc::kBitOrInt8, BinaryFunc::kBitXorInt8, BinaryFunc::kShiftLeftInt8, BinaryFunc::kShiftRightInt8, UnaryFunc::kBitNotInt8},
    };
    for (const auto& b : kBitwise) {
      op("&", {b.t, b.t}, b.t, b.band);
      op("|", {b.t, b.t}, b.t, b.bor);
      op("#", {b.t, b.t}, b.t, b.bxor);
      op("<<", {b.t, T::kInt4}, b.t, b.shl);
      op(">>", {b.t, T::kInt4}, b.t, b.shr);
      prefix("~", b.t, b.t, b.bnot);
    }
    op("^", {T::kFloat8, T::kFloat8}, T::kFloat8, BinaryFunc::kPowFloat8);
    op("^", {T::kNumeric, T::kNumeric}, T::kNumeric, BinaryFunc::kPowNumeric);
    prefix("-", T::kInterval, T::kInterval, UnaryFunc::kNegInterval);
    op("+", {T::kInterval, T::kInterval}, T::kInterval, BinaryFunc::kAddInterval);
    op("-", {T::kInterval, T::kInterval}, T::kInterval, BinaryFunc::kSubInterval);
    op("*", {T::kInterval, T::kFloat8}, T::kInterval, BinaryFunc::kMulIntervalFloat8);
    op("/", {T::kInterval, T::kFloat8}, T::kInterval, BinaryFunc::kDivIntervalFloat8);
    op("+", {T::kDate, T::kInt4}, T::kDate, BinaryFunc::kAddDateInt4);
    op("-", {T::kDate, T::kInt4}, T::kDate, BinaryFunc::kSubDateInt4);
    op("-", {T::kDate, T::kDate}, T::kInt4, BinaryFunc::kSubDate);
    op("+", {T::kDate, T::kInterval}, T::kTimestamp, BinaryFunc::kAddDateInterval);
    op("-", {T::kDate, T::kInterval}, T::kTimestamp, BinaryFunc::kSubDateInterval);
    op("+", {T::kDate, T::kTime}, T::kTimestamp, BinaryFunc::kAddDateTime);
    op("+", {T::kTimestamp, T::kInterval}, T::kTimestamp, BinaryFunc::kAddTimestampInterval);
    op("-", {T::kTimestamp, T::kInterval}, T::kTimestamp, BinaryFunc::kSubTimestampInterval);
    op("+", {T::kTimestampTz, T::kInterval}, T::kTimestampTz, BinaryFunc::kAddTimestampTzInterval);
    op("-", {T::kTimestampTz, T::kInterval}, T::kTimestampTz, BinaryFunc::kSubTimestampTzInterval);
    op("-", {T::kTimestamp, T::kTimestamp}, T::kInterval, BinaryFunc::kSubTimestamp);
    op("-", {T::kTimestampTz, T::kTimestampTz}, T::kInterval, BinaryFunc::kSubTimestampTz);
    op("+", {T::kTime, T::kInterval}, T::kTime, BinaryFunc::kAddTimeInterval);
    op("-", {T::kTime, T::kInterval}, T::kTime, BinaryFunc::kSubTimeInterval);
    op("-", {T::kTime, T::kTime}, T::kInterval, BinaryFunc::kSubTime);
    op("||", {T::kText, T::kText}, T::kText, BinaryFunc::kTextConcat);
    op("~~", {T::kText, T::kText}, T::kBool, BinaryFunc::kLike);
    op("!~~", {T::kText, T::kText}, T::kBool, BinaryFunc::kLike, K::kNotBinary);
    op("~~*", {T::kText, T::kText}, T::kBool, BinaryFunc::kILike);
    op("!~~*", {T::kText, T::kText}, T::kBool, BinaryFunc::kILike, K::kNotBinary);
    op("~", {T::kText, T::kText}, T::kBool, BinaryFunc::kRegexMatch);
    op("!~", {T::kText, T::kText}, T::kBool, BinaryFunc::kRegexMatch, K::kNotBinary);
    op("~*", {T::kText, T::kText}, T::kBool, BinaryFunc::kRegexMatchCI);
    op("!~*", {T::kText, T::kText}, T::kBool, BinaryFunc::kRegexMatchCI, K::kNotBinary);

    // Functions.
    fn("mod", {T::kInt2, T::kInt2}, T::kInt2, BinaryFunc::kModInt2);
    fn("mod", {T::kInt4, T::kInt4}, T::kInt4, BinaryFunc::kModInt4);
    fn("mod", {T::kInt8, T::kInt8}, T::kInt8, BinaryFunc::kModInt8);
    fn("mod", {T::kNumeric, T::kNumeric}, T::kNumeric, BinaryFunc::kModNumeric);
    for (std::string_view n : {"ceil", "ceiling"}) {
      fn(n, {T::kFloat8}, T::kFloat8, UnaryFunc::kCeilFloat8);
      fn(n, {T::kNumeric}, T::kNumeric, UnaryFunc::kCeilNumeric);
    }
    fn("floor", {T::kFloat8}, T::kFloat8, UnaryFunc::kFloorFloat8);
    fn("floor", {T::kNumeric}, T::kNumeric, UnaryFunc::kFloorNumeric);
    fn("round", {T::kFloat8}, T::kFloat8, UnaryFunc::kRoundFloat8);
    fn("round", {T::kNumeric}, T::kNumeric, UnaryFunc::kRoundNumeric);
    fn("round", {T::kNumeric, T::kInt4}, T::kNumeric, BinaryFunc::kRoundNumericScale);
    fn("trunc", {T::kFloat8}, T::kFloat8, UnaryFunc::kTruncFloat8);
    fn("trunc", {T::kNumeric}, T::kNumeric, UnaryFunc::kTruncNumeric);
    fn("trunc", {T::kNumeric, T::kInt4}, T::kNumeric, BinaryFunc::kTruncNumericScale);
    fn("sqrt", {T::kFloat8}, T::kFloat8, UnaryFunc::kSqrtFloat8);
    fn("sqrt", {T::kNumeric}, T::kNumeric, UnaryFunc::kSqrtNumeric);
    fn("cbrt", {T::kFloat8}, T::kFloat8, UnaryFunc::kCbrtFloat8);
    for (std::string_view n : {"power", "pow"}) {
      fn(n, {T::kFloat8, T::kFloat8}, T::kFloat8, BinaryFunc::kPowFloat8);
      fn(n, {T::kNumeric, T::kNumeric}, T::kNumeric, BinaryFunc::kPowNumeric);
    }
    fn("exp", {T::kFloat8}, T::kFloat8, UnaryFunc::kExpFloat8);
    fn("exp", {T::kNumeric}, T::kNumeric, UnaryFunc::kExpNumeric);
    fn("ln", {T::kFloat8}, T::kFloat8, UnaryFunc::kLnFloat8);
    fn("ln", {T::kNumeric}, T::kNumeric, UnaryFunc::kLnNumeric);
    for (std::string_view n : {"log", "log10"}) {
      fn(n, {T::kFloat8}, T::kFloat8, UnaryFunc::kLog10Float8);
      fn(n, {T::kNumeric}, T::kNumeric, UnaryFunc::kLog10Numeric);
    }
    fn("log", {T::kNumeric, T::kNumeric}, T::kNumeric, BinaryFunc::kLogNumeric);
    fn("sign", {T::kFloat8}, T::kFloat8, UnaryFunc::kSignFloat8);
    fn("sign", {T::kNumeric}, T::kNumeric, UnaryFunc::kSignNumeric);
    fn("pi", {}, T::kFloat8, VariadicFunc::kPi);
    for (std::string_view n : {"length", "char_length", "character_length"}) {
      fn(n, {T::kText}, T::kInt4, UnaryFunc::kCharLength);
    }
    fn("length", {T::kBytea}, T::kInt4, UnaryFunc::kOctetLength);
    fn("octet_length", {T::kText}, T::kInt4, UnaryFunc::kOctetLength);
    fn("octet_length", {T::kBytea}, T::kInt4, UnaryFunc::kOctetLength);
    fn("lower", {T::kText}, T::kText, UnaryFunc::kLower);
    fn("upper", {T::kText}, T::kText, UnaryFunc::kUpper);
    for (std::string_view n : {"substr", "substring"}) {
      fn(n, {T::kText, T::kInt4}, T::kText, VariadicFunc::kSubstr);
      fn(n, {T::kText, T::kInt4, T::kInt4}, T::kText, VariadicFunc::kSubstr);
    }
    fn("strpos", {T::kText, T::kText}, T::kInt4, BinaryFunc::kStrpos);
    fn("replace", {T::kText, T::kText, T::kText}, T::kText, VariadicFunc::kReplace);
    fn("btrim", {T::kText}, T::kText, UnaryFunc::kBtrimSpaces);
    fn("btrim", {T::kText, T::kText}, T::kText, BinaryFunc::kBtrim);
    fn("ltrim", {T::kText}, T::kText, UnaryFunc::kLtrimSpaces);
    fn("ltrim", {T::kText, T::kText}, T::kText, BinaryFunc::kLtrim);
    fn("rtrim", {T::kText}, T::kText, UnaryFunc::kRtrimSpaces);
    fn("rtrim", {T::kText, T::kText}, T::kText, BinaryFunc::kRtrim);
    fn("left", {T::kText, T::kInt4}, T::kText, BinaryFunc::kLeft);
    fn("right", {T::kText, T::kInt4}, T::kText, BinaryFunc::kRight);
    fn("repeat", {T::kText, T::kInt4}, T::kText, BinaryFunc::kRepeat);
    fn("reverse", {T::kText}, T::kText, UnaryFunc::kReverse);
    fn("lpad", {T::kText, T::kInt4}, T::kText, VariadicFunc::kLpad);
    fn("lpad", {T::kText, T::kInt4, T::kText}, T::kText, VariadicFunc::kLpad);
    fn("rpad", {T::kText, T::kInt4}, T::kText, VariadicFunc::kRpad);
    fn("rpad", {T::kText, T::kInt4, T::kText}, T::kText, VariadicFunc::kRpad);
    fn("split_part", {T::kText, T::kText, T::kInt4}, T::kText, VariadicFunc::kSplitPart);
    fn("starts_with", {T::kText, T::kText}, T::kBool, BinaryFunc::kStartsWith);
    fn("ascii", {T::kText}, T::kInt4, UnaryFunc::kAscii);
    fn("chr", {T::kInt4}, T::kText, UnaryFunc::kChr);
    fn("md5", {T::kText}, T::kText, UnaryFunc::kMd5);
    fn("format_type", {T::kOid, T::kInt4}, T::kText, BinaryFunc::kFormatType);
    fn("md5", {T::kBytea}, T::kText, UnaryFunc::kMd5);
    fn("like_escape", {T::kText, T::kText, T::kText}, T::kBool, VariadicFunc::kLikeEscape);
    fn("ilike_escape", {T::kText, T::kText, T::kText}, T::kBool, VariadicFunc::kILikeEscape);
    fn("now", {}, T::kTimestampTz, VariadicFunc::kNow);
    for (const char* name : {"current_user", "session_user", "current_role"}) {
      fn(name, {}, T::kText, VariadicFunc::kCurrentUser);
    }
    fn("current_database", {}, T::kText, VariadicFunc::kCurrentDatabase);
    fn("current_catalog", {}, T::kText, VariadicFunc::kCurrentDatabase);
    fn("current_schema", {}, T::kText, VariadicFunc::kCurrentSchema);
    fn("version", {}, T::kText, VariadicFunc::kVersion);
    fn("mz_version", {}, T::kText, VariadicFunc::kMzVersion);
    fn("mz_now", {}, T::kMzTimestamp, VariadicFunc::kMzNow);
    fn("current_timestamp", {}, T::kTimestampTz, VariadicFunc::kNow);
    fn("transaction_timestamp", {}, T::kTimestampTz, VariadicFunc::kNow);
    fn("statement_timestamp", {}, T::kTimestampTz, VariadicFunc::kNow);
    fn("date_trunc", {T::kText, T::kTimestamp}, T::kTimestamp, BinaryFunc::kDateTruncTimestamp);
    fn("date_trunc", {T::kText, T::kTimestampTz}, T::kTimestampTz, BinaryFunc::kDateTruncTimestampTz);
    fn("date_trunc", {T::kText, T::kInterval}, T::kInterval, BinaryFunc::kDateTruncInterval);
    for (T t : {T::kTimestamp, T::kTimestampTz, T::kDate, T::kTime, T::kInterval}) {
      fn("date_part", {T::kText, t}, T::kFloat8, BinaryFunc::kDatePart);
      fn("extract", {T::kText, t}, T::kNumeric, BinaryFunc::kExtract);
    }
    fn("pg_sleep", {T::kFloat8}, T::kUnknown, UnaryFunc::kPgSleep);
    add_json();
  }
};

const Catalog& catalog() {
  static const Catalog c;
  return c;
}

std::vector<const FuncSig*> lookup(const std::vector<FuncSig>& v, std::string_view name, size_t nargs) {
  std::vector<const FuncSig*> out;
  for (const auto& s : v) {
    if (s.name == name && s.args.size() == nargs) out.push_back(&s);
  }
  return out;
}

}  // namespace

std::vector<const FuncSig*> lookup_operator(std::string_view name, size_t nargs) {
  return lookup(catalog().ops, name, nargs);
}

std::vector<const FuncSig*> lookup_function(std::string_view name, size_t nargs) {
  return lookup(catalog().funcs, name, nargs);
}

bool function_exists(std::string_view name) {
  for (const auto& s : catalog().funcs) {
    if (s.name == name) return true;
  }
  return false;
}

}  // namespace tandem
