#include "tests/difftest/harness.hpp"

#include <stdexcept>

#include "tests/difftest/stop.hpp"

namespace tandem::difftest {

Harness::Harness(const Options& opts) : opts_(opts), servers_(opts.tandemd, opts.pg_bindir) {
  pg_ = std::make_unique<Connection>(servers_.pg_conninfo(), opts.statement_timeout);
  if (!pg_->connect()) throw std::runtime_error("cannot connect to PostgreSQL");
  connect_tandem();
}

void Harness::connect_tandem() {
  td_ = std::make_unique<Connection>(servers_.tandem_conninfo(), opts_.statement_timeout);
  if (!td_->connect()) throw std::runtime_error("cannot connect to tandemd");
}

std::string Harness::recover_tandem() {
  std::string how;
  std::string note;
  if (servers_.tandem_alive(&how)) {
    // It runs: perhaps only this connection broke (or it hangs).
    Connection probe(servers_.tandem_conninfo(), 10);
    if (probe.connect() && probe.exec("SELECT 1").ok()) {
      note = "tandemd still runs; the connection was lost";
      connect_tandem();
      return note;
    }
    note = "tandemd runs but does not answer";
  } else {
    note = "tandemd " + how;
  }
  note += "; its log ends:\n" + servers_.tandem_log_tail(15);
  servers_.restart_tandem();
  connect_tandem();
  return note;
}

bool Harness::budget_left() const {
  if (stop_requested()) return false;
  if (opts_.queries > 0 && stats_.queries >= opts_.queries) return false;
  if (opts_.seconds > 0 && std::chrono::steady_clock::now() - started_ >= std::chrono::seconds(opts_.seconds)) {
    return false;
  }
  return true;
}

void Harness::recover_pg() {
  if (!pg_->connected() && !pg_->connect()) throw std::runtime_error("lost PostgreSQL");
}

}  // namespace tandem::difftest
