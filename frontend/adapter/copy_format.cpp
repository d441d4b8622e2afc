#include "frontend/adapter/copy_format.hpp"

namespace tandem::frontend {
namespace {

constexpr const char* kBadCopyFileFormat = "22P04";

Status bad_format(size_t line, const std::string& what) {
  return Status::error(kBadCopyFileFormat, what).with_detail("COPY line " + std::to_string(line));
}

std::optional<char> single_char(const sql::OptionValue& v) {
  if (v.text.size() == 1) return v.text[0];
  if (v.text == "\\t") return '\t';
  return std::nullopt;
}

// Text format: fields separated by the delimiter, backslash escapes. Fields
// without escapes are views of `line`; unescaped ones are appended to
// `scratch`, which REQUIRES capacity for the whole line (no reallocation, so
// earlier views stay valid).
Status split_text_line(std::string_view line, size_t number, const CopyFormat& f, std::string& scratch,
                       std::vector<std::optional<std::string_view>>& fields) {
  fields.clear();
  size_t start = 0;
  while (true) {
    size_t end = start;
    bool escaped = false;
    while (end < line.size() && line[end] != f.delimiter) {
      if (line[end] == '\\') {
        escaped = true;
        if (end + 1 >= line.size()) return bad_format(number, "end-of-copy marker corrupt");
        end += 2;
        continue;
      }
      ++end;
    }
    std::string_view raw = line.substr(start, end - start);
    if (raw == f.null_string) {
      fields.emplace_back(std::nullopt);
    } else if (!escaped) {
      fields.emplace_back(raw);
    } else {
      size_t at = scratch.size();
      for (size_t i = 0; i < raw.size(); ++i) {
        char c = raw[i];
        if (c != '\\') {
          scratch.push_back(c);
          continue;
        }
        char e = raw[++i];
        switch (e) {
          case 'b': scratch.push_back('\b'); break;
          case 'f': scratch.push_back('\f'); break;
          case 'n': scratch.push_back('\n'); break;
          case 'r': scratch.push_back('\r'); break;
          case 't': scratch.push_back('\t'); break;
          case 'v': scratch.push_back('\v'); break;
          default: scratch.push_back(e); break;
        }
      }
      fields.emplace_back(std::string_view(scratch).substr(at));
    }
    if (end >= line.size()) break;
    start = end + 1;
  }
  return Status::ok();
}

}  // namespace

Result<CopyFormat> copy_format_from_options(const std::vector<sql::Option>& options) {
  CopyFormat f;
  bool delimiter_set = false, null_set = false;
  for (const auto& o : options) {
    if (o.name == "format") {
      if (o.value.text == "csv") {
        f.csv = true;
      } else if (o.value.text == "binary") {
        f.binary = true;
      } else if (o.value.text != "text") {
        return Status::error(sqlstate::kFeatureNotSupported, "COPY format \"" + o.value.text + "\" not supported");
      }
    } else if (o.name == "header") {
      f.header = o.value.kind == sql::OptionValue::Kind::kNone || o.value.text == "true" || o.value.text == "on" ||
                 o.value.text == "1";
    } else if (o.name == "delimiter") {
      auto c = single_char(o.value);
      if (!c) return Status::error(sqlstate::kFeatureNotSupported, "COPY delimiter must be a single one-byte character");
      f.delimiter = *c;
      delimiter_set = true;
    } else if (o.name == "null") {
      f.null_string = o.value.text;
      null_set = true;
    } else if (o.name == "quote") {
      auto c = single_char(o.value);
      if (!c) return Status::error(sqlstate::kFeatureNotSupported, "COPY quote must be a single one-byte character");
      f.quote = *c;
    } else if (o.name == "escape") {
      auto c = single_char(o.value);
      if (!c) return Status::error(sqlstate::kFeatureNotSupported, "COPY escape must be a single one-byte character");
      f.escape = *c;
    } else if (o.name == "freeze") {
      // A PostgreSQL storage hint (rows visible as frozen); nothing to do.
    } else {
      return Status::error(sqlstate::kFeatureNotSupported, "COPY option \"" + o.name + "\" not supported");
    }
  }
  if (f.binary) {
    const char* text_only = delimiter_set ? "DELIMITER" : null_set ? "NULL" : f.header ? "HEADER" : nullptr;
    if (text_only != nullptr) {
      return Status::error(sqlstate::kSyntaxError, std::string("cannot specify ") + text_only + " in BINARY mode");
    }
  } else if (f.csv) {
    if (!delimiter_set) f.delimiter = ',';
    if (!null_set) f.null_string = "";
  } else if (f.header) {
    return Status::error(sqlstate::kFeatureNotSupported, "COPY HEADER available only in CSV mode");
  }
  return f;
}

namespace {

// Splits `data` (whole records only, except at the end of the input) into
// rows. `*line` counts the lines before `data` and is advanced; the header,
// while `*skip_header`, is skipped; `*ended` is set at the text format's
// `\.` end marker (the rest of the input is ignored).
Status split_records(std::string_view data, const CopyFormat& f, const CopyRowFn& fn, size_t* line_count,
                     bool* skip_header_state, bool* ended) {
  size_t& line = *line_count;
  bool& skip_header = *skip_header_state;
  size_t pos = 0;
  std::string scratch;
  std::vector<std::optional<std::string_view>> fields;
  while (pos < data.size()) {
    ++line;
    size_t first_line = line;
    scratch.clear();
    if (!f.csv) {
      size_t end = data.find('\n', pos);
      std::string_view text = data.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
      pos = end == std::string_view::npos ? data.size() : end + 1;
      if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
      if (text == "\\.") {
        *ended = true;
        break;
      }
      if (scratch.capacity() < text.size()) scratch.reserve(text.size() * 2);
      TANDEM_RETURN_IF_ERROR(split_text_line(text, line, f, scratch, fields));
      TANDEM_RETURN_IF_ERROR(fn(line, fields));
      continue;
    }
    // CSV: quoted fields may span lines; an unquoted field equal to the
    // null string (by default empty) is NULL, a quoted one never is. Field
    // text is collected in `scratch`, reserved for the rest of the input so
    // views into it stay valid.
    if (scratch.capacity() < data.size() - pos) scratch.reserve(data.size() - pos);
    fields.clear();
    size_t field_start = 0;
    bool in_quote = false, any_quote = false, started = false;
    auto push_field = [&] {
      std::string_view field = std::string_view(scratch).substr(field_start);
      if (!any_quote && field == f.null_string) {
        fields.emplace_back(std::nullopt);
      } else {
        fields.emplace_back(field);
      }
      field_start = scratch.size();
      any_quote = false;
    };
    for (;;) {
      if (pos >= data.size()) {
        if (in_quote) return bad_format(line, "unterminated CSV quoted field");
        if (started) push_field();
        break;
      }
      char c = data[pos++];
      started = true;
      if (in_quote) {
        bool next_is_quote = pos < data.size() && data[pos] == f.quote;
        if (c == f.escape && next_is_quote) {
          scratch.push_back(f.quote);
          ++pos;
        } else if (c == f.quote) {
          in_quote = false;
        } else {
          if (c == '\n') ++line;
          scratch.push_back(c);
        }
      } else if (c == f.quote) {
        in_quote = true;
        any_quote = true;
      } else if (c == f.delimiter) {
        push_field();
      } else if (c == '\n') {
        push_field();
        break;
      } else if (c == '\r' && pos < data.size() && data[pos] == '\n') {
        continue;
      } else {
        scratch.push_back(c);
      }
    }
    if (fields.size() == 1 && fields[0] && *fields[0] == "\\.") {
      *ended = true;
      break;
    }
    if (skip_header) {
      skip_header = false;
      continue;
    }
    if (!fields.empty()) TANDEM_RETURN_IF_ERROR(fn(first_line, fields));
  }
  return Status::ok();
}

}  // namespace

Status for_each_copy_row(std::string_view data, const CopyFormat& f, const CopyRowFn& fn) {
  size_t line = 0;
  bool skip_header = f.header;
  bool ended = false;
  return split_records(data, f, fn, &line, &skip_header, &ended);
}

size_t CopyRowSplitter::complete_prefix(std::string_view data) {
  if (!format_.csv) {
    size_t end = data.rfind('\n');
    return end == std::string_view::npos ? 0 : end + 1;
  }
  // CSV: a newline ends a record only outside quotes. The quote state is
  // carried across pieces from where the unparsed part starts.
  size_t complete = 0;
  for (size_t i = scanned_; i < data.size(); ++i) {
    char c = data[i];
    if (in_quote_) {
      if (c == format_.escape && c != format_.quote && i + 1 < data.size() && data[i + 1] == format_.quote) {
        ++i;
      } else if (c == format_.escape && c != format_.quote && i + 1 == data.size()) {
        scanned_ = i;  // decide with the next piece
        return complete;
      } else if (c == format_.quote) {
        in_quote_ = false;
      }
    } else if (c == format_.quote) {
      in_quote_ = true;
    } else if (c == '\n') {
      complete = i + 1;
    }
  }
  scanned_ = data.size();
  return complete;
}

Status CopyRowSplitter::feed(std::string_view piece) {
  if (ended_) return Status::ok();
  pending_.append(piece);
  size_t complete = complete_prefix(pending_);
  if (complete == 0) return Status::ok();
  TANDEM_RETURN_IF_ERROR(
      split_records(std::string_view(pending_).substr(0, complete), format_, fn_, &lines_, &skip_header_, &ended_));
  pending_.erase(0, complete);
  scanned_ -= std::min(scanned_, complete);
  return Status::ok();
}

Status CopyRowSplitter::finish() {
  if (ended_ || pending_.empty()) return Status::ok();
  Status s = split_records(pending_, format_, fn_, &lines_, &skip_header_, &ended_);
  pending_.clear();
  return s;
}

Result<std::vector<CopyRow>> parse_copy_data(std::string_view data, const CopyFormat& format) {
  std::vector<CopyRow> rows;
  TANDEM_RETURN_IF_ERROR(for_each_copy_row(data, format, [&](size_t line, const auto& fields) {
    CopyRow row;
    row.line = line;
    for (const auto& f : fields) row.fields.emplace_back(f ? std::optional<std::string>(*f) : std::nullopt);
    rows.push_back(std::move(row));
    return Status::ok();
  }));
  return rows;
}

void format_copy_row(const std::vector<std::optional<std::string>>& fields, const CopyFormat& f, std::string* out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out->push_back(f.delimiter);
    if (!fields[i]) {
      out->append(f.null_string);
      continue;
    }
    const std::string& v = *fields[i];
    if (f.csv) {
      bool needs_quote = v.empty() || v.find_first_of(std::string{f.delimiter, f.quote, '\n', '\r'}) != std::string::npos;
      if (!needs_quote) {
        out->append(v);
        continue;
      }
      out->push_back(f.quote);
      for (char c : v) {
        if (c == f.quote) out->push_back(f.escape);
        out->push_back(c);
      }
      out->push_back(f.quote);
      continue;
    }
    for (char c : v) {
      switch (c) {
        case '\\': out->append("\\\\"); break;
        case '\n': out->append("\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\t': out->append("\\t"); break;
        default:
          if (c == f.delimiter) {
            out->push_back('\\');
          }
          out->push_back(c);
      }
    }
  }
  out->push_back('\n');
}

}  // namespace tandem::frontend
