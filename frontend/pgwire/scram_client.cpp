#include "frontend/pgwire/scram_client.hpp"

#include <charconv>
#include <utility>

namespace tandem::pgwire {

ScramClient::ScramClient(std::string user, std::string password)
    : user_(std::move(user)), password_(std::move(password)) {}

ScramClient::ScramClient(std::string user, std::string password, std::string client_nonce)
    : user_(std::move(user)), password_(std::move(password)), client_nonce_(std::move(client_nonce)) {}

Status ScramClient::malformed(std::string_view what) {
  return fail(Status::error(sqlstate::kProtocolViolation, "malformed SCRAM message from server: " + std::string(what)));
}

Result<std::string> ScramClient::client_first() {
  if (state_ != State::kInitial) return malformed("client-first-message already sent");
  if (client_nonce_.empty()) {
    Result<std::string> nonce = scram::generate_nonce();
    if (!nonce.ok()) return fail(nonce.status());
    client_nonce_ = std::move(nonce).value();
  }
  client_first_bare_ = "n=" + scram::escape_saslname(user_) + ",r=" + client_nonce_;
  state_ = State::kFirstSent;
  return "n,," + client_first_bare_;
}

Result<std::string> ScramClient::handle_server_first(std::string_view server_first) {
  if (state_ != State::kFirstSent) return malformed("unexpected server-first-message");
  scram::AttributeReader r(server_first);
  const std::optional<std::string_view> nonce = r.read('r');
  if (!nonce || nonce->size() <= client_nonce_.size() || !nonce->starts_with(client_nonce_) ||
      !scram::is_printable(*nonce)) {
    return malformed("invalid nonce");
  }
  const std::optional<std::string_view> salt_text = r.read('s');
  const std::optional<std::string> salt = salt_text ? scram::base64_decode(*salt_text) : std::nullopt;
  if (!salt || salt->empty()) return malformed("invalid salt");
  const std::optional<std::string_view> iter_text = r.read('i');
  int iterations = 0;
  if (!iter_text) return malformed("missing iteration count");
  const auto [end, ec] = std::from_chars(iter_text->data(), iter_text->data() + iter_text->size(), iterations);
  if (ec != std::errc() || end != iter_text->data() + iter_text->size() || iterations <= 0 ||
      iterations > kMaxIterations) {
    return malformed("invalid iteration count");
  }
  while (!r.at_end()) {
    char name = 0;
    if (!r.read_any(&name)) return malformed("invalid attribute in server-first-message");
  }

  const scram::Key salted = scram::salted_password(password_, *salt, iterations);
  const scram::Keys keys = scram::derive_keys(salted);
  const std::string without_proof = "c=biws,r=" + std::string(*nonce);  // biws = base64("n,,")
  const std::string auth_message = client_first_bare_ + "," + std::string(server_first) + "," + without_proof;
  const scram::Key client_signature = scram::signature(keys.stored_key, auth_message);
  std::string proof(scram::kKeyLength, '\0');
  for (size_t i = 0; i < proof.size(); ++i) {
    proof[i] = static_cast<char>(keys.client_key[i] ^ client_signature[i]);
  }
  expected_server_signature_ = scram::signature(keys.server_key, auth_message);
  state_ = State::kFinalSent;
  return without_proof + ",p=" + scram::base64_encode(proof);
}

Status ScramClient::handle_server_final(std::string_view server_final) {
  if (state_ != State::kFinalSent) return malformed("unexpected server-final-message");
  scram::AttributeReader r(server_final);
  if (r.peek() == 'e') {
    const std::optional<std::string_view> err = r.read('e');
    return fail(Status::error(sqlstate::kInvalidPassword,
                              "SCRAM authentication failed: " + std::string(err.value_or("unknown error"))));
  }
  const std::optional<std::string_view> v = r.read('v');
  if (!v) return malformed("verifier attribute expected in server-final-message");
  const std::optional<std::string> sig = scram::base64_decode(*v);
  if (!sig || sig->size() != scram::kKeyLength) return malformed("invalid server signature");
  scram::Key got{};
  for (size_t i = 0; i < got.size(); ++i) got[i] = static_cast<uint8_t>((*sig)[i]);
  if (!scram::constant_time_equal(got, expected_server_signature_)) {
    return fail(Status::error(sqlstate::kInvalidPassword, "incorrect server signature"));
  }
  state_ = State::kDone;
  return Status::ok();
}

}  // namespace tandem::pgwire
