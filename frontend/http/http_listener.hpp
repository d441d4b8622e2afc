#pragma once
// The HTTP listener's connections (Boost.Beast over the server's Asio
// threads; see README.md in this folder): each accepted socket is served by
// a coroutine on its io_context thread, HTTP/1.1 with keep-alive:
//   POST /api/sql                 the session-less SQL API (sql_runner.hpp)
//   GET  /api/experimental/sql    upgrade to the WebSocket SQL API
//   GET  /api/readyz, /api/livez  health
//   GET  /metrics                 Prometheus text (metrics_text.hpp)
// Bad input is answered with a 4xx and a plain-text message saying what
// is wrong: 400 (malformed request, body or options), 401 (failed
// authentication, with WWW-Authenticate), 404, 405 (with Allow), 413 (a
// body over --max-message-size), 503 (--max-connections sessions exist,
// or shutting down).
//
// Threading: serve_http_connection on the acceptor's thread; the
// connection then lives on its socket's executor.

#include <memory>

#include <boost/asio/ip/tcp.hpp>

#include "frontend/server/server_context.hpp"

namespace tandem::frontend::http {

// Starts serving `socket`; returns the connection, for shutdown.
std::shared_ptr<ClientConnection> serve_http_connection(boost::asio::ip::tcp::socket socket, ServerContext& context);

}  // namespace tandem::frontend::http
