#include "frontend/pgwire/frontend_encoder.hpp"

#include <type_traits>
#include <variant>

#include "frontend/pgwire/byte_order.hpp"

namespace tandem::pgwire {

void FrontendWriter::begin_message(char type) {
  out_.push_back(type);
  message_start_ = out_.size();
  append_be32(out_, 0);
}

void FrontendWriter::end_message() {
  store_be32(out_, message_start_, static_cast<uint32_t>(out_.size() - message_start_));
}

void FrontendWriter::put_int16(int16_t v) { append_be16(out_, static_cast<uint16_t>(v)); }
void FrontendWriter::put_int32(int32_t v) { append_be32(out_, static_cast<uint32_t>(v)); }

void FrontendWriter::put_cstring(std::string_view s) {
  out_.append(s);
  out_.push_back('\0');
}

void FrontendWriter::startup_message(std::span<const std::pair<std::string_view, std::string_view>> parameters,
                                     int32_t protocol_version) {
  message_start_ = out_.size();
  append_be32(out_, 0);
  put_int32(protocol_version);
  for (const auto& [key, value] : parameters) {
    put_cstring(key);
    put_cstring(value);
  }
  out_.push_back('\0');
  end_message();
}

void FrontendWriter::ssl_request() {
  put_int32(8);
  put_int32(kSslRequestCode);
}

void FrontendWriter::gssenc_request() {
  put_int32(8);
  put_int32(kGssEncRequestCode);
}

void FrontendWriter::cancel_request(int32_t process_id, int32_t secret_key) {
  put_int32(16);
  put_int32(kCancelRequestCode);
  put_int32(process_id);
  put_int32(secret_key);
}

void FrontendWriter::password_message(std::string_view password) {
  begin_message('p');
  put_cstring(password);
  end_message();
}

void FrontendWriter::sasl_initial_response(std::string_view mechanism, std::optional<std::string_view> data) {
  begin_message('p');
  put_cstring(mechanism);
  if (data) {
    put_int32(static_cast<int32_t>(data->size()));
    out_.append(*data);
  } else {
    put_int32(-1);
  }
  end_message();
}

void FrontendWriter::sasl_response(std::string_view data) {
  begin_message('p');
  out_.append(data);
  end_message();
}

void FrontendWriter::query(std::string_view sql) {
  begin_message('Q');
  put_cstring(sql);
  end_message();
}

void FrontendWriter::parse(std::string_view statement, std::string_view query, std::span<const Oid> param_types) {
  begin_message('P');
  put_cstring(statement);
  put_cstring(query);
  put_int16(static_cast<int16_t>(param_types.size()));
  for (Oid oid : param_types) put_int32(static_cast<int32_t>(oid));
  end_message();
}

void FrontendWriter::bind(std::string_view portal, std::string_view statement,
                          std::span<const int16_t> param_formats,
                          std::span<const std::optional<std::string_view>> params,
                          std::span<const int16_t> result_formats) {
  begin_message('B');
  put_cstring(portal);
  put_cstring(statement);
  put_int16(static_cast<int16_t>(param_formats.size()));
  for (int16_t f : param_formats) put_int16(f);
  put_int16(static_cast<int16_t>(params.size()));
  for (const auto& p : params) {
    if (p) {
      put_int32(static_cast<int32_t>(p->size()));
      out_.append(*p);
    } else {
      put_int32(-1);
    }
  }
  put_int16(static_cast<int16_t>(result_formats.size()));
  for (int16_t f : result_formats) put_int16(f);
  end_message();
}

void FrontendWriter::describe(char kind, std::string_view name) {
  begin_message('D');
  out_.push_back(kind);
  put_cstring(name);
  end_message();
}

void FrontendWriter::execute(std::string_view portal, int32_t max_rows) {
  begin_message('E');
  put_cstring(portal);
  put_int32(max_rows);
  end_message();
}

void FrontendWriter::close(char kind, std::string_view name) {
  begin_message('C');
  out_.push_back(kind);
  put_cstring(name);
  end_message();
}

void FrontendWriter::sync() {
  begin_message('S');
  end_message();
}

void FrontendWriter::flush() {
  begin_message('H');
  end_message();
}

void FrontendWriter::terminate() {
  begin_message('X');
  end_message();
}

void FrontendWriter::copy_data(std::string_view data) {
  begin_message('d');
  out_.append(data);
  end_message();
}

void FrontendWriter::copy_done() {
  begin_message('c');
  end_message();
}

void FrontendWriter::copy_fail(std::string_view message) {
  begin_message('f');
  put_cstring(message);
  end_message();
}

void FrontendWriter::write(const StartupPhaseMessage& m) {
  std::visit(
      [this](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, StartupMessage>) {
          startup_message(msg.parameters, msg.protocol_version);
        } else if constexpr (std::is_same_v<T, SslRequest>) {
          ssl_request();
        } else if constexpr (std::is_same_v<T, GssEncRequest>) {
          gssenc_request();
        } else {
          static_assert(std::is_same_v<T, CancelRequest>);
          cancel_request(msg.process_id, msg.secret_key);
        }
      },
      m);
}

void FrontendWriter::write(const FrontendMessage& m) {
  std::visit(
      [this](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, PasswordMessage>) {
          sasl_response(msg.payload);
        } else if constexpr (std::is_same_v<T, Query>) {
          query(msg.sql);
        } else if constexpr (std::is_same_v<T, Parse>) {
          parse(msg.statement, msg.query, msg.param_types);
        } else if constexpr (std::is_same_v<T, Bind>) {
          bind(msg.portal, msg.statement, msg.param_formats, msg.params, msg.result_formats);
        } else if constexpr (std::is_same_v<T, Describe>) {
          describe(msg.kind, msg.name);
        } else if constexpr (std::is_same_v<T, Execute>) {
          execute(msg.portal, msg.max_rows);
        } else if constexpr (std::is_same_v<T, Close>) {
          close(msg.kind, msg.name);
        } else if constexpr (std::is_same_v<T, Sync>) {
          sync();
        } else if constexpr (std::is_same_v<T, Flush>) {
          flush();
        } else if constexpr (std::is_same_v<T, Terminate>) {
          terminate();
        } else if constexpr (std::is_same_v<T, CopyData>) {
          copy_data(msg.data);
        } else if constexpr (std::is_same_v<T, CopyDone>) {
          copy_done();
        } else {
          static_assert(std::is_same_v<T, CopyFail>);
          copy_fail(msg.message);
        }
      },
      m);
}

}  // namespace tandem::pgwire
