// Waiting for a fast-path walk that continues on the offload pool (issue 8
// item 6). The session's coroutine suspends; its thread serves other
// connections meanwhile. A cancel request (the CancelToken's waker, run on
// the canceling thread) or the statement's deadline (a timer on this
// session's executor) only flags the walk, which stops at its next budget
// boundary, releases its batches and holds, and answers Canceled.
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>

#include "frontend/adapter/adapter.hpp"
#include "frontend/adapter/await_callback.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

asio::awaitable<compute::PeekResponse> Adapter::await_offloaded(std::shared_ptr<compute::OffloadedPeek> walk,
                                                                CancelToken& cancel) {
  auto executor = co_await asio::this_coro::executor;
  std::optional<asio::steady_timer> timer;
  if (cancel.deadline() != CancelToken::Clock::time_point::max()) {
    timer.emplace(executor, cancel.deadline());
    timer->async_wait([walk](const boost::system::error_code& ec) {
      if (!ec) walk->cancel();
    });
  }
  cancel.set_waker([walk] { walk->cancel(); });
  if (!cancel.check().is_ok()) walk->cancel();
  compute::PeekResponse response = co_await await_callback<compute::PeekResponse>(
      [&walk](auto done) { walk->on_done(std::move(done)); });
  cancel.clear_waker();
  if (timer) timer->cancel();
  co_return response;
}

}  // namespace tandem::frontend
