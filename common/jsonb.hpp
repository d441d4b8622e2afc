#pragma once
// jsonb and json values.
//
// A jsonb Datum (DatumKind::kJsonb) borrows its *encoding*, which is
// order-preserving: memcmp order of two encodings is PostgreSQL's jsonb
// btree order (jsonb_cmp), so a Row holding jsonb keeps memcmp = ORDER BY
// order and SQL-equal values (1.0 and 1) are byte-equal in key mode.
//
// PostgreSQL's order: Object > Array > Boolean > Number > String > Null;
// containers with more elements/pairs sort higher; then element by element
// (objects: key, value, key, value, ... with keys in storage order: shorter
// keys first, then bytewise); strings bytewise (C collation); numbers by
// value. A top-level scalar is PostgreSQL's "raw scalar" pseudo-array: it
// compares as a one-element array that sorts before a real array of one
// element ('[]' < '1' < '[0]').
//
// Encoding (each value prefix-free):
//   null 0x01 | string 0x02 <packed text datum> | number 0x03 <packed
//   numeric datum, key mode> | bool 0x04 <0|1> | array 0x10 <u32 BE count>
//   <values> | object 0x11 <u32 BE count> (<packed text datum> <value>)*
// with keys sorted and de-duplicated (the last duplicate wins), as jsonb_in
// stores them. The top level is an object, or 0x10 <count> <0 raw scalar |
// 1 array> <values>. After the value comes a trailer: 0x00, or 0x01 and one
// byte per number (document order) holding its display scale, present only
// when some number prints with more fractional digits than its value needs
// (1.50). Key mode (RowPacker::set_normalize_numeric) drops the trailer, so
// the value prints in shortest form there (1.50 -> 1.5), as numeric keys do.
//
// Numbers are tandem's NUMERIC (38 significant digits): a JSON number whose
// integer part needs more is 22003, one with more fractional digits is
// rounded. Strings hold UTF-8 without NUL (\u0000 is 22P05, as PostgreSQL).
//
// json (TypeId::kJson) is validated text kept as written (DatumKind::kString);
// its operators parse it with JsonValue, which remembers each value's source
// text.
// Threading: pure functions; results borrow from the caller's RowArena.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/datum.hpp"
#include "common/numeric.hpp"
#include "common/row_arena.hpp"
#include "common/status.hpp"

namespace tandem {

// A parsed JSON value, the working form of every jsonb operation.
struct JsonValue {
  enum class Kind : uint8_t { kNull, kString, kNumber, kBool, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  Numeric number;
  std::string string;
  std::vector<JsonValue> elements;
  // jsonb: sorted by jsonb_key_less and unique. json: as written.
  std::vector<std::pair<std::string, JsonValue>> members;
  // json only: the value's text in the input (borrowed from the parsed text).
  std::string_view raw;

  // The special members are defined in jsonb.cpp: with them implicit, clang
  // instantiates members' destructor (std::pair<std::string, JsonValue>)
  // in every file that makes a JsonValue, before the pair is complete.
  JsonValue();
  JsonValue(const JsonValue&);
  JsonValue(JsonValue&&) noexcept;
  JsonValue& operator=(const JsonValue&);
  JsonValue& operator=(JsonValue&&) noexcept;
  ~JsonValue();

  static JsonValue null();
  static JsonValue from_bool(bool b);
  static JsonValue from_number(const Numeric& n);
  static JsonValue from_string(std::string s);
  static JsonValue array();
  static JsonValue object();
  bool is_scalar() const { return kind != Kind::kArray && kind != Kind::kObject; }
  // Object member by key, or nullptr.
  const JsonValue* find(std::string_view key) const;
};

inline JsonValue JsonValue::null() { return JsonValue(); }
inline JsonValue JsonValue::from_bool(bool b) {
  JsonValue v;
  v.kind = Kind::kBool;
  v.boolean = b;
  return v;
}
inline JsonValue JsonValue::from_number(const Numeric& n) {
  JsonValue v;
  v.kind = Kind::kNumber;
  v.number = n;
  return v;
}
inline JsonValue JsonValue::from_string(std::string s) {
  JsonValue v;
  v.kind = Kind::kString;
  v.string = std::move(s);
  return v;
}
inline JsonValue JsonValue::array() {
  JsonValue v;
  v.kind = Kind::kArray;
  return v;
}
inline JsonValue JsonValue::object() {
  JsonValue v;
  v.kind = Kind::kObject;
  return v;
}

// jsonb's key order: shorter first, then bytewise.
bool jsonb_key_less(std::string_view a, std::string_view b);
// Sorts members by key, the last of equal keys winning (jsonb_in's rule).
void jsonb_normalize_object(JsonValue* object);

// Parses JSON text. `for_jsonb`: objects are normalized (recursively) and
// numbers must fit NUMERIC; otherwise members stay as written and `raw` is
// set (json). Errors as PostgreSQL: 22P02 "invalid input syntax for type
// json" with the detail ("Token "x" is invalid."), 22P05 for \u0000.
Result<JsonValue> parse_json(std::string_view text, bool for_jsonb);

// jsonb_out: `{"a": 1, "b": [1, 2]}`.
void format_jsonb_value(const JsonValue& v, std::string* out);
// jsonb_pretty: four-space indentation.
void format_jsonb_pretty(const JsonValue& v, std::string* out);
// A JSON string literal with escape_json's escapes.
void append_json_string(std::string_view s, std::string* out);
// A scalar's text as ->> returns it: strings unescaped, others as jsonb_out.
std::string jsonb_scalar_text(const JsonValue& v);
std::string_view jsonb_typeof(const JsonValue& v);

// The encoding of a value (objects must be normalized).
std::string encode_jsonb(const JsonValue& v);
Datum make_jsonb(const JsonValue& v, RowArena& arena);
JsonValue decode_jsonb(std::string_view encoding);
inline JsonValue decode_jsonb(const Datum& d) { return decode_jsonb(d.as_jsonb()); }

// Row codec support (common/row.cpp): the length of the encoding at the
// start of `bytes` (value and trailer), and the key-mode form (trailer
// dropped) appended to `out`.
size_t jsonb_encoded_size(std::string_view bytes);
void append_jsonb_key_mode(std::string_view encoding, std::string* out);
bool jsonb_is_key_mode(std::string_view encoding);

// The set-returning functions over jsonb: jsonb_each (key text, value
// jsonb), jsonb_each_text (key, value text), jsonb_array_elements (value
// jsonb), jsonb_array_elements_text (value text), jsonb_object_keys (text).
// Returns the output rows (datums borrow from `arena`), or PostgreSQL's
// 22023 for a document of the wrong shape ("cannot call jsonb_each on a
// non-object", "cannot extract elements from a scalar", ...).
enum class JsonbSetFunc : uint8_t { kEach, kEachText, kArrayElements, kArrayElementsText, kObjectKeys };
Result<std::vector<std::vector<Datum>>> expand_jsonb(JsonbSetFunc f, const Datum& doc, RowArena& arena);

// Value I/O.
void format_jsonb(const Datum& d, std::string* out);
Result<Datum> parse_jsonb(std::string_view text, RowArena& arena);
// json input: validates, keeps the text.
Result<Datum> parse_json_text(std::string_view text, RowArena& arena);
// Binary: jsonb is a version byte (1) and the text; json is the text.
void send_jsonb(const Datum& d, std::string* out);
Result<Datum> recv_jsonb(std::string_view bytes, RowArena& arena);

}  // namespace tandem
