// Array text/binary I/O and casts (see common/array.hpp): PostgreSQL's
// array_out, array_in, array_send and array_recv for one dimension.
#include "common/array.hpp"

#include <cctype>
#include <cstring>

#include "common/eval.hpp"
#include "common/sqlstate.hpp"
#include "common/value_io.hpp"

namespace tandem {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

Status malformed(std::string_view text, std::string detail) {
  return Status::error(sqlstate::kInvalidTextRepresentation, "malformed array literal: \"" + std::string(text) + "\"")
      .with_detail(std::move(detail));
}

Status multidimensional() {
  return Status::error(sqlstate::kFeatureNotSupported, "multidimensional arrays are not supported");
}

// array_out's rule: quote empty strings, "NULL", and anything holding a
// delimiter, brace, quote, backslash or whitespace.
bool needs_quotes(std::string_view s) {
  if (s.empty() || iequals(s, "NULL")) return true;
  for (char c : s) {
    if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || is_space(c)) return true;
  }
  return false;
}

template <class U>
void put_be(std::string* out, U v) {
  for (size_t i = 0; i < sizeof(U); ++i) out->push_back(static_cast<char>(v >> (8 * (sizeof(U) - 1 - i))));
}

int32_t get_i32(std::string_view b, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return static_cast<int32_t>(v);
}

// One element of an array literal: its unescaped text and whether it was
// written as the bare word NULL.
struct Element {
  std::string text;
  bool null = false;
};

// Parses `{...}` into elements; `p` is past the opening brace.
Result<std::vector<Element>> split_elements(std::string_view text, size_t p) {
  std::vector<Element> out;
  auto skip_spaces = [&] { while (p < text.size() && is_space(text[p])) ++p; };
  skip_spaces();
  if (p < text.size() && text[p] == '}') {
    ++p;
  } else {
    for (;;) {
      skip_spaces();
      if (p >= text.size()) return malformed(text, "Unexpected end of input.");
      if (text[p] == '{') return multidimensional();
      Element e;
      if (text[p] == '"') {
        ++p;
        for (;;) {
          if (p >= text.size()) return malformed(text, "Unexpected end of input.");
          char c = text[p++];
          if (c == '"') break;
          if (c == '\\') {
            if (p >= text.size()) return malformed(text, "Unexpected end of input.");
            c = text[p++];
          }
          e.text.push_back(c);
        }
      } else {
        bool escaped = false;
        size_t keep = 0;  // length up to the last escaped or non-space char
        while (p < text.size() && text[p] != ',' && text[p] != '}') {
          char c = text[p++];
          if (c == '"' || c == '{') {
            return malformed(text, std::string("Unexpected \"") + c + "\" character.");
          }
          if (c == '\\') {
            if (p >= text.size()) return malformed(text, "Unexpected end of input.");
            e.text.push_back(text[p++]);
            escaped = true;
            keep = e.text.size();
            continue;
          }
          e.text.push_back(c);
          if (!is_space(c)) keep = e.text.size();
        }
        e.text.resize(keep);
        if (e.text.empty() && !escaped) {
          if (p >= text.size()) return malformed(text, "Unexpected end of input.");
          return malformed(text, std::string("Unexpected \"") + text[p] + "\" character.");
        }
        e.null = !escaped && iequals(e.text, "NULL");
      }
      out.push_back(std::move(e));
      skip_spaces();
      if (p >= text.size()) return malformed(text, "Unexpected end of input.");
      const char c = text[p++];
      if (c == '}') break;
      if (c != ',') return malformed(text, std::string("Unexpected \"") + c + "\" character.");
    }
  }
  skip_spaces();
  if (p != text.size()) return malformed(text, "Junk after closing right brace.");
  return out;
}

}  // namespace

size_t array_size(const Datum& array) { return row_arity(RowRef(array.as_array())); }

Datum array_element(const Datum& array, size_t i, RowArena& arena) {
  RowIter it(RowRef(array.as_array()), &arena);
  for (size_t k = 0; k < i; ++k) it.skip();
  return it.next();
}

void format_array(const Datum& array, std::string* out) {
  RowArena arena;
  RowIter it(RowRef(array.as_array()), &arena);
  out->push_back('{');
  bool first = true;
  std::string element;
  while (!it.done()) {
    if (!first) out->push_back(',');
    first = false;
    const Datum d = it.next();
    if (d.is_null()) {
      out->append("NULL");
      continue;
    }
    element.clear();
    format_datum(d, ColumnType{}, &element);
    if (!needs_quotes(element)) {
      out->append(element);
      continue;
    }
    out->push_back('"');
    for (char c : element) {
      if (c == '"' || c == '\\') out->push_back('\\');
      out->push_back(c);
    }
    out->push_back('"');
  }
  out->push_back('}');
}

Result<Datum> parse_array(std::string_view text, const ColumnType& type, RowArena& arena) {
  size_t p = 0;
  while (p < text.size() && is_space(text[p])) ++p;
  if (p < text.size() && text[p] == '[') {
    return Status::error(sqlstate::kFeatureNotSupported, "array dimension decorations are not supported");
  }
  if (p >= text.size() || text[p] != '{') {
    return malformed(text, "Array value must start with \"{\" or dimension information.");
  }
  TANDEM_ASSIGN_OR_RETURN(std::vector<Element> elements, split_elements(text, p + 1));
  const ColumnType element_type = array_element_column(type);
  ArrayBuilder builder;
  for (const Element& e : elements) {
    if (e.null) {
      builder.push(Datum::null());
      continue;
    }
    TANDEM_ASSIGN_OR_RETURN(Datum d, parse_datum(e.text, element_type, arena));
    builder.push(d);
  }
  return builder.finish(arena);
}

void send_array(const Datum& array, const ColumnType& type, std::string* out) {
  RowArena arena;
  const ColumnType element_type = array_element_column(type);
  const size_t n = array_size(array);
  bool has_nulls = false;
  for (RowIter it(RowRef(array.as_array()), &arena); !it.done();) has_nulls |= it.next().is_null();
  put_be<uint32_t>(out, n == 0 ? 0 : 1);
  put_be<uint32_t>(out, has_nulls ? 1 : 0);
  put_be<uint32_t>(out, type_oid(element_type.id));
  if (n == 0) return;
  put_be<uint32_t>(out, static_cast<uint32_t>(n));
  put_be<uint32_t>(out, 1);
  std::string value;
  for (RowIter it(RowRef(array.as_array()), &arena); !it.done();) {
    const Datum d = it.next();
    if (d.is_null()) {
      put_be<uint32_t>(out, 0xFFFFFFFFu);
      continue;
    }
    value.clear();
    send_datum(d, element_type, &value);
    put_be<uint32_t>(out, static_cast<uint32_t>(value.size()));
    out->append(value);
  }
}

Result<Datum> recv_array(std::string_view b, const ColumnType& type, RowArena& arena) {
  auto bad = [](std::string msg) { return Status::error(sqlstate::kInvalidBinaryRepresentation, std::move(msg)); };
  if (b.size() < 12) return bad("insufficient data left in message");
  const int32_t ndim = get_i32(b, 0);
  const int32_t flags = get_i32(b, 4);
  const auto element_oid = static_cast<uint32_t>(get_i32(b, 8));
  if (ndim < 0 || ndim > 6) return bad("invalid number of dimensions: " + std::to_string(ndim));
  if (flags != 0 && flags != 1) return bad("invalid array flags");
  const ColumnType element_type = array_element_column(type);
  if (element_oid != type_oid(element_type.id)) {
    return Status::error(sqlstate::kDatatypeMismatch, "binary data has array element type " +
                                                          std::to_string(element_oid) + " instead of expected " +
                                                          std::to_string(type_oid(element_type.id)));
  }
  ArrayBuilder builder;
  if (ndim == 0) {
    if (b.size() != 12) return bad("incorrect binary data format");
    return builder.finish(arena);
  }
  if (ndim > 1) return multidimensional();
  if (b.size() < 20) return bad("insufficient data left in message");
  const int32_t n = get_i32(b, 12);
  if (n < 0) return bad("array size must not be negative");
  if (get_i32(b, 16) != 1) {
    return Status::error(sqlstate::kFeatureNotSupported, "array lower bounds other than 1 are not supported");
  }
  size_t at = 20;
  for (int32_t i = 0; i < n; ++i) {
    if (b.size() - at < 4) return bad("insufficient data left in message");
    const int32_t len = get_i32(b, at);
    at += 4;
    if (len == -1) {
      builder.push(Datum::null());
      continue;
    }
    if (len < 0 || b.size() - at < static_cast<size_t>(len)) return bad("insufficient data left in message");
    TANDEM_ASSIGN_OR_RETURN(Datum d, recv_datum(b.substr(at, static_cast<size_t>(len)), element_type, arena));
    at += static_cast<size_t>(len);
    builder.push(d);
  }
  if (at != b.size()) return bad("incorrect binary data format");
  return builder.finish(arena);
}

Result<Datum> cast_array(const Datum& array, const ColumnType& from, const ColumnType& to, bool explicit_cast,
                         RowArena& arena) {
  const ColumnType from_element = array_element_column(from);
  const ColumnType to_element = array_element_column(to);
  ArrayBuilder builder;
  for (RowIter it(RowRef(array.as_array()), &arena); !it.done();) {
    TANDEM_ASSIGN_OR_RETURN(Datum d, cast_datum(it.next(), from_element, to_element, explicit_cast, arena));
    builder.push(d);
  }
  return builder.finish(arena);
}

}  // namespace tandem
