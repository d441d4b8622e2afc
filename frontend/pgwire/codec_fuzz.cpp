// libFuzzer target for the pgwire codec. Runs the startup phase until a
// StartupMessage, then the normal phase over the rest, on arbitrary bytes.
// Besides memory safety (ASan/UBSan) it checks the codec's contracts:
//   * need-more asks for more bytes than given, consumed sizes are in range;
//   * every error is 08P01;
//   * every accepted frame re-encodes to exactly its own bytes (canonical
//     encoding), and each strict prefix of it is need-more;
//   * the 'p' helpers and the SCRAM server's message parsers accept or
//     reject any payload without crashing.
// The first input byte picks the max message size so the limit is exercised.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

#include "frontend/pgwire/codec.hpp"
#include "frontend/pgwire/frontend_encoder.hpp"
#include "frontend/pgwire/scram.hpp"

using namespace tandem;
using namespace tandem::pgwire;

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

template <class Result>
void check_error(const Result& r) {
  check(r.status().sqlstate() == sqlstate::kProtocolViolation);
  check(!r.status().message().empty());
}

void check_canonical(std::span<const uint8_t> frame, const std::string& reencoded) {
  check(reencoded.size() == frame.size());
  check(std::memcmp(reencoded.data(), frame.data(), frame.size()) == 0);
}

void exercise_password_message(const PasswordMessage& m) {
  (void)m.as_password();
  (void)m.as_sasl_response();
  Result<SaslInitialResponse> init = m.as_sasl_initial_response();
  if (!init.ok() || !init->data) return;
  // Salt and nonce fixed so the fuzzer never waits on the RNG; a proof can
  // never verify (the fuzzer cannot guess the nonce and the key), so no PBKDF2.
  ScramServer server("fuzz", "pw", "serverNonce", "0123456789abcdef");
  Result<std::string> first = server.handle_client_first(*init->data);
  if (!first.ok()) {
    check(!first.status().sqlstate().empty());
    return;
  }
  // Replay the same bytes as a client-final-message.
  (void)server.handle_client_final(*init->data);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static constexpr size_t kLimits[] = {0, 1, 16, 64, 1024, kDefaultMaxMessageSize};
  const MessageDecoder decoder(kLimits[data[0] % std::size(kLimits)]);
  std::span<const uint8_t> in(data + 1, size - 1);

  // Startup phase: SSL/GSS/cancel requests, until a StartupMessage.
  for (bool started = false; !started;) {
    StartupDecodeResult r = decoder.try_decode_startup(in);
    if (r.needs_more()) {
      check(r.bytes_needed() > in.size());
      return 0;
    }
    if (r.is_error()) {
      check_error(r);
      return 0;
    }
    check(r.consumed() >= 8 && r.consumed() <= in.size());
    const auto frame = in.first(r.consumed());
    std::string again;
    FrontendWriter(again).write(r.message());
    check_canonical(frame, again);
    check(decoder.try_decode_startup(frame.first(frame.size() - 1)).needs_more());
    started = std::holds_alternative<StartupMessage>(r.message());
    in = in.subspan(r.consumed());
  }

  // Normal phase.
  for (;;) {
    FrontendDecodeResult r = decoder.try_decode(in);
    if (r.needs_more()) {
      check(r.bytes_needed() > in.size());
      return 0;
    }
    if (r.is_error()) {
      check_error(r);
      return 0;
    }
    check(r.consumed() >= kMessageHeaderSize && r.consumed() <= in.size());
    check(r.consumed() - kMessageHeaderSize <= decoder.max_message_size());
    const auto frame = in.first(r.consumed());
    std::string again;
    FrontendWriter(again).write(r.message());
    check_canonical(frame, again);
    check(decoder.try_decode(frame.first(frame.size() - 1)).needs_more());
    if (const auto* p = std::get_if<PasswordMessage>(&r.message())) exercise_password_message(*p);
    in = in.subspan(r.consumed());
  }
}
