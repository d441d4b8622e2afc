#include "frontend/server/cancel_registry.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using tandem::frontend::CancelRegistry;
using tandem::frontend::CancelToken;

TEST_CASE("a cancel with the right key wakes a sleeping statement at once", "[concurrency]") {
  CancelRegistry registry;
  auto token = std::make_shared<CancelToken>();
  auto key = registry.add(token);
  token->begin_statement();
  auto start = std::chrono::steady_clock::now();
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(!registry.cancel({key.process_id, key.secret_key + 1}));  // wrong secret: nothing
    CHECK(registry.cancel(key));
  });
  tandem::Status s = token->sleep_for(std::chrono::seconds(60));
  canceller.join();
  CHECK(s.sqlstate() == "57014");
  CHECK(s.message() == "canceling statement due to user request");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
  // The next statement starts clean.
  token->begin_statement();
  CHECK(token->check().is_ok());
}

TEST_CASE("a deadline ends a sleep as a statement timeout") {
  CancelToken token;
  token.begin_statement(CancelToken::Clock::now() + std::chrono::milliseconds(20));
  tandem::Status s = token.sleep_for(std::chrono::seconds(60));
  CHECK(s.message() == "canceling statement due to statement timeout");
  token.begin_statement();
  CHECK(token.sleep_for(std::chrono::duration<double>(-1)).is_ok());
}

TEST_CASE("concurrent sessions register, cancel and leave", "[concurrency]") {
  CancelRegistry registry;
  std::atomic<int> woken{0};
  std::vector<std::thread> sessions;
  std::vector<std::shared_ptr<CancelToken>> tokens(8);
  std::vector<CancelRegistry::Key> keys(8);
  for (int i = 0; i < 8; ++i) {
    tokens[i] = std::make_shared<CancelToken>();
    tokens[i]->begin_statement();
    keys[i] = registry.add(tokens[i]);
  }
  for (int i = 0; i < 8; ++i) {
    sessions.emplace_back([&, i] {
      if (!tokens[i]->sleep_for(std::chrono::seconds(60)).is_ok()) ++woken;
      registry.remove(keys[i].process_id);
    });
  }
  std::thread canceller([&] {
    for (int i = 0; i < 8; ++i) registry.cancel(keys[i]);
  });
  canceller.join();
  for (auto& t : sessions) t.join();
  CHECK(woken == 8);
  CHECK(registry.size() == 0);
}
