#pragma once
// BackendWriter: the encoding half of the wire codec. Appends backend
// (server -> client) messages to a caller-owned std::string, which the
// session later writes to the socket. Pure: no I/O, no session state.
//
// Every message is framed as type byte + int32 length (including itself,
// excluding the type) + body; the length is back-patched by end_message(),
// so bodies are written straight into the output buffer.
//
// DataRow is the hot path and allocates nothing beyond the buffer's own
// growth:
//   w.begin_data_row(n);
//   w.add_column("text");  w.add_null();
//   size_t c = w.begin_column(); w.buffer() += ...; w.end_column(c);  // in place
//   w.add_column_with([](std::string& out) { out += ...; });         // same
//   w.end_message();
// REQUIRES: exactly n columns between begin_data_row and end_message (asserted
// in debug builds); no other message may be started in between.
//
// Threading: a writer and its buffer belong to one thread at a time.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/status.hpp"
#include "frontend/pgwire/byte_order.hpp"
#include "frontend/pgwire/messages.hpp"

namespace tandem::pgwire {

// One column of a RowDescription.
struct FieldDescription {
  std::string_view name;
  Oid table_oid = 0;          // 0 when the column is not a table column
  int16_t column_attnum = 0;  // 0 when the column is not a table column
  Oid type_oid = 0;
  int16_t type_len = -1;  // pg_type.typlen; negative = variable width
  int32_t type_modifier = -1;
  int16_t format = 0;  // 0 text, 1 binary
};

// Transaction status byte of ReadyForQuery.
enum class TransactionStatus : char { kIdle = 'I', kInTransaction = 'T', kFailed = 'E' };

enum class NoticeSeverity : uint8_t { kWarning, kNotice, kInfo, kLog, kDebug };

// A NoticeResponse's content; severity + SQLSTATE + message are required.
struct Notice {
  NoticeSeverity severity = NoticeSeverity::kNotice;
  std::string_view sqlstate = sqlstate::kSuccessfulCompletion;
  std::string_view message;
  std::string_view detail;  // omitted when empty
  std::string_view hint;    // omitted when empty
};

const char* notice_severity_name(NoticeSeverity s);

class BackendWriter {
 public:
  // The writer appends to `out` and never clears it.
  explicit BackendWriter(std::string& out) : out_(out) {}

  std::string& buffer() { return out_; }

  // ---- authentication ----
  void authentication_ok();
  void authentication_cleartext_password();
  void authentication_sasl(std::span<const std::string_view> mechanisms);
  void authentication_sasl_continue(std::string_view data);
  void authentication_sasl_final(std::string_view data);

  // ---- session setup and status ----
  void parameter_status(std::string_view name, std::string_view value);
  void backend_key_data(int32_t process_id, int32_t secret_key);
  void ready_for_query(TransactionStatus status);
  // Minor version offered and the protocol options ("_pq_.*") not recognised.
  void negotiate_protocol_version(int32_t newest_minor, std::span<const std::string_view> unrecognized_options);

  // ---- query results ----
  void row_description(std::span<const FieldDescription> fields);
  void begin_data_row(int16_t column_count);
  void add_column(std::string_view value) {
    note_column();
    append_be32(out_, static_cast<uint32_t>(value.size()));
    out_.append(value);
  }
  void add_null() {
    note_column();
    append_be32(out_, 0xffffffffu);
  }
  // Writes a length placeholder and returns its offset; the caller appends
  // the value to buffer() and then calls end_column(offset).
  size_t begin_column() {
    note_column();
    const size_t at = out_.size();
    append_be32(out_, 0);
    return at;
  }
  void end_column(size_t offset) { store_be32(out_, offset, static_cast<uint32_t>(out_.size() - offset - 4)); }
  // write(std::string&) appends one column value to the buffer.
  template <class Fn>
  void add_column_with(Fn&& write) {
    const size_t at = begin_column();
    write(out_);
    end_column(at);
  }
  void command_complete(std::string_view tag);
  void empty_query_response();
  void no_data();
  void portal_suspended();

  // ---- errors and notices ----
  // REQUIRES: !status.is_ok(). Fields S, V, C, M, then D/H if non-empty and P
  // if position() > 0; severity ERROR or FATAL from status.severity().
  void error_response(const Status& status);
  void notice_response(const Notice& notice);

  // ---- extended protocol ----
  void parse_complete();
  void bind_complete();
  void close_complete();
  void parameter_description(std::span<const Oid> param_types);

  // ---- COPY ----
  // overall_format: 0 text, 1 binary; one format code per column.
  void copy_in_response(int8_t overall_format, std::span<const int16_t> column_formats);
  void copy_out_response(int8_t overall_format, std::span<const int16_t> column_formats);
  void copy_data(std::string_view data);
  void copy_done();

  // ---- generic framing, for messages built piecewise ----
  // REQUIRES: no message is open. The body is appended to buffer() (or with
  // the put_* helpers) and closed by end_message().
  void begin_message(char type);
  void end_message();
  void put_int16(int16_t v) { append_be16(out_, static_cast<uint16_t>(v)); }
  void put_int32(int32_t v) { append_be32(out_, static_cast<uint32_t>(v)); }
  void put_byte(char c) { out_.push_back(c); }
  // Appends `s` up to its first NUL (a NUL inside would desynchronise the
  // client's field parsing), then the terminator.
  void put_cstring(std::string_view s) {
    out_.append(s.substr(0, s.find('\0')));
    out_.push_back('\0');
  }

 private:
  void empty_message(char type);
  void copy_response(char type, int8_t overall_format, std::span<const int16_t> column_formats);
  void note_column() { ++columns_written_; }

  std::string& out_;
  size_t message_start_ = kNoMessage;
  static constexpr size_t kNoMessage = static_cast<size_t>(-1);
  // Checked by assertions only; kept in all builds so the layout does not
  // depend on NDEBUG.
  int columns_expected_ = -1;
  int columns_written_ = 0;
};

}  // namespace tandem::pgwire
