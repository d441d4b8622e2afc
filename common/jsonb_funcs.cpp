// The json/jsonb operators and functions (PostgreSQL 15's jsonfuncs.c,
// jsonb_op.c, jsonb.c): field and path extraction, containment, existence,
// concatenation and deletion, to_jsonb/to_json and the build functions,
// jsonb_typeof/array_length/strip_nulls/pretty, and the casts from jsonb.
// Every operation decodes the value into a JsonValue, works on the tree and
// encodes the result (common/jsonb.hpp).
#include <cerrno>
#include <cstdlib>

#include "common/array.hpp"
#include "common/eval.hpp"
#include "common/eval_internal.hpp"
#include "common/jsonb.hpp"
#include "common/sqlstate.hpp"
#include "common/value_io.hpp"

namespace tandem::detail {
namespace {

using Kind = JsonValue::Kind;

Status invalid(std::string msg) { return Status::error(sqlstate::kInvalidParameterValue, std::move(msg)); }

// A value of a json (text) or jsonb argument.
Result<JsonValue> load(const Datum& d, bool json) {
  if (!json) return decode_jsonb(d);
  return parse_json(d.as_string(), false);
}

// The result of -> / #> : jsonb, or json as its source text.
Datum emit(const JsonValue& v, bool json, EvalContext& ctx) {
  if (!json) return make_jsonb(v, ctx.arena);
  return Datum::from_string(ctx.arena.push(v.raw));
}

// ->> / #>> : the text of the value; JSON null is SQL NULL.
Datum emit_text(const JsonValue& v, bool json, EvalContext& ctx) {
  if (v.kind == Kind::kNull) return Datum::null();
  if (v.kind == Kind::kString) return Datum::from_string(ctx.arena.push(v.string));
  if (json) return Datum::from_string(ctx.arena.push(v.raw));
  std::string s;
  format_jsonb_value(v, &s);
  return Datum::from_string(ctx.arena.push(s));
}

const JsonValue* get_index(const JsonValue& v, int64_t i) {
  if (v.kind != Kind::kArray) return nullptr;
  const auto n = static_cast<int64_t>(v.elements.size());
  if (i < 0) i += n;
  if (i < 0 || i >= n) return nullptr;
  return &v.elements[static_cast<size_t>(i)];
}

// A path element that must be an array index: PostgreSQL's strtoint.
bool parse_index(std::string_view s, int64_t* out) {
  std::string t(s);
  if (t.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < INT32_MIN || v > INT32_MAX) return false;
  *out = v;
  return true;
}

// #> : nullptr when the path leads nowhere or holds a NULL element.
const JsonValue* get_path(const JsonValue& root, const Datum& path, RowArena& arena) {
  const JsonValue* v = &root;
  const size_t n = array_size(path);
  for (size_t i = 0; i < n; ++i) {
    const Datum e = array_element(path, i, arena);
    if (e.is_null()) return nullptr;
    if (v->kind == Kind::kObject) {
      v = v->find(e.as_string());
    } else if (v->kind == Kind::kArray) {
      int64_t idx;
      if (!parse_index(e.as_string(), &idx)) return nullptr;
      v = get_index(*v, idx);
    } else {
      return nullptr;
    }
    if (v == nullptr) return nullptr;
  }
  return v;
}

bool scalar_equal(const JsonValue& a, const JsonValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::kNull: return true;
    case Kind::kBool: return a.boolean == b.boolean;
    case Kind::kNumber: return a.number.compare(b.number) == 0;
    case Kind::kString: return a.string == b.string;
    default: return false;
  }
}

// JsonbDeepContains. `top`: a scalar at the top level is a raw-scalar
// pseudo-array, which an array may contain but which contains no array.
bool contains(const JsonValue& a, const JsonValue& b, bool top) {
  if (top) {
    const bool a_arr = a.kind == Kind::kArray || a.is_scalar();
    const bool b_arr = b.kind == Kind::kArray || b.is_scalar();
    if (a_arr != b_arr) return false;
    if (a_arr) {
      if (a.is_scalar() && !b.is_scalar()) return false;
      JsonValue wa, wb;
      const JsonValue* pa = &a;
      const JsonValue* pb = &b;
      if (a.is_scalar()) {
        wa = JsonValue::array();
        wa.elements.push_back(a);
        pa = &wa;
      }
      if (b.is_scalar()) {
        wb = JsonValue::array();
        wb.elements.push_back(b);
        pb = &wb;
      }
      return contains(*pa, *pb, false);
    }
  }
  if (a.kind != b.kind) return false;
  if (a.kind == Kind::kObject) {
    if (a.members.size() < b.members.size()) return false;
    for (const auto& [key, bv] : b.members) {
      const JsonValue* av = a.find(key);
      if (av == nullptr || av->kind != bv.kind) return false;
      if (av->is_scalar() ? !scalar_equal(*av, bv) : !contains(*av, bv, false)) return false;
    }
    return true;
  }
  if (a.kind == Kind::kArray) {
    for (const JsonValue& be : b.elements) {
      bool found = false;
      for (const JsonValue& ae : a.elements) {
        if (be.is_scalar() ? scalar_equal(ae, be) : (ae.kind == be.kind && contains(ae, be, false))) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }
  return scalar_equal(a, b);
}

// ? : a top-level key, or a string element of a top-level array (or the
// raw scalar string itself).
bool exists(const JsonValue& v, std::string_view key) {
  if (v.kind == Kind::kObject) return v.find(key) != nullptr;
  if (v.kind == Kind::kArray) {
    for (const auto& e : v.elements) {
      if (e.kind == Kind::kString && e.string == key) return true;
    }
    return false;
  }
  return v.kind == Kind::kString && v.string == key;
}

JsonValue as_array(JsonValue v) {
  if (v.kind == Kind::kArray) return v;
  JsonValue a = JsonValue::array();
  a.elements.push_back(std::move(v));
  return a;
}

// jsonb || jsonb: objects merge (the right wins); anything else
// concatenates as arrays, a non-array taken as a one-element array.
JsonValue concat(JsonValue a, JsonValue b) {
  if (a.kind == Kind::kObject && b.kind == Kind::kObject) {
    for (auto& m : b.members) a.members.push_back(std::move(m));
    jsonb_normalize_object(&a);
    return a;
  }
  JsonValue out = as_array(std::move(a));
  JsonValue right = as_array(std::move(b));
  for (auto& e : right.elements) out.elements.push_back(std::move(e));
  return out;
}

void delete_key(JsonValue* v, std::string_view key) {
  if (v->kind == Kind::kObject) {
    std::erase_if(v->members, [&](const auto& m) { return m.first == key; });
  } else {
    std::erase_if(v->elements, [&](const JsonValue& e) { return e.kind == Kind::kString && e.string == key; });
  }
}

// #- : removes the value at the path (missing paths change nothing).
Status delete_path(JsonValue* v, const Datum& path, size_t i, size_t n, RowArena& arena) {
  const Datum e = array_element(path, i, arena);
  if (e.is_null()) {
    return Status::error(sqlstate::kNullValueNotAllowed,
                         "path element at position " + std::to_string(i + 1) + " is null");
  }
  const std::string_view key = e.as_string();
  if (v->is_scalar()) return Status::ok();
  if (v->kind == Kind::kObject) {
    for (size_t m = 0; m < v->members.size(); ++m) {
      if (v->members[m].first != key) continue;
      if (i + 1 == n) {
        v->members.erase(v->members.begin() + static_cast<std::ptrdiff_t>(m));
        return Status::ok();
      }
      return delete_path(&v->members[m].second, path, i + 1, n, arena);
    }
    return Status::ok();
  }
  if (v->kind == Kind::kArray) {
    int64_t idx;
    if (!parse_index(key, &idx)) {
      return Status::error(sqlstate::kInvalidTextRepresentation, "path element at position " + std::to_string(i + 1) +
                                                                     " is not an integer: \"" + std::string(key) + "\"");
    }
    const auto count = static_cast<int64_t>(v->elements.size());
    if (idx < 0) idx += count;
    if (idx < 0 || idx >= count) return Status::ok();
    if (i + 1 == n) {
      v->elements.erase(v->elements.begin() + idx);
      return Status::ok();
    }
    return delete_path(&v->elements[static_cast<size_t>(idx)], path, i + 1, n, arena);
  }
  return Status::ok();
}

void strip_nulls(JsonValue* v) {
  if (v->kind == Kind::kObject) {
    std::erase_if(v->members, [](const auto& m) { return m.second.kind == Kind::kNull; });
    for (auto& m : v->members) strip_nulls(&m.second);
  } else if (v->kind == Kind::kArray) {
    for (auto& e : v->elements) strip_nulls(&e);
  }
}

// The text of a value as a JSON date/time string (JsonEncodeDateTime's
// ISO 8601 form: a T between date and time, a +hh:mm offset).
std::string datetime_text(const Datum& d, const ColumnType& type) {
  std::string s;
  format_datum(d, type, &s);
  if (type.id != TypeId::kTimestamp && type.id != TypeId::kTimestampTz) return s;
  if (s == "infinity" || s == "-infinity") return s;
  const size_t space = s.find(' ');
  if (space != std::string::npos) s[space] = 'T';
  if (type.id == TypeId::kTimestampTz) {
    const size_t sign = s.find_last_of("+-");
    if (sign != std::string::npos && sign > 10 && s.size() - sign == 3) s += ":00";
  }
  return s;
}

bool is_number_type(TypeId t) {
  return t == TypeId::kInt2 || t == TypeId::kInt4 || t == TypeId::kInt8 || t == TypeId::kFloat4 ||
         t == TypeId::kFloat8 || t == TypeId::kNumeric || t == TypeId::kOid;
}

bool is_json_number(std::string_view s) {
  auto r = parse_json(s, false);
  return r.ok() && r->kind == Kind::kNumber;
}

}  // namespace

// to_jsonb's conversion of a value of `type` (datum_to_jsonb).
Result<JsonValue> datum_to_json_value(const Datum& d, const ColumnType& type, RowArena& arena) {
  if (d.is_null()) return JsonValue::null();
  const TypeId t = type.id;
  if (t == TypeId::kJsonb) return decode_jsonb(d);
  if (t == TypeId::kJson) return parse_json(d.as_string(), true);
  if (t == TypeId::kBool) return JsonValue::from_bool(d.as_bool());
  if (is_array_type(t)) {
    JsonValue a = JsonValue::array();
    const ColumnType element = array_element_column(type);
    const size_t n = array_size(d);
    for (size_t i = 0; i < n; ++i) {
      TANDEM_ASSIGN_OR_RETURN(JsonValue e, datum_to_json_value(array_element(d, i, arena), element, arena));
      a.elements.push_back(std::move(e));
    }
    return a;
  }
  if (is_number_type(t)) {
    std::string s;
    format_datum(d, type, &s);
    if (!is_json_number(s)) return JsonValue::from_string(std::move(s));
    TANDEM_ASSIGN_OR_RETURN(Numeric n, Numeric::parse(s));
    return JsonValue::from_number(n);
  }
  return JsonValue::from_string(datetime_text(d, type));
}

namespace {

// to_json's text of a value (datum_to_json): arrays without spaces.
void datum_to_json_text(const Datum& d, const ColumnType& type, RowArena& arena, std::string* out) {
  if (d.is_null()) {
    out->append("null");
    return;
  }
  const TypeId t = type.id;
  if (t == TypeId::kJson) {
    out->append(d.as_string());
    return;
  }
  if (t == TypeId::kJsonb) {
    format_jsonb(d, out);
    return;
  }
  if (t == TypeId::kBool) {
    out->append(d.as_bool() ? "true" : "false");
    return;
  }
  if (is_array_type(t)) {
    const ColumnType element = array_element_column(type);
    out->push_back('[');
    const size_t n = array_size(d);
    for (size_t i = 0; i < n; ++i) {
      if (i) out->push_back(',');
      datum_to_json_text(array_element(d, i, arena), element, arena, out);
    }
    out->push_back(']');
    return;
  }
  if (is_number_type(t)) {
    std::string s;
    format_datum(d, type, &s);
    if (is_json_number(s)) out->append(s);
    else append_json_string(s, out);
    return;
  }
  append_json_string(datetime_text(d, type), out);
}

// A build_object key: a scalar's text.
Result<std::string> key_text(const Datum& d, const ColumnType& type, size_t position) {
  if (d.is_null()) {
    return invalid("argument " + std::to_string(position) + ": key must not be null");
  }
  if (is_array_type(type.id) || type.id == TypeId::kJson || type.id == TypeId::kJsonb) {
    return invalid("key value must be scalar, not array, composite, or json");
  }
  if (type.id == TypeId::kBool) return std::string(d.as_bool() ? "true" : "false");
  return datetime_text(d, type);
}

std::string_view jsonb_kind_name(Kind k) {
  switch (k) {
    case Kind::kNull: return "null";
    case Kind::kString: return "string";
    case Kind::kNumber: return "numeric";
    case Kind::kBool: return "boolean";
    case Kind::kArray: return "array";
    case Kind::kObject: return "object";
  }
  return "null";
}

}  // namespace

std::optional<Result<Datum>> cast_json(const Datum& d, const ColumnType& from, const ColumnType& to, RowArena& arena) {
  if (from.id == TypeId::kJson) {
    if (to.id != TypeId::kJsonb) return std::nullopt;
    return parse_jsonb(d.as_string(), arena);
  }
  if (to.id == TypeId::kJson) {
    std::string s;
    format_jsonb(d, &s);
    return Result<Datum>(Datum::from_string(arena.push(s)));
  }
  if (to.id == TypeId::kJsonb) return Result<Datum>(d);
  const bool to_bool = to.id == TypeId::kBool;
  if (!to_bool && !is_number_type(to.id)) return std::nullopt;
  const JsonValue v = decode_jsonb(d);
  if (v.kind != (to_bool ? Kind::kBool : Kind::kNumber)) {
    return Result<Datum>(invalid("cannot cast jsonb " + std::string(jsonb_kind_name(v.kind)) + " to type " +
                                 format_type(ColumnType{to.id})));
  }
  if (to_bool) return Result<Datum>(Datum::from_bool(v.boolean));
  return cast_datum(Datum::from_numeric(v.number), ColumnType{TypeId::kNumeric}, to, true, arena);
}

Result<Datum> eval_json_unary(UnaryFunc f, const Datum& a, const ColumnType& type, EvalContext& ctx) {
  switch (f) {
    case UnaryFunc::kToJsonb: {
      TANDEM_ASSIGN_OR_RETURN(JsonValue v, datum_to_json_value(a, type, ctx.arena));
      return make_jsonb(v, ctx.arena);
    }
    case UnaryFunc::kToJson: {
      std::string s;
      datum_to_json_text(a, type, ctx.arena, &s);
      return Datum::from_string(ctx.arena.push(s));
    }
    default: break;
  }
  const bool json = type.id == TypeId::kJson;
  TANDEM_ASSIGN_OR_RETURN(JsonValue v, load(a, json));
  switch (f) {
    case UnaryFunc::kJsonbTypeof:
    case UnaryFunc::kJsonTypeof: return Datum::from_string(jsonb_typeof(v));
    case UnaryFunc::kJsonbArrayLength:
    case UnaryFunc::kJsonArrayLength:
      if (v.kind == Kind::kObject) return invalid("cannot get array length of a non-array");
      if (v.kind != Kind::kArray) return invalid("cannot get array length of a scalar");
      return Datum::from_int32(static_cast<int32_t>(v.elements.size()));
    case UnaryFunc::kJsonbStripNulls:
      strip_nulls(&v);
      return make_jsonb(v, ctx.arena);
    case UnaryFunc::kJsonbPretty: {
      std::string s;
      format_jsonb_pretty(v, &s);
      return Datum::from_string(ctx.arena.push(s));
    }
    default:
      return Status::error(sqlstate::kInternalError, "not a json function: " + std::string(func_name(f)));
  }
}

Result<Datum> eval_json_binary(BinaryFunc f, const Datum& a, const Datum& b, EvalContext& ctx) {
  const bool json = f >= BinaryFunc::kJsonGetKey && f <= BinaryFunc::kJsonGetPathText;
  TANDEM_ASSIGN_OR_RETURN(JsonValue v, load(a, json));
  switch (f) {
    case BinaryFunc::kJsonbGetKey:
    case BinaryFunc::kJsonGetKey:
    case BinaryFunc::kJsonbGetKeyText:
    case BinaryFunc::kJsonGetKeyText: {
      const JsonValue* r = v.find(b.as_string());
      if (r == nullptr) return Datum::null();
      const bool text = f == BinaryFunc::kJsonbGetKeyText || f == BinaryFunc::kJsonGetKeyText;
      return text ? emit_text(*r, json, ctx) : emit(*r, json, ctx);
    }
    case BinaryFunc::kJsonbGetIndex:
    case BinaryFunc::kJsonGetIndex:
    case BinaryFunc::kJsonbGetIndexText:
    case BinaryFunc::kJsonGetIndexText: {
      // A top-level jsonb scalar is a one-element pseudo-array to -> and ->>
      // (not to #> nor to json's ->): '5'::jsonb -> 0 is 5.
      const int32_t i = b.as_int32();
      const JsonValue* r = !json && v.is_scalar() ? (i == 0 || i == -1 ? &v : nullptr) : get_index(v, i);
      if (r == nullptr) return Datum::null();
      const bool text = f == BinaryFunc::kJsonbGetIndexText || f == BinaryFunc::kJsonGetIndexText;
      return text ? emit_text(*r, json, ctx) : emit(*r, json, ctx);
    }
    case BinaryFunc::kJsonbGetPath:
    case BinaryFunc::kJsonGetPath:
    case BinaryFunc::kJsonbGetPathText:
    case BinaryFunc::kJsonGetPathText: {
      const JsonValue* r = get_path(v, b, ctx.arena);
      if (r == nullptr) return Datum::null();
      const bool text = f == BinaryFunc::kJsonbGetPathText || f == BinaryFunc::kJsonGetPathText;
      return text ? emit_text(*r, json, ctx) : emit(*r, json, ctx);
    }
    case BinaryFunc::kJsonbContains: return Datum::from_bool(contains(v, decode_jsonb(b), true));
    case BinaryFunc::kJsonbContained: return Datum::from_bool(contains(decode_jsonb(b), v, true));
    case BinaryFunc::kJsonbExists: return Datum::from_bool(exists(v, b.as_string()));
    case BinaryFunc::kJsonbExistsAny:
    case BinaryFunc::kJsonbExistsAll: {
      const bool all = f == BinaryFunc::kJsonbExistsAll;
      const size_t n = array_size(b);
      for (size_t i = 0; i < n; ++i) {
        const Datum k = array_element(b, i, ctx.arena);
        if (k.is_null()) continue;
        if (exists(v, k.as_string()) != all) return Datum::from_bool(!all);
      }
      return Datum::from_bool(all);
    }
    case BinaryFunc::kJsonbConcat: return make_jsonb(concat(std::move(v), decode_jsonb(b)), ctx.arena);
    case BinaryFunc::kJsonbDeleteKey:
    case BinaryFunc::kJsonbDeleteKeys: {
      if (v.is_scalar()) return invalid("cannot delete from scalar");
      if (f == BinaryFunc::kJsonbDeleteKey) {
        delete_key(&v, b.as_string());
      } else {
        const size_t n = array_size(b);
        for (size_t i = 0; i < n; ++i) {
          const Datum k = array_element(b, i, ctx.arena);
          if (!k.is_null()) delete_key(&v, k.as_string());
        }
      }
      return make_jsonb(v, ctx.arena);
    }
    case BinaryFunc::kJsonbDeleteIndex: {
      if (v.is_scalar()) return invalid("cannot delete from scalar");
      if (v.kind == Kind::kObject) return invalid("cannot delete from object using integer index");
      int64_t i = b.as_int32();
      const auto n = static_cast<int64_t>(v.elements.size());
      if (i < 0) i += n;
      if (i >= 0 && i < n) v.elements.erase(v.elements.begin() + i);
      return make_jsonb(v, ctx.arena);
    }
    case BinaryFunc::kJsonbDeletePath: {
      if (v.is_scalar()) return invalid("cannot delete path in scalar");
      const size_t n = array_size(b);
      if (n > 0) TANDEM_RETURN_IF_ERROR(delete_path(&v, b, 0, n, ctx.arena));
      return make_jsonb(v, ctx.arena);
    }
    default:
      return Status::error(sqlstate::kInternalError, "not a json operator: " + std::string(func_name(f)));
  }
}

Result<Datum> eval_json_variadic(VariadicFunc f, std::span<const Datum> args, std::span<const ColumnType> types,
                                 EvalContext& ctx) {
  const bool object = f == VariadicFunc::kJsonbBuildObject || f == VariadicFunc::kJsonBuildObject;
  const bool json = f == VariadicFunc::kJsonBuildObject || f == VariadicFunc::kJsonBuildArray;
  if (object && args.size() % 2 != 0) {
    return invalid("argument list must have even number of elements")
        .with_hint("The arguments of " + std::string(func_name(f)) +
                   "() must consist of alternating keys and values.");
  }
  if (json) {
    // json_build_object's spacing: {"a" : 1, "b" : 2}; json_build_array: [1, 2].
    std::string s(object ? "{" : "[");
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) s.append(object && i % 2 == 1 ? " : " : ", ");
      if (object && i % 2 == 0) {
        TANDEM_ASSIGN_OR_RETURN(std::string key, key_text(args[i], types[i], i + 1));
        append_json_string(key, &s);
      } else {
        datum_to_json_text(args[i], types[i], ctx.arena, &s);
      }
    }
    s.append(object ? "}" : "]");
    return Datum::from_string(ctx.arena.push(s));
  }
  JsonValue out = object ? JsonValue::object() : JsonValue::array();
  for (size_t i = 0; i < args.size(); ++i) {
    if (object && i % 2 == 0) {
      TANDEM_ASSIGN_OR_RETURN(std::string key, key_text(args[i], types[i], i + 1));
      TANDEM_ASSIGN_OR_RETURN(JsonValue value, datum_to_json_value(args[i + 1], types[i + 1], ctx.arena));
      out.members.emplace_back(std::move(key), std::move(value));
      ++i;
    } else {
      TANDEM_ASSIGN_OR_RETURN(JsonValue value, datum_to_json_value(args[i], types[i], ctx.arena));
      out.elements.push_back(std::move(value));
    }
  }
  if (object) jsonb_normalize_object(&out);
  return make_jsonb(out, ctx.arena);
}

}  // namespace tandem::detail
