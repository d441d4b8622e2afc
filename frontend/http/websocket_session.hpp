#pragma once
// The WebSocket SQL API (GET /api/experimental/sql; reference:
// http-api.md): one long-lived session per socket.
//
// Protocol. After the upgrade the client's first message authenticates:
// {"user", "password", "options"} (or only {"options"} when the upgrade
// request carried valid HTTP Basic credentials, or in trust mode). The
// server answers with ParameterStatus messages, BackendKeyData (the keys a
// pgwire CancelRequest uses to cancel this session's statement) and
// ReadyForQuery. Then each client message is a request body of
// sql_request.hpp, answered as {"type": T, "payload": P} messages:
// CommandStarting, Rows (the columns) and Row (one per row), CommandComplete,
// Error, Notice, ParameterStatus, and ReadyForQuery ("I", "T" or "E") after
// each request.
//
// Streaming and backpressure: rows are written one message at a time and
// a batch is pulled from the result only once the previous one is written,
// so a slow client holds at most one batch here (and a subscribe at most
// its RowChannel). SUBSCRIBE streams until the client closes the socket (a
// reader coroutine notices and cancels the statement), a cancel request
// arrives, or the subscribe ends.
//
// Threading: both coroutines (the executor of requests and the reader of
// the socket) run on the socket's io_context thread.

#include <optional>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "frontend/server/server_context.hpp"

namespace tandem::frontend::http {

// Accepts the upgrade `request` on `socket` and serves the session until
// the client goes away. `authenticated_user`: the user the upgrade's HTTP
// Basic credentials proved, if any.
boost::asio::awaitable<void> run_websocket(
    boost::asio::ip::tcp::socket socket,
    const boost::beast::http::request<boost::beast::http::string_body>& request, ServerContext& context,
    std::optional<std::string> authenticated_user);

}  // namespace tandem::frontend::http
