// The read path's waits that are not a compute peek (issue 8 items 6, 8):
// for a fast-path walk that continues on the offload pool, and for
// admission of a peek dataflow to its cluster. The session's coroutine
// suspends; its thread serves other connections meanwhile. A cancel request
// (the CancelToken's waker, run on the canceling thread) or the statement's
// deadline (a timer on this session's executor) ends either wait:
// an offloaded walk is only flagged, stops at its next budget boundary,
// releases its batches and holds, and answers Canceled; a waiter leaves
// the admission queue at once.
#include <algorithm>

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

asio::awaitable<bool> Adapter::await_admission(uint64_t cluster, CancelToken& cancel) {
  if (!cancel.check().is_ok()) co_return false;
  const int64_t limit = catalog_->snapshot()->system_vars().get_int(catalog::kMaxConcurrentInteractiveDataflows);
  InteractiveAdmission& admission = coordinator_->admission();
  auto executor = co_await asio::this_coro::executor;
  std::optional<asio::steady_timer> timer;
  // `done` runs exactly once: from the grant, or from a withdrawal that
  // found the request still queued (InteractiveAdmission::cancel).
  const bool admitted = co_await await_callback<bool>([&](auto done) {
    const auto ticket = admission.acquire(cluster, static_cast<size_t>(std::max<int64_t>(1, limit)),
                                          [done]() mutable { done(true); });
    auto withdraw = [&admission, ticket, done]() mutable {
      if (admission.cancel(ticket)) done(false);
    };
    cancel.set_waker(withdraw);
    if (!cancel.check().is_ok()) withdraw();
    if (cancel.deadline() != CancelToken::Clock::time_point::max()) {
      timer.emplace(executor, cancel.deadline());
      timer->async_wait([withdraw](const boost::system::error_code& ec) mutable {
        if (!ec) withdraw();
      });
    }
  });
  cancel.clear_waker();
  if (timer) timer->cancel();
  co_return admitted;
}

}  // namespace tandem::frontend
