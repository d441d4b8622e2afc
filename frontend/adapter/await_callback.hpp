#pragma once
// await_callback: adapts a callback-style operation to an awaitable for a
// session's coroutine. `start` receives a `done(Value)` callback that may
// run on any thread (the coordinator's, an offload pool thread); the
// awaiting coroutine resumes on its own executor, never inside the
// callback, so the caller's stack unwinds first and no session state is
// touched off the session's thread.

#include <memory>
#include <utility>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace tandem::frontend {

template <class Value, class Start>
boost::asio::awaitable<Value> await_callback(Start start) {
  namespace asio = boost::asio;
  return asio::async_initiate<decltype(asio::use_awaitable), void(Value)>(
      [start = std::move(start)](auto handler) mutable {
        auto shared = std::make_shared<decltype(handler)>(std::move(handler));
        auto executor = asio::get_associated_executor(*shared);
        start([shared, executor](Value v) {
          asio::post(executor, [shared, v = std::move(v)]() mutable { std::move(*shared)(std::move(v)); });
        });
      },
      asio::use_awaitable);
}

}  // namespace tandem::frontend
