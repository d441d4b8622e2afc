#pragma once
// FrontendWriter: encodes frontend (client -> server) messages, the mirror of
// the decoder in codec.hpp. Used by the codec tests, by clients in tools and
// benchmarks, and by the lead's protocol tests to script a client. Appends
// to a caller-owned std::string; pure, no I/O. Threading: one thread at a
// time per writer/buffer.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "frontend/pgwire/messages.hpp"

namespace tandem::pgwire {

class FrontendWriter {
 public:
  explicit FrontendWriter(std::string& out) : out_(out) {}

  std::string& buffer() { return out_; }

  // ---- startup phase ----
  void startup_message(std::span<const std::pair<std::string_view, std::string_view>> parameters,
                       int32_t protocol_version = kProtocolVersion3);
  void ssl_request();
  void gssenc_request();
  void cancel_request(int32_t process_id, int32_t secret_key);

  // ---- 'p' variants ----
  void password_message(std::string_view password);
  void sasl_initial_response(std::string_view mechanism, std::optional<std::string_view> data);
  void sasl_response(std::string_view data);

  // ---- simple and extended query ----
  void query(std::string_view sql);
  void parse(std::string_view statement, std::string_view query, std::span<const Oid> param_types = {});
  void bind(std::string_view portal, std::string_view statement, std::span<const int16_t> param_formats,
            std::span<const std::optional<std::string_view>> params, std::span<const int16_t> result_formats);
  void describe(char kind, std::string_view name);
  void execute(std::string_view portal, int32_t max_rows = 0);
  void close(char kind, std::string_view name);
  void sync();
  void flush();
  void terminate();

  // ---- COPY ----
  void copy_data(std::string_view data);
  void copy_done();
  void copy_fail(std::string_view message);

  // Re-encodes a decoded message. Encoding is canonical, so for any frame
  // the decoder accepts, write(decode(frame)) reproduces the frame's bytes
  // (the codec fuzzer checks this). A PasswordMessage is written as its raw
  // payload.
  void write(const StartupPhaseMessage& m);
  void write(const FrontendMessage& m);

  // Generic framing (also to build deliberately malformed messages in tests).
  void begin_message(char type);
  void end_message();
  void put_int16(int16_t v);
  void put_int32(int32_t v);
  void put_cstring(std::string_view s);  // REQUIRES: no NUL in s

 private:
  std::string& out_;
  size_t message_start_ = 0;
};

}  // namespace tandem::pgwire
