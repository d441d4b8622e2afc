#include "frontend/pgwire/backend_writer.hpp"

#include <cassert>

namespace tandem::pgwire {

const char* notice_severity_name(NoticeSeverity s) {
  switch (s) {
    case NoticeSeverity::kWarning: return "WARNING";
    case NoticeSeverity::kNotice: return "NOTICE";
    case NoticeSeverity::kInfo: return "INFO";
    case NoticeSeverity::kLog: return "LOG";
    case NoticeSeverity::kDebug: return "DEBUG";
  }
  return "NOTICE";
}

void BackendWriter::begin_message(char type) {
  assert(message_start_ == kNoMessage && "begin_message with a message still open");
  out_.push_back(type);
  message_start_ = out_.size();
  append_be32(out_, 0);
}

void BackendWriter::end_message() {
  assert(message_start_ != kNoMessage && "end_message without begin_message");
  assert((columns_expected_ < 0 || columns_written_ == columns_expected_) && "DataRow column count mismatch");
  store_be32(out_, message_start_, static_cast<uint32_t>(out_.size() - message_start_));
  message_start_ = kNoMessage;
  columns_expected_ = -1;
}

void BackendWriter::empty_message(char type) {
  // Type + length 4: no need for back-patching.
  out_.push_back(type);
  append_be32(out_, 4);
}

void BackendWriter::authentication_ok() {
  begin_message('R');
  put_int32(0);
  end_message();
}

void BackendWriter::authentication_cleartext_password() {
  begin_message('R');
  put_int32(3);
  end_message();
}

void BackendWriter::authentication_sasl(std::span<const std::string_view> mechanisms) {
  begin_message('R');
  put_int32(10);
  for (std::string_view m : mechanisms) put_cstring(m);
  put_byte('\0');
  end_message();
}

void BackendWriter::authentication_sasl_continue(std::string_view data) {
  begin_message('R');
  put_int32(11);
  out_.append(data);
  end_message();
}

void BackendWriter::authentication_sasl_final(std::string_view data) {
  begin_message('R');
  put_int32(12);
  out_.append(data);
  end_message();
}

void BackendWriter::parameter_status(std::string_view name, std::string_view value) {
  begin_message('S');
  put_cstring(name);
  put_cstring(value);
  end_message();
}

void BackendWriter::backend_key_data(int32_t process_id, int32_t secret_key) {
  begin_message('K');
  put_int32(process_id);
  put_int32(secret_key);
  end_message();
}

void BackendWriter::ready_for_query(TransactionStatus status) {
  out_.push_back('Z');
  append_be32(out_, 5);
  out_.push_back(static_cast<char>(status));
}

void BackendWriter::negotiate_protocol_version(int32_t newest_minor,
                                               std::span<const std::string_view> unrecognized_options) {
  begin_message('v');
  put_int32(newest_minor);
  put_int32(static_cast<int32_t>(unrecognized_options.size()));
  for (std::string_view o : unrecognized_options) put_cstring(o);
  end_message();
}

void BackendWriter::row_description(std::span<const FieldDescription> fields) {
  begin_message('T');
  put_int16(static_cast<int16_t>(fields.size()));
  for (const FieldDescription& f : fields) {
    put_cstring(f.name);
    put_int32(static_cast<int32_t>(f.table_oid));
    put_int16(f.column_attnum);
    put_int32(static_cast<int32_t>(f.type_oid));
    put_int16(f.type_len);
    put_int32(f.type_modifier);
    put_int16(f.format);
  }
  end_message();
}

void BackendWriter::begin_data_row(int16_t column_count) {
  begin_message('D');
  put_int16(column_count);
  columns_expected_ = column_count;
  columns_written_ = 0;
}

void BackendWriter::command_complete(std::string_view tag) {
  begin_message('C');
  put_cstring(tag);
  end_message();
}

void BackendWriter::empty_query_response() { empty_message('I'); }
void BackendWriter::no_data() { empty_message('n'); }
void BackendWriter::portal_suspended() { empty_message('s'); }
void BackendWriter::parse_complete() { empty_message('1'); }
void BackendWriter::bind_complete() { empty_message('2'); }
void BackendWriter::close_complete() { empty_message('3'); }
void BackendWriter::copy_done() { empty_message('c'); }

void BackendWriter::error_response(const Status& status) {
  assert(!status.is_ok());
  const char* severity = status.severity() == Status::Severity::kFatal ? "FATAL" : "ERROR";
  begin_message('E');
  put_byte('S');
  put_cstring(severity);
  put_byte('V');
  put_cstring(severity);
  put_byte('C');
  put_cstring(status.sqlstate());
  put_byte('M');
  put_cstring(status.message());
  if (!status.detail().empty()) {
    put_byte('D');
    put_cstring(status.detail());
  }
  if (!status.hint().empty()) {
    put_byte('H');
    put_cstring(status.hint());
  }
  if (status.position() > 0) {
    put_byte('P');
    put_cstring(std::to_string(status.position()));
  }
  put_byte('\0');
  end_message();
}

void BackendWriter::notice_response(const Notice& notice) {
  const char* severity = notice_severity_name(notice.severity);
  begin_message('N');
  put_byte('S');
  put_cstring(severity);
  put_byte('V');
  put_cstring(severity);
  put_byte('C');
  put_cstring(notice.sqlstate);
  put_byte('M');
  put_cstring(notice.message);
  if (!notice.detail.empty()) {
    put_byte('D');
    put_cstring(notice.detail);
  }
  if (!notice.hint.empty()) {
    put_byte('H');
    put_cstring(notice.hint);
  }
  put_byte('\0');
  end_message();
}

void BackendWriter::parameter_description(std::span<const Oid> param_types) {
  begin_message('t');
  put_int16(static_cast<int16_t>(param_types.size()));
  for (Oid oid : param_types) put_int32(static_cast<int32_t>(oid));
  end_message();
}

void BackendWriter::copy_response(char type, int8_t overall_format, std::span<const int16_t> column_formats) {
  begin_message(type);
  put_byte(static_cast<char>(overall_format));
  put_int16(static_cast<int16_t>(column_formats.size()));
  for (int16_t f : column_formats) put_int16(f);
  end_message();
}

void BackendWriter::copy_in_response(int8_t overall_format, std::span<const int16_t> column_formats) {
  copy_response('G', overall_format, column_formats);
}

void BackendWriter::copy_out_response(int8_t overall_format, std::span<const int16_t> column_formats) {
  copy_response('H', overall_format, column_formats);
}

void BackendWriter::copy_data(std::string_view data) {
  begin_message('d');
  out_.append(data);
  end_message();
}

}  // namespace tandem::pgwire
