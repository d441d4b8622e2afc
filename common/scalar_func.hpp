#pragma once
// The scalar function vocabulary: every operator, function and cast a
// ScalarExpr can call, named by enum so plans are printable, comparable and
// serialisable (never function pointers). Each entry is monomorphic: the
// binder (common/func_resolve.hpp) picks e.g. kAddInt4 vs kAddNumeric, so
// evaluation does no type dispatch except for the generic comparisons and
// casts, which work on any pair of datums of one type.
// Threading: constants only.

#include <cstdint>
#include <string_view>

namespace tandem {

// X(name, printed_name, strict): strict = NULL in any argument gives NULL
// without evaluating the function.
#define TANDEM_UNARY_FUNCS(X)                                                                     \
  X(kNot, "NOT", true) X(kIsNull, "IS NULL", false) X(kIsNotNull, "IS NOT NULL", false)            \
  X(kIsTrue, "IS TRUE", false) X(kIsNotTrue, "IS NOT TRUE", false) X(kIsFalse, "IS FALSE", false)  \
  X(kIsNotFalse, "IS NOT FALSE", false)                                                             \
  X(kCast, "cast", true) X(kCastAssign, "assignment_cast", true) X(kOutputText, "text_out", true)   \
  X(kNegInt2, "-", true) X(kNegInt4, "-", true) X(kNegInt8, "-", true) X(kNegFloat4, "-", true)    \
  X(kNegFloat8, "-", true) X(kNegNumeric, "-", true) X(kNegInterval, "-", true)                     \
  X(kAbsInt2, "abs", true) X(kAbsInt4, "abs", true) X(kAbsInt8, "abs", true)                        \
  X(kAbsFloat4, "abs", true) X(kAbsFloat8, "abs", true) X(kAbsNumeric, "abs", true)                 \
  X(kCeilFloat8, "ceil", true) X(kCeilNumeric, "ceil", true) X(kFloorFloat8, "floor", true)         \
  X(kFloorNumeric, "floor", true) X(kRoundFloat8, "round", true) X(kRoundNumeric, "round", true)    \
  X(kTruncFloat8, "trunc", true) X(kTruncNumeric, "trunc", true) X(kSqrtFloat8, "sqrt", true)       \
  X(kSqrtNumeric, "sqrt", true) X(kCbrtFloat8, "cbrt", true) X(kExpFloat8, "exp", true)             \
  X(kExpNumeric, "exp", true) X(kLnFloat8, "ln", true) X(kLnNumeric, "ln", true)                    \
  X(kLog10Float8, "log10", true) X(kLog10Numeric, "log10", true) X(kSignFloat8, "sign", true)       \
  X(kSignNumeric, "sign", true)                                                                     \
  X(kCharLength, "char_length", true) X(kOctetLength, "octet_length", true)                         \
  X(kLower, "lower", true) X(kUpper, "upper", true) X(kBtrimSpaces, "btrim", true)                  \
  X(kLtrimSpaces, "ltrim", true) X(kRtrimSpaces, "rtrim", true) X(kReverse, "reverse", true)        \
  X(kAscii, "ascii", true) X(kChr, "chr", true) X(kMd5, "md5", true)                                \
  X(kPgSleep, "pg_sleep", true) X(kArrayCardinality, "cardinality", true)                         \
  X(kBitNotInt2, "~", true) X(kBitNotInt4, "~", true) X(kBitNotInt8, "~", true)                     \
  X(kSqrtNumericOwnScale, "sqrt_at_own_scale", true)                                                \
  X(kToJsonb, "to_jsonb", true) X(kToJson, "to_json", true) X(kJsonbTypeof, "jsonb_typeof", true)   \
  X(kJsonTypeof, "json_typeof", true) X(kJsonbArrayLength, "jsonb_array_length", true)              \
  X(kJsonArrayLength, "json_array_length", true) X(kJsonbStripNulls, "jsonb_strip_nulls", true)     \
  X(kJsonbPretty, "jsonb_pretty", true)

#define TANDEM_BINARY_FUNCS(X)                                                                    \
  X(kAnd, "AND", false) X(kOr, "OR", false)                                                         \
  X(kEq, "=", true) X(kNotEq, "<>", true) X(kLt, "<", true) X(kLte, "<=", true) X(kGt, ">", true)  \
  X(kGte, ">=", true) X(kIsDistinctFrom, "IS DISTINCT FROM", false)                                 \
  X(kIsNotDistinctFrom, "IS NOT DISTINCT FROM", false)                                              \
  X(kAddInt2, "+", true) X(kAddInt4, "+", true) X(kAddInt8, "+", true) X(kAddFloat4, "+", true)    \
  X(kAddFloat8, "+", true) X(kAddNumeric, "+", true) X(kAddInterval, "+", true)                     \
  X(kAddDateInt4, "+", true) X(kAddDateInterval, "+", true) X(kAddDateTime, "+", true)              \
  X(kAddTimestampInterval, "+", true) X(kAddTimestampTzInterval, "+", true)                         \
  X(kAddTimeInterval, "+", true)                                                                    \
  X(kSubInt2, "-", true) X(kSubInt4, "-", true) X(kSubInt8, "-", true) X(kSubFloat4, "-", true)    \
  X(kSubFloat8, "-", true) X(kSubNumeric, "-", true) X(kSubInterval, "-", true)                     \
  X(kSubDateInt4, "-", true) X(kSubDate, "-", true) X(kSubDateInterval, "-", true)                  \
  X(kSubTimestamp, "-", true) X(kSubTimestampTz, "-", true) X(kSubTimestampInterval, "-", true)    \
  X(kSubTimestampTzInterval, "-", true) X(kSubTime, "-", true) X(kSubTimeInterval, "-", true)       \
  X(kMulInt2, "*", true) X(kMulInt4, "*", true) X(kMulInt8, "*", true) X(kMulFloat4, "*", true)    \
  X(kMulFloat8, "*", true) X(kMulNumeric, "*", true) X(kMulIntervalFloat8, "*", true)               \
  X(kDivInt2, "/", true) X(kDivInt4, "/", true) X(kDivInt8, "/", true) X(kDivFloat4, "/", true)    \
  X(kDivFloat8, "/", true) X(kDivNumeric, "/", true) X(kDivIntervalFloat8, "/", true)               \
  X(kModInt2, "%", true) X(kModInt4, "%", true) X(kModInt8, "%", true) X(kModNumeric, "%", true)   \
  X(kPowFloat8, "^", true) X(kPowNumeric, "^", true)                                                \
  X(kTextConcat, "||", true) X(kLike, "~~", true) X(kILike, "~~*", true)                            \
  X(kRoundNumericScale, "round", true) X(kTruncNumericScale, "trunc", true)                         \
  X(kLogNumeric, "log", true) X(kStrpos, "strpos", true) X(kLeft, "left", true)                     \
  X(kRight, "right", true) X(kRepeat, "repeat", true) X(kStartsWith, "starts_with", true)           \
  X(kBtrim, "btrim", true) X(kLtrim, "ltrim", true) X(kRtrim, "rtrim", true)                        \
  X(kDateTruncTimestamp, "date_trunc", true) X(kDateTruncTimestampTz, "date_trunc", true)           \
  X(kDateTruncInterval, "date_trunc", true)                                                         \
  X(kDatePart, "date_part", true) X(kExtract, "extract", true) X(kNullIf, "nullif", false)          \
  X(kError, "error", false) X(kRegexMatch, "~", true) X(kRegexMatchCI, "~*", true)                \
  X(kFormatType, "format_type", false)                                                              \
  X(kArrayIndex, "array_subscript", true) X(kArrayUpper, "array_upper", true)                       \
  X(kArrayLower, "array_lower", true) X(kArrayLength, "array_length", true)                         \
  X(kArrayConcat, "array_cat", false) X(kArrayAppend, "array_append", false)                        \
  X(kArrayPrepend, "array_prepend", false) X(kArrayToString, "array_to_string", false)              \
  X(kAnyEq, "= ANY", false) X(kAnyNotEq, "<> ANY", false) X(kAnyLt, "< ANY", false)                 \
  X(kAnyLte, "<= ANY", false) X(kAnyGt, "> ANY", false) X(kAnyGte, ">= ANY", false)                 \
  X(kAllEq, "= ALL", false) X(kAllNotEq, "<> ALL", false) X(kAllLt, "< ALL", false)                 \
  X(kAllLte, "<= ALL", false) X(kAllGt, "> ALL", false) X(kAllGte, ">= ALL", false)                 \
  X(kBitAndInt2, "&", true) X(kBitAndInt4, "&", true) X(kBitAndInt8, "&", true)                     \
  X(kBitOrInt2, "|", true) X(kBitOrInt4, "|", true) X(kBitOrInt8, "|", true)                        \
  X(kBitXorInt2, "#", true) X(kBitXorInt4, "#", true) X(kBitXorInt8, "#", true)                     \
  X(kShiftLeftInt2, "<<", true) X(kShiftLeftInt4, "<<", true) X(kShiftLeftInt8, "<<", true)         \
  X(kShiftRightInt2, ">>", true) X(kShiftRightInt4, ">>", true) X(kShiftRightInt8, ">>", true)      \
  X(kJsonbGetKey, "->", true) X(kJsonbGetIndex, "->", true) X(kJsonbGetKeyText, "->>", true)        \
  X(kJsonbGetIndexText, "->>", true) X(kJsonbGetPath, "#>", true) X(kJsonbGetPathText, "#>>", true) \
  X(kJsonGetKey, "->", true) X(kJsonGetIndex, "->", true) X(kJsonGetKeyText, "->>", true)           \
  X(kJsonGetIndexText, "->>", true) X(kJsonGetPath, "#>", true) X(kJsonGetPathText, "#>>", true)    \
  X(kJsonbContains, "@>", true) X(kJsonbContained, "<@", true) X(kJsonbExists, "?", true)           \
  X(kJsonbExistsAny, "?|", true) X(kJsonbExistsAll, "?&", true) X(kJsonbConcat, "||", true)         \
  X(kJsonbDeleteKey, "-", true) X(kJsonbDeleteIndex, "-", true) X(kJsonbDeleteKeys, "-", true)      \
  X(kJsonbDeletePath, "#-", true)

// in(x, c1, ..., cn): x IN a list of constants, the ci distinct literals of
// x's type sorted by compare_datums (a NULL literal last), evaluated by
// binary search (PostgreSQL hashes such lists).
#define TANDEM_VARIADIC_FUNCS(X)                                                                  \
  X(kCoalesce, "coalesce", false) X(kGreatest, "greatest", false) X(kLeast, "least", false)        \
  X(kConcat, "concat", false) X(kConcatWs, "concat_ws", false) X(kSubstr, "substr", true)           \
  X(kReplace, "replace", true) X(kLpad, "lpad", true) X(kRpad, "rpad", true)                        \
  X(kSplitPart, "split_part", true) X(kLikeEscape, "like_escape", true)                             \
  X(kILikeEscape, "ilike_escape", true) X(kNow, "now", false) X(kPi, "pi", false)        \
  X(kMzNow, "mz_now", false) X(kParameter, "parameter", false)                                    \
  X(kArrayCreate, "array", false) X(kArrayToStringNull, "array_to_string", false)                   \
  X(kStringToArray, "string_to_array", false) X(kCurrentUser, "current_user", false)                 \
  X(kCurrentDatabase, "current_database", false) X(kCurrentSchema, "current_schema", false)         \
  X(kVersion, "version", false) X(kMzVersion, "mz_version", false)                                 \
  X(kJsonbBuildObject, "jsonb_build_object", false) X(kJsonbBuildArray, "jsonb_build_array", false) \
  X(kJsonBuildObject, "json_build_object", false) X(kJsonBuildArray, "json_build_array", false)  \
  X(kInList, "in", false)

#define TANDEM_ENUM_ENTRY(name, printed, strict) name,
enum class UnaryFunc : uint16_t { TANDEM_UNARY_FUNCS(TANDEM_ENUM_ENTRY) };
enum class BinaryFunc : uint16_t { TANDEM_BINARY_FUNCS(TANDEM_ENUM_ENTRY) };
enum class VariadicFunc : uint16_t { TANDEM_VARIADIC_FUNCS(TANDEM_ENUM_ENTRY) };
#undef TANDEM_ENUM_ENTRY

std::string_view func_name(UnaryFunc f);
std::string_view func_name(BinaryFunc f);
std::string_view func_name(VariadicFunc f);
// The enumerator's own name without the k ("AddInt4"), for unambiguous dumps.
std::string_view func_id(UnaryFunc f);
std::string_view func_id(BinaryFunc f);
std::string_view func_id(VariadicFunc f);
bool func_is_strict(UnaryFunc f);
bool func_is_strict(BinaryFunc f);
bool func_is_strict(VariadicFunc f);
// Volatile/stable calls (now, pg_sleep) are never constant-folded, nor is
// parameter(i): the placeholder for parameter $i+1 in a prepared
// statement's generic plan (planner/prepared_lookup.hpp), which evaluation
// never sees (it is replaced by the parameter's value first).
bool func_is_foldable(UnaryFunc f);
bool func_is_foldable(VariadicFunc f);
// current_user, current_database(), current_schema: the session's; reads
// substitute them, views that compute maintains may not hold them.
bool func_is_session(VariadicFunc f);
// error(sqlstate, message) raises its error when evaluated; never folded,
// since a plan holds it for rows that may never exist (see
// planner/lowering/decorrelate.cpp: a scalar subquery's extra rows).
bool func_is_foldable(BinaryFunc f);
// The array functions of common/eval_array.cpp (NULL handling their own).
bool func_is_array(BinaryFunc f);
bool func_is_array(VariadicFunc f);

// The json/jsonb functions of common/jsonb_funcs.cpp (they see their
// arguments' types; the variadic ones see NULL arguments).
bool func_is_json(UnaryFunc f);
bool func_is_json(BinaryFunc f);
bool func_is_json(VariadicFunc f);

// Operators print infix ("a + b"); the rest print as calls ("abs(a)").
bool func_is_operator(BinaryFunc f);

}  // namespace tandem
