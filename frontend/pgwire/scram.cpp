#include "frontend/pgwire/scram.hpp"

#include <utility>

namespace tandem::pgwire {

ScramServer::ScramServer(std::string user, std::string password)
    : user_(std::move(user)), password_(std::move(password)) {}

ScramServer::ScramServer(std::string user, std::string password, std::string server_nonce, std::string salt,
                         int iterations)
    : user_(std::move(user)),
      password_(std::move(password)),
      iterations_(iterations),
      salt_(std::move(salt)),
      server_nonce_(std::move(server_nonce)) {}

ScramServer ScramServer::for_unknown_user(std::string user) {
  ScramServer s(std::move(user), std::string());
  s.doomed_ = true;
  return s;
}

Status ScramServer::malformed(std::string_view what) {
  return fail(Status::error(sqlstate::kProtocolViolation, "malformed SCRAM message: " + std::string(what)));
}

Status ScramServer::auth_failed() {
  return fail(Status::error(sqlstate::kInvalidPassword, "password authentication failed for user \"" + user_ + "\""));
}

Result<std::string> ScramServer::handle_client_first(std::string_view client_first) {
  if (state_ != State::kInitial) return malformed("unexpected client-first-message");
  // gs2-header: cbind-flag "," [authzid] ","
  if (client_first.empty()) return malformed("empty client-first-message");
  const char flag = client_first[0];
  if (flag == 'p') {
    return malformed("the client selected channel binding (SCRAM-SHA-256-PLUS), which is not supported");
  }
  if (flag != 'n' && flag != 'y') return malformed("unexpected channel-binding flag");
  if (client_first.size() < 2 || client_first[1] != ',') return malformed("comma expected after channel-binding flag");
  std::string_view rest = client_first.substr(2);
  if (rest.starts_with("a=")) {
    return fail(Status::error(sqlstate::kFeatureNotSupported,
                              "client uses authorization identity, but it is not supported"));
  }
  if (rest.empty() || rest[0] != ',') return malformed("unexpected attribute in client-first-message");
  const std::string_view bare = rest.substr(1);

  scram::AttributeReader r(bare);
  if (r.peek() == 'm') {
    return fail(Status::error(sqlstate::kFeatureNotSupported, "client requires an unsupported SCRAM extension"));
  }
  // The username is ignored: the startup packet's user is authenticated.
  if (!r.read('n')) return malformed("username attribute expected in client-first-message");
  const std::optional<std::string_view> client_nonce = r.read('r');
  if (!client_nonce || client_nonce->empty() || !scram::is_printable(*client_nonce)) {
    return malformed("invalid client nonce");
  }
  while (!r.at_end()) {
    char name = 0;
    if (!r.read_any(&name)) return malformed("invalid attribute in client-first-message");
  }

  if (salt_.empty()) {
    Result<std::string> salt = scram::random_bytes(scram::kSaltLength);
    if (!salt.ok()) return fail(salt.status());
    salt_ = std::move(salt).value();
  }
  if (server_nonce_.empty()) {
    Result<std::string> nonce = scram::generate_nonce();
    if (!nonce.ok()) return fail(nonce.status());
    server_nonce_ = std::move(nonce).value();
  }
  cbind_flag_ = flag;
  client_first_bare_ = std::string(bare);
  full_nonce_ = std::string(*client_nonce) + server_nonce_;
  server_first_ = "r=" + full_nonce_ + ",s=" + scram::base64_encode(salt_) + ",i=" + std::to_string(iterations_);
  state_ = State::kFirstReceived;
  return server_first_;
}

Result<std::string> ScramServer::handle_client_final(std::string_view client_final) {
  if (state_ != State::kFirstReceived) return malformed("unexpected client-final-message");
  scram::AttributeReader r(client_final);

  const std::optional<std::string_view> cbind = r.read('c');
  if (!cbind) return malformed("channel-binding attribute expected in client-final-message");
  const std::optional<std::string> cbind_data = scram::base64_decode(*cbind);
  const std::string expected_gs2 = std::string(1, cbind_flag_) + ",,";
  if (!cbind_data || *cbind_data != expected_gs2) {
    return malformed("unexpected SCRAM channel-binding attribute in client-final-message");
  }
  const std::optional<std::string_view> nonce = r.read('r');
  if (!nonce || *nonce != full_nonce_) return malformed("nonce does not match");
  while (r.peek() != 'p') {
    char name = 0;
    if (r.at_end() || !r.read_any(&name)) return malformed("proof attribute expected in client-final-message");
  }
  // client-final-message-without-proof: everything before ",p=".
  const std::string_view without_proof = client_final.substr(0, client_final.size() - r.rest().size() - 1);
  const std::optional<std::string_view> proof_text = r.read('p');
  if (!proof_text || !r.at_end()) return malformed("garbage at end of client-final-message");
  const std::optional<std::string> proof = scram::base64_decode(*proof_text);
  if (!proof || proof->size() != scram::kKeyLength) return malformed("invalid ClientProof");

  const scram::Key salted = scram::salted_password(password_, salt_, iterations_);
  const scram::Keys keys = scram::derive_keys(salted);
  std::string auth_message;
  auth_message.reserve(client_first_bare_.size() + server_first_.size() + without_proof.size() + 2);
  auth_message.append(client_first_bare_).append(",").append(server_first_).append(",").append(without_proof);

  // ClientKey = ClientProof XOR ClientSignature; the client knows the
  // password iff H(ClientKey) equals StoredKey.
  const scram::Key client_signature = scram::signature(keys.stored_key, auth_message);
  scram::Key client_key{};
  for (size_t i = 0; i < client_key.size(); ++i) {
    client_key[i] = static_cast<uint8_t>(static_cast<uint8_t>((*proof)[i]) ^ client_signature[i]);
  }
  // An unknown user's exchange does all the same work, then fails: its
  // answer takes as long as a wrong password's.
  const bool proven = scram::constant_time_equal(scram::sha256(client_key), keys.stored_key);
  if (!proven || doomed_) return auth_failed();

  const scram::Key server_signature = scram::signature(keys.server_key, auth_message);
  state_ = State::kAuthenticated;
  return "v=" + scram::base64_encode(std::string_view(reinterpret_cast<const char*>(server_signature.data()),
                                                      server_signature.size()));
}

}  // namespace tandem::pgwire
