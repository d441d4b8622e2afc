#pragma once
// ScramServer: the server side of SASL SCRAM-SHA-256 (RFC 5802 / RFC 7677)
// as PostgreSQL implements it, given the user's plain password.
//
// Exchange, driven by the session's authentication step:
//   server: AuthenticationSASL ["SCRAM-SHA-256"]
//   client: SASLInitialResponse  -> handle_client_first()  -> AuthenticationSASLContinue
//   client: SASLResponse         -> handle_client_final()  -> AuthenticationSASLFinal, then AuthenticationOk
//
// PostgreSQL's choices, kept here: only "SCRAM-SHA-256" (no -PLUS, so no
// channel binding: gs2 flag 'n' or 'y' accepted, 'p' rejected); no authzid;
// the username inside client-first is ignored, the startup packet's user is
// authenticated; salt is 16 random bytes, server nonce 18 random bytes
// (base64), 4096 iterations. SASLprep is not applied (identity on ASCII).
//
// Errors: malformed messages -> 08P01 "malformed SCRAM message: ...";
// unsupported features (authzid, extensions) -> 0A000; a wrong proof ->
// 28P01 `password authentication failed for user "<user>"`. After any error
// the exchange is over; the session sends the error and closes.
//
// Threading: one exchange per object, used by one thread at a time. The
// PBKDF2 step (~1-2 ms at 4096 iterations) runs inside handle_client_final().

#include <string>
#include <string_view>

#include "common/status.hpp"
#include "frontend/pgwire/scram_common.hpp"

namespace tandem::pgwire {

class ScramServer {
 public:
  // A normal exchange with a random salt and server nonce.
  ScramServer(std::string user, std::string password);
  // Deterministic salt (raw bytes) and server nonce (printable), for test
  // vectors.
  ScramServer(std::string user, std::string password, std::string server_nonce, std::string salt,
              int iterations = scram::kDefaultIterations);
  // An exchange that runs to the end and then fails with 28P01, for users
  // that do not exist (PostgreSQL's "mock authentication": the client cannot
  // tell an unknown user from a wrong password).
  static ScramServer for_unknown_user(std::string user);

  // client-first-message (the SASLInitialResponse data) -> server-first-message.
  Result<std::string> handle_client_first(std::string_view client_first);
  // client-final-message (the SASLResponse data) -> server-final-message
  // ("v=<ServerSignature>"). Success means the client proved the password.
  Result<std::string> handle_client_final(std::string_view client_final);

  bool authenticated() const { return state_ == State::kAuthenticated; }

 private:
  enum class State { kInitial, kFirstReceived, kAuthenticated, kFailed };

  Status fail(Status s) {
    state_ = State::kFailed;
    return s;
  }
  Status malformed(std::string_view what);
  Status auth_failed();

  std::string user_;
  std::string password_;
  bool doomed_ = false;
  int iterations_ = scram::kDefaultIterations;
  std::string salt_;          // raw; empty until the first message unless fixed
  std::string server_nonce_;  // printable; empty until the first message unless fixed
  State state_ = State::kInitial;
  char cbind_flag_ = 'n';
  std::string client_first_bare_;
  std::string server_first_;
  std::string full_nonce_;
};

}  // namespace tandem::pgwire
