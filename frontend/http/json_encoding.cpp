#include "frontend/http/json_encoding.hpp"

#include <cmath>
#include <cstdio>

#include "common/array.hpp"
#include "common/value_io.hpp"

namespace tandem::frontend::http {

namespace {

// Whether a numeric's text form is a JSON number a double holds exactly.
bool numeric_fits_double(std::string_view text) {
  size_t significant = 0;
  bool leading = true;
  size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  if (i == text.size() || text[i] < '0' || text[i] > '9') return false;  // NaN, Infinity
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') continue;
    if (c < '0' || c > '9') return false;  // an exponent or anything else: keep the text
    if (c != '0') leading = false;
    if (!leading) ++significant;
  }
  return significant <= 15 && text.back() != '.';
}

void append_value(const Datum& d, const ColumnType& type, RowArena& arena, std::string* out);

void append_float(double v, const ColumnType& type, const Datum& d, std::string* out) {
  if (!std::isfinite(v)) {
    append_json_string(datum_to_text(d, type), out);
  } else {
    format_datum(d, type, out);  // PostgreSQL's shortest round-trip digits
  }
}

void append_value(const Datum& d, const ColumnType& type, RowArena& arena, std::string* out) {
  if (d.is_null()) {
    out->append("null");
    return;
  }
  switch (type.id) {
    case TypeId::kBool:
      out->append(d.as_bool() ? "true" : "false");
      return;
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
    case TypeId::kOid:
      format_datum(d, type, out);
      return;
    case TypeId::kFloat4:
      append_float(d.as_float32(), type, d, out);
      return;
    case TypeId::kFloat8:
      append_float(d.as_float64(), type, d, out);
      return;
    case TypeId::kNumeric: {
      std::string text = datum_to_text(d, type);
      if (numeric_fits_double(text)) {
        out->append(text);
      } else {
        append_json_string(text, out);
      }
      return;
    }
    default:
      break;
  }
  if (is_array_type(type.id)) {
    ColumnType element = array_element_column(type);
    out->push_back('[');
    size_t n = array_size(d);
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) out->push_back(',');
      append_value(array_element(d, i, arena), element, arena, out);
    }
    out->push_back(']');
    return;
  }
  append_json_string(datum_to_text(d, type), out);
}

void append_field(std::string_view name, std::string_view value, std::string* out) {
  out->push_back(',');
  append_json_string(name, out);
  out->push_back(':');
  append_json_string(value, out);
}

}  // namespace

void append_row(std::span<const ResultColumn> columns, const Row& row, RowArena& arena, std::string* out) {
  RowIter it(row.ref(), &arena);
  out->push_back('[');
  for (size_t c = 0; c < columns.size(); ++c) {
    if (c > 0) out->push_back(',');
    Datum d = it.done() ? Datum::null() : it.next();
    append_value(d, columns[c].type, arena, out);
  }
  out->push_back(']');
}

void append_description(std::span<const ResultColumn> columns, std::string* out) {
  out->append("{\"columns\":[");
  for (size_t c = 0; c < columns.size(); ++c) {
    if (c > 0) out->push_back(',');
    out->append("{\"name\":");
    append_json_string(columns[c].name, out);
    out->append(",\"type_oid\":" + std::to_string(type_oid(columns[c].type.id)));
    out->append(",\"type_len\":" + std::to_string(type_len(columns[c].type.id)));
    out->append(",\"type_mod\":" + std::to_string(columns[c].type.typmod) + "}");
  }
  out->append("]}");
}

void append_error(const Status& status, std::string* out) {
  out->append("{\"message\":");
  append_json_string(status.message(), out);
  append_field("code", status.sqlstate(), out);
  if (!status.detail().empty()) append_field("detail", status.detail(), out);
  if (!status.hint().empty()) append_field("hint", status.hint(), out);
  if (status.position() > 0) out->append(",\"position\":" + std::to_string(status.position()));
  out->push_back('}');
}

void append_notice(const ResultNotice& notice, std::string* out) {
  out->append("{\"message\":");
  append_json_string(notice.status.message(), out);
  append_field("code", notice.status.sqlstate(), out);
  append_field("severity", notice.severity == ResultNotice::Severity::kWarning ? "warning" : "notice", out);
  if (!notice.status.detail().empty()) append_field("detail", notice.status.detail(), out);
  if (!notice.status.hint().empty()) append_field("hint", notice.status.hint(), out);
  out->push_back('}');
}

}  // namespace tandem::frontend::http
