#pragma once
// ScramClient: the client side of SASL SCRAM-SHA-256, without channel
// binding (gs2 header "n,,"), for tests, benchmarks and tools that connect to
// tandemd (or PostgreSQL) with the pgwire codec.
//
//   client_first()            -> SASLInitialResponse data (mechanism scram::kMechanism)
//   handle_server_first(msg)  -> SASLResponse data (client-final-message)
//   handle_server_final(msg)  -> OK iff the server proved it knows the password
//
// Errors: a malformed or inconsistent server message -> 08P01; a server
// error attribute "e=..." or a wrong server signature -> 28P01. Threading:
// one exchange per object, one thread at a time.

#include <string>
#include <string_view>

#include "common/status.hpp"
#include "frontend/pgwire/scram_common.hpp"

namespace tandem::pgwire {

class ScramClient {
 public:
  // Upper bound on the server's iteration count, so a hostile server cannot
  // make the client spin.
  static constexpr int kMaxIterations = 10'000'000;

  // A random client nonce is drawn by client_first().
  ScramClient(std::string user, std::string password);
  // A fixed (printable) client nonce, for test vectors.
  ScramClient(std::string user, std::string password, std::string client_nonce);

  // client-first-message: "n,,n=<user>,r=<nonce>".
  Result<std::string> client_first();
  Result<std::string> handle_server_first(std::string_view server_first);
  Status handle_server_final(std::string_view server_final);

 private:
  enum class State { kInitial, kFirstSent, kFinalSent, kDone, kFailed };

  Status fail(Status s) {
    state_ = State::kFailed;
    return s;
  }
  Status malformed(std::string_view what);

  std::string user_;
  std::string password_;
  std::string client_nonce_;
  State state_ = State::kInitial;
  std::string client_first_bare_;
  scram::Key expected_server_signature_{};
};

}  // namespace tandem::pgwire
