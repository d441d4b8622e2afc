// Array functions and operators (PostgreSQL 15 semantics, one dimension):
// subscripts (out of range -> NULL), array_upper/array_lower/array_length
// (NULL for an empty array or a dimension other than 1), cardinality,
// || (array_cat/array_append/array_prepend: a NULL array is empty, a NULL
// element is appended), x op ANY|ALL (array) with three-valued logic,
// ARRAY[...], array_to_string and string_to_array.
#include <optional>

#include "common/array.hpp"
#include "common/eval_internal.hpp"
#include "common/sqlstate.hpp"
#include "common/value_io.hpp"

namespace tandem::detail {
namespace {

Datum int4(size_t v) { return Datum::from_int32(static_cast<int32_t>(v)); }

// ANY/ALL: the comparison a op element, -1 for NULL.
int compare_with(BinaryFunc f, const Datum& x, const Datum& element) {
  if (x.is_null() || element.is_null()) return -1;
  const int c = compare_datums(x, element);
  switch (f) {
    case BinaryFunc::kAnyEq: case BinaryFunc::kAllEq: return c == 0;
    case BinaryFunc::kAnyNotEq: case BinaryFunc::kAllNotEq: return c != 0;
    case BinaryFunc::kAnyLt: case BinaryFunc::kAllLt: return c < 0;
    case BinaryFunc::kAnyLte: case BinaryFunc::kAllLte: return c <= 0;
    case BinaryFunc::kAnyGt: case BinaryFunc::kAllGt: return c > 0;
    default: return c >= 0;
  }
}

Datum quantified(BinaryFunc f, const Datum& x, const Datum& array, RowArena& arena) {
  if (array.is_null()) return Datum::null();
  const bool all = f >= BinaryFunc::kAllEq;
  bool unknown = false;
  for (RowIter it(RowRef(array.as_array()), &arena); !it.done();) {
    const int r = compare_with(f, x, it.next());
    if (r < 0) {
      unknown = true;
    } else if ((r == 1) != all) {
      return Datum::from_bool(!all);  // decisive: a true for ANY, a false for ALL
    }
  }
  return unknown ? Datum::null() : Datum::from_bool(all);
}

Datum array_to_string(const Datum& array, std::string_view sep, const std::optional<std::string_view>& null_text,
                      RowArena& arena) {
  std::string out;
  bool first = true;
  for (RowIter it(RowRef(array.as_array()), &arena); !it.done();) {
    const Datum d = it.next();
    if (d.is_null() && !null_text) continue;
    if (!first) out.append(sep);
    first = false;
    if (d.is_null()) {
      out.append(*null_text);
    } else {
      format_datum(d, ColumnType{}, &out);
    }
  }
  return Datum::from_string(arena.push(out));
}

Datum string_to_array(std::string_view s, const Datum& sep, const Datum& null_text, RowArena& arena) {
  ArrayBuilder builder;
  auto push = [&](std::string_view piece) {
    if (!null_text.is_null() && piece == null_text.as_string()) {
      builder.push(Datum::null());
    } else {
      builder.push(Datum::from_string(piece));
    }
  };
  if (s.empty()) return builder.finish(arena);
  if (sep.is_null()) {
    for (size_t i = 0; i < s.size();) {  // one element per character (UTF-8)
      size_t n = 1;
      while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
      push(s.substr(i, n));
      i += n;
    }
  } else if (sep.as_string().empty()) {
    push(s);
  } else {
    const std::string_view d = sep.as_string();
    size_t start = 0;
    for (;;) {
      const size_t at = s.find(d, start);
      if (at == std::string_view::npos) break;
      push(s.substr(start, at - start));
      start = at + d.size();
    }
    push(s.substr(start));
  }
  // Elements borrow from `s`; finish() copies the packed bytes.
  return builder.finish(arena);
}

}  // namespace

Result<Datum> eval_array_unary(UnaryFunc f, const Datum& a, EvalContext&) {
  switch (f) {
    case UnaryFunc::kArrayCardinality: return int4(array_size(a));
    default: break;
  }
  return Status::error(sqlstate::kInternalError, "not an array function: " + std::string(func_name(f)));
}

Result<Datum> eval_array_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx) {
  switch (f) {
    case BinaryFunc::kArrayConcat: {
      if (a.is_null()) return b;
      if (b.is_null()) return a;
      ArrayBuilder builder;
      builder.append(a);
      builder.append(b);
      return builder.finish(ctx.arena);
    }
    case BinaryFunc::kArrayAppend:
    case BinaryFunc::kArrayPrepend: {
      const Datum& array = f == BinaryFunc::kArrayAppend ? a : b;
      const Datum& element = f == BinaryFunc::kArrayAppend ? b : a;
      ArrayBuilder builder;
      if (f == BinaryFunc::kArrayPrepend) builder.push(element);
      if (!array.is_null()) builder.append(array);
      if (f == BinaryFunc::kArrayAppend) builder.push(element);
      return builder.finish(ctx.arena);
    }
    default: break;
  }
  if (f >= BinaryFunc::kAnyEq && f <= BinaryFunc::kAllGte) return quantified(f, a, b, ctx.arena);
  if (a.is_null() || b.is_null()) return Datum::null();  // the rest are strict
  switch (f) {
    case BinaryFunc::kArrayIndex: {
      const int64_t i = b.as_integer();
      const size_t n = array_size(a);
      if (i < 1 || static_cast<uint64_t>(i) > n) return Datum::null();
      return array_element(a, static_cast<size_t>(i - 1), ctx.arena);
    }
    case BinaryFunc::kArrayUpper:
    case BinaryFunc::kArrayLower:
    case BinaryFunc::kArrayLength: {
      const size_t n = array_size(a);
      if (n == 0 || b.as_integer() != 1) return Datum::null();
      return f == BinaryFunc::kArrayLower ? int4(1) : int4(n);
    }
    case BinaryFunc::kArrayToString: return array_to_string(a, b.as_string(), std::nullopt, ctx.arena);
    default: break;
  }
  return Status::error(sqlstate::kInternalError, "not an array function: " + std::string(func_name(f)));
}

Result<Datum> eval_array_variadic(VariadicFunc f, std::span<const Datum> args, EvalContext& ctx) {
  switch (f) {
    case VariadicFunc::kArrayCreate: {
      ArrayBuilder builder;
      for (const Datum& d : args) builder.push(d);
      return builder.finish(ctx.arena);
    }
    case VariadicFunc::kArrayToStringNull: {
      if (args[0].is_null() || args[1].is_null()) return Datum::null();
      std::optional<std::string_view> null_text;
      if (!args[2].is_null()) null_text = args[2].as_string();
      return array_to_string(args[0], args[1].as_string(), null_text, ctx.arena);
    }
    case VariadicFunc::kStringToArray:
      if (args[0].is_null()) return Datum::null();
      return string_to_array(args[0].as_string(), args[1], args.size() > 2 ? args[2] : Datum::null(), ctx.arena);
    default: break;
  }
  return Status::error(sqlstate::kInternalError, "not an array function: " + std::string(func_name(f)));
}

}  // namespace tandem::detail
