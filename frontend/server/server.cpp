#include "frontend/server/server.hpp"

#include <pthread.h>

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <condition_variable>
#include <optional>

#include "frontend/http/http_listener.hpp"
#include "frontend/protocol/connection.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

// Threads that run statements which may wait (pg_sleep, parked reads). Each
// waits on a condition variable, not a CPU, so there can be more than cores.
constexpr unsigned kBlockingThreads = 16;

struct Server::Impl {
  using WorkGuard = asio::executor_work_guard<asio::io_context::executor_type>;

  explicit Impl(const ServerOptions& options, Adapter& adapter)
      : blocking_pool(kBlockingThreads),
        context{options, adapter, cancels, blocking_pool, nullptr, counter, shutting_down, metrics} {}

  std::vector<std::unique_ptr<asio::io_context>> io_contexts;
  std::vector<WorkGuard> guards;
  std::vector<std::thread> threads;
  std::optional<asio::ip::tcp::acceptor> acceptor;
  std::optional<asio::ip::tcp::acceptor> http_acceptor;
  size_t next_context = 0;

  CancelRegistry cancels;
  asio::thread_pool blocking_pool;
  std::optional<pgwire::PasswordFile> passwords;
  ConnectionCounter counter;
  std::atomic<bool> shutting_down{false};
  ServerMetrics metrics;
  ServerContext context;

  std::mutex mu;  // guards connections and stopped
  std::condition_variable cv;
  std::vector<std::weak_ptr<ClientConnection>> connections;
  bool stopped = false;

  // Starts serving an accepted socket; returns the connection (for shutdown).
  using Serve = std::shared_ptr<ClientConnection> (*)(asio::ip::tcp::socket, ServerContext&);
  asio::awaitable<void> accept_loop(asio::ip::tcp::acceptor& from, Serve serve);
  // Binds and listens on host:port.
  Status listen(asio::ip::tcp::acceptor& acceptor, const std::string& host, uint16_t port);
};

namespace {

std::shared_ptr<ClientConnection> serve_pgwire(asio::ip::tcp::socket socket, ServerContext& context) {
  auto executor = socket.get_executor();
  auto connection = std::make_shared<Connection>(std::move(socket), context);
  // The spawned function object owns the connection until run() finishes.
  asio::co_spawn(
      executor, [connection]() -> asio::awaitable<void> { co_await connection->run(); }, log_connection_exception);
  return connection;
}

}  // namespace

void log_connection_exception(std::exception_ptr e) {
  if (!e) return;
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    spdlog::error("connection ended by an internal error: {}", ex.what());
  } catch (...) {
    spdlog::error("connection ended by an internal error");
  }
}

asio::awaitable<void> Server::Impl::accept_loop(asio::ip::tcp::acceptor& from, Serve serve) {
  std::chrono::milliseconds backoff(0);
  for (;;) {
    asio::io_context& target = *io_contexts[next_context++ % io_contexts.size()];
    boost::system::error_code ec;
    asio::ip::tcp::socket socket = co_await from.async_accept(target, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (shutting_down.load() || ec == asio::error::operation_aborted) co_return;
      // Out of descriptors or memory: the pending connection stays in the
      // backlog, so accepting again at once would spin. Wait, longer each
      // time, until an accept succeeds; log once per such episode.
      if (backoff.count() == 0) spdlog::warn("accept failed: {}; retrying with backoff", ec.message());
      backoff = std::min(std::max(backoff * 2, std::chrono::milliseconds(10)), std::chrono::milliseconds(1000));
      asio::steady_timer wait(*io_contexts[0], backoff);
      co_await wait.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    if (backoff.count() != 0) spdlog::info("accepting connections again");
    backoff = std::chrono::milliseconds(0);
    auto connection = serve(std::move(socket), context);
    std::lock_guard lock(mu);
    // Drop entries of finished connections while we are here.
    std::erase_if(connections, [](const auto& w) { return w.expired(); });
    connections.push_back(connection);
  }
}

Status Server::Impl::listen(asio::ip::tcp::acceptor& acceptor, const std::string& host, uint16_t port) {
  boost::system::error_code ec;
  auto address = asio::ip::make_address(host, ec);
  if (ec) return Status::error(sqlstate::kInvalidParameterValue, "invalid listen address \"" + host + "\"");
  asio::ip::tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::error(sqlstate::kIoError,
                         "could not listen on " + host + ":" + std::to_string(port) + ": " + ec.message());
  }
  return Status::ok();
}

Server::Server(ServerOptions options, Adapter& adapter)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_, adapter)) {}

Server::~Server() {
  stop();
  for (auto& t : impl_->threads) {
    if (t.joinable()) t.join();
  }
}

Status Server::start() {
  if (!options_.password_file.empty()) {
    auto passwords = pgwire::PasswordFile::load(options_.password_file);
    if (!passwords.ok()) return passwords.status();
    impl_->passwords = std::move(*passwords);
    impl_->context.passwords = &*impl_->passwords;
  }
  // Default: twice the cores, at least 4. A connection is pinned to one
  // thread, so with fewer threads than busy clients, ready connections wait
  // behind each other on a thread while a core idles; idle threads cost
  // nothing (they sleep in epoll). Measured on 2 cores, 4 pgbench clients:
  // 108k tps with 2 threads, 180k with 4 (bench/HISTORY.md).
  unsigned n = options_.io_threads != 0 ? options_.io_threads
                                        : std::max(4u, 2 * std::max(1u, std::thread::hardware_concurrency()));
  for (unsigned i = 0; i < n; ++i) {
    impl_->io_contexts.push_back(std::make_unique<asio::io_context>(1));
    impl_->guards.emplace_back(impl_->io_contexts.back()->get_executor());
  }
  auto& acceptor = impl_->acceptor.emplace(*impl_->io_contexts[0]);
  if (Status s = impl_->listen(acceptor, options_.listen_host, options_.listen_port); !s.is_ok()) return s;
  bound_port_ = acceptor.local_endpoint().port();
  asio::co_spawn(*impl_->io_contexts[0], impl_->accept_loop(acceptor, serve_pgwire), asio::detached);
  if (options_.http_enabled) {
    auto& http = impl_->http_acceptor.emplace(*impl_->io_contexts[0]);
    if (Status s = impl_->listen(http, options_.http_listen_host, options_.http_listen_port); !s.is_ok()) {
      if (options_.http_explicit) return s;
      spdlog::warn("HTTP API off: {} (choose another address with --http-listen)", s.message());
      impl_->http_acceptor.reset();
    } else {
      bound_http_port_ = http.local_endpoint().port();
      asio::co_spawn(*impl_->io_contexts[0], impl_->accept_loop(http, http::serve_http_connection), asio::detached);
    }
  }
  for (auto& ctx : impl_->io_contexts) {
    impl_->threads.emplace_back([c = ctx.get(), name = "pgwire-" + std::to_string(impl_->threads.size())] {
      pthread_setname_np(pthread_self(), name.c_str());
      c->run();
    });
  }
  spdlog::info("listening on {}:{} ({} I/O threads{})", options_.listen_host, bound_port_, n,
               impl_->passwords ? ", SCRAM-SHA-256 authentication" : ", trust authentication");
  if (impl_->http_acceptor) {
    spdlog::info("HTTP listening on {}:{} ({})", options_.http_listen_host, bound_http_port_,
                 impl_->passwords ? "Basic authentication" : "trust authentication");
  }
  return Status::ok();
}

void Server::run() {
  {
    std::unique_lock lock(impl_->mu);
    impl_->cv.wait(lock, [&] { return impl_->stopped; });
  }
  // Give connections a moment to write their FATAL message and close.
  impl_->counter.wait_for_zero(std::chrono::steady_clock::now() + std::chrono::seconds(2));
  for (auto& ctx : impl_->io_contexts) ctx->stop();
  for (auto& t : impl_->threads) {
    if (t.joinable()) t.join();
  }
  impl_->blocking_pool.join();
}

void Server::stop() {
  if (impl_->shutting_down.exchange(true)) return;
  spdlog::info("shutting down");
  if (impl_->acceptor) {
    asio::post(*impl_->io_contexts[0], [this] {
      boost::system::error_code ec;
      impl_->acceptor->close(ec);
      if (impl_->http_acceptor) impl_->http_acceptor->close(ec);
    });
  }
  impl_->cancels.cancel_all(CancelToken::Reason::kShutdown);
  std::vector<std::shared_ptr<ClientConnection>> live;
  {
    std::lock_guard lock(impl_->mu);
    for (auto& w : impl_->connections) {
      if (auto c = w.lock()) live.push_back(std::move(c));
    }
    impl_->stopped = true;
  }
  for (auto& c : live) c->shutdown();
  impl_->guards.clear();
  impl_->cv.notify_all();
}

}  // namespace tandem::frontend
