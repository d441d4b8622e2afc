// Runtime::walk_if_ready: a sealed fast-path read walked inline for the
// inline budget and, past it, on the offload pool (DESIGN §6 "Offload",
// issue 8 item 6).
//
// The walk is an IndexScan over the sealed snapshots (literal keys or a
// full scan), so the part walked here and the part walked on the pool are
// one walk cut at a cursor position: the rows are exactly those the whole
// walk would give (index_scan.hpp). On the pool it goes on in slices of
// the budget, checking for cancellation between two, holding its
// snapshots and a since hold at the read's time on every trace it reads;
// the job's end releases both. Logged as `offloaded` in the PeekLog.
// Without offload this is peek_if_ready, byte for byte.
#include <algorithm>
#include <iterator>

#include "compute/arrangement/trace_handle.hpp"
#include "compute/runtime/runtime.hpp"

namespace tandem::compute {
namespace {

// Positions walked between two checks for cancellation on the pool: the
// budget, but never so few that the slices cost more than the walk.
constexpr std::size_t kMinSlice = 256;

void append(PeekResponse& response, std::vector<std::pair<Row, Diff>> rows) {
  if (response.rows.empty()) {
    response.rows = std::move(rows);
  } else {
    std::move(rows.begin(), rows.end(), std::back_inserter(response.rows));
  }
}

PeekResponse error_response(PeekId uuid, Status error) {
  PeekResponse response;
  response.uuid = uuid;
  response.kind = PeekResponse::Kind::kError;
  response.error = std::move(error);
  return response;
}

// Walks `scan` to its end in slices, stopping early once `ticket` is
// canceled; the answer so far goes into `response`.
void walk_to_end(IndexScan& scan, std::size_t slice, PeekResponse& response, const OffloadedPeek* ticket) {
  while (!scan.done()) {
    if (ticket != nullptr && ticket->canceled()) {
      response.kind = PeekResponse::Kind::kCanceled;
      response.rows.clear();
      return;
    }
    auto rows = scan.next(slice);
    if (!rows.ok()) {
      response = error_response(response.uuid, rows.status());
      return;
    }
    append(response, std::move(rows).value());
  }
}

}  // namespace

std::optional<ReadyPeek> Runtime::walk_if_ready(const Peek& peek, std::size_t inline_budget, bool offload) {
  if (!offload || offload_pool_ == nullptr) {
    auto response = peek_if_ready(peek, inline_budget);
    if (!response) return std::nullopt;
    return ReadyPeek{std::move(response), nullptr};
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<PublicationRegistry::Part> publications;
  auto parts = sealed_parts(peek, &publications);
  if (!parts) return std::nullopt;
  auto opened = IndexScan::open(peek, std::move(*parts));
  if (!opened.ok()) {
    peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
    return ReadyPeek{error_response(peek.uuid, opened.status()), nullptr};
  }
  std::unique_ptr<IndexScan> scan = std::move(opened).value();
  PeekResponse response;
  response.uuid = peek.uuid;
  // The inline part: at most `inline_budget` positions on this thread.
  if (auto rows = scan->next(inline_budget); !rows.ok()) {
    response = error_response(peek.uuid, rows.status());
  } else {
    append(response, std::move(rows).value());
  }
  if (response.kind != PeekResponse::Kind::kRows || scan->done()) {
    peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
    return ReadyPeek{std::move(response), nullptr};
  }

  // The rest on the pool, holding the read's time on every trace it reads.
  struct Walk {
    std::unique_ptr<IndexScan> scan;
    std::vector<TraceHandle> holds;
    PeekResponse response;
  };
  auto walk = std::make_shared<Walk>();
  walk->scan = std::move(scan);
  walk->response = std::move(response);
  walk->holds.reserve(publications.size() * 2);
  for (const PublicationRegistry::Part& part : publications) {
    walk->holds.push_back(TraceHandle::hold(part.oks, peek.time));
    walk->holds.push_back(TraceHandle::hold(part.errs, peek.time));
  }
  auto ticket = std::make_shared<OffloadedPeek>();
  const std::size_t slice = std::max(inline_budget, kMinSlice);
  OffloadPool::Job job = [ticket, walk, slice, log = peek_log_, target = peek.target, name = reads_name_,
                          start](bool abandoned) {
    if (abandoned) {
      walk->response.kind = PeekResponse::Kind::kCanceled;
      walk->response.rows.clear();
    } else {
      walk_to_end(*walk->scan, slice, walk->response, ticket.get());
    }
    // Batches and holds go before the answer, so a waiter that has the
    // answer finds them released.
    walk->scan.reset();
    walk->holds.clear();
    log->served(target, logging::ReadPath::kOffloaded, name, start);
    ticket->finish(std::move(walk->response));
  };
  if (offload_pool_->try_submit(job)) return ReadyPeek{std::nullopt, std::move(ticket)};
  // The pool is full: the walk ends here (bounded queue, DESIGN §6).
  job = nullptr;
  walk_to_end(*walk->scan, slice, walk->response, nullptr);
  peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
  return ReadyPeek{std::move(walk->response), nullptr};
}

}  // namespace tandem::compute
