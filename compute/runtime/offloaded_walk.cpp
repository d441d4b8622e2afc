// Runtime::walk_if_ready: a sealed fast-path read walked inline for the
// inline budget and, past it, on the offload pool;
// a read that would page spilled blocks in goes to the
// pool before it begins. The walking itself is
// OffloadedWalk's (offloaded_walk.hpp).
//
// The walk is an IndexScan over the sealed snapshots (literal keys or a
// full scan), so the part walked here and the part walked on the pool are
// one walk cut at a cursor position: the rows are exactly those the whole
// walk would give (index_scan.hpp). On the pool it goes on in slices of
// the budget, checking for cancellation between two, holding its
// snapshots and a since hold at the read's time on every trace it reads;
// the job's end releases both. Logged as `offloaded` in the PeekLog.
// Without offload this is peek_if_ready, byte for byte.
#include "compute/runtime/offloaded_walk.hpp"

#include <algorithm>
#include <iterator>

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

void cancel(PeekResponse& response) {
  response.kind = PeekResponse::Kind::kCanceled;
  response.rows.clear();
}

}  // namespace

void finish_walk(OffloadedWalk& walk, std::size_t slice, const OffloadedPeek* ticket) {
  PeekResponse& response = walk.response;
  if (walk.scan == nullptr && response.kind == PeekResponse::Kind::kRows) {
    auto opened = IndexScan::open(walk.peek, std::move(walk.parts));
    if (opened.ok()) {
      walk.scan = std::move(opened).value();
    } else {
      response = error_response(response.uuid, opened.status());
    }
  }
  walk.parts.clear();
  while (walk.scan != nullptr && !walk.scan->done() && response.kind == PeekResponse::Kind::kRows) {
    if (ticket != nullptr && ticket->canceled()) {
      cancel(response);
      break;
    }
    auto rows = walk.scan->next(slice);
    if (!rows.ok()) {
      response = error_response(response.uuid, rows.status());
      break;
    }
    append(response, std::move(rows).value());
  }
  walk.scan.reset();
}

std::shared_ptr<OffloadedPeek> submit_walk(OffloadPool& pool, std::shared_ptr<OffloadedWalk> walk,
                                           std::size_t slice) {
  auto ticket = std::make_shared<OffloadedPeek>();
  OffloadPool::Job job = [ticket, walk, slice](bool abandoned) {
    if (abandoned) {
      cancel(walk->response);
      walk->scan.reset();
      walk->parts.clear();
    } else {
      finish_walk(*walk, slice, ticket.get());
    }
    walk->holds.clear();
    if (walk->on_end) walk->on_end();
    ticket->finish(std::move(walk->response));
  };
  if (!pool.try_submit(job)) return nullptr;
  return ticket;
}

void OffloadedAnswers::deliver(PeekId id, PeekResponse response) {
  std::lock_guard lock(mutex_);
  if (peeks_ == nullptr) return;  // the runtime stopped: nobody awaits it
  switch (response.kind) {
    case PeekResponse::Kind::kError:
      peeks_->error(id, std::move(response.error));
      return;
    case PeekResponse::Kind::kCanceled:
      peeks_->canceled(id);
      return;
    default:
      peeks_->rows(id, std::move(response.rows));
  }
}

void OffloadedAnswers::close() {
  std::lock_guard lock(mutex_);
  peeks_ = nullptr;
}

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
  auto walk = std::make_shared<OffloadedWalk>();
  walk->peek = peek;
  walk->response.uuid = peek.uuid;
  const std::size_t slice = std::max(inline_budget, kMinSlice);
  if (IndexScan::would_page(peek, *parts)) {
    // Spilled blocks to read back: none of it on this thread.
    walk->parts = std::move(*parts);
  } else {
    auto opened = IndexScan::open(peek, std::move(*parts));
    if (!opened.ok()) {
      peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
      return ReadyPeek{error_response(peek.uuid, opened.status()), nullptr};
    }
    walk->scan = std::move(opened).value();
    // The inline part: at most `inline_budget` positions on this thread.
    if (auto rows = walk->scan->next(inline_budget); !rows.ok()) {
      walk->response = error_response(peek.uuid, rows.status());
    } else {
      append(walk->response, std::move(rows).value());
    }
    if (walk->response.kind != PeekResponse::Kind::kRows || walk->scan->done()) {
      peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
      return ReadyPeek{std::move(walk->response), nullptr};
    }
  }

  // The rest on the pool, holding the read's time on every trace it reads.
  walk->holds = PublicationRegistry::hold_all(publications, peek.time);
  walk->on_end = [log = peek_log_, target = peek.target, name = reads_name_, start] {
    log->served(target, logging::ReadPath::kOffloaded, name, start);
  };
  if (auto ticket = submit_walk(*offload_pool_, walk, slice)) return ReadyPeek{std::nullopt, std::move(ticket)};
  // The pool is full: the walk ends here (bounded queue).
  walk->on_end = nullptr;
  finish_walk(*walk, slice, nullptr);
  walk->holds.clear();
  peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
  return ReadyPeek{std::move(walk->response), nullptr};
}

}  // namespace tandem::compute
