// Runtime::peek_if_ready: the fast path that reads published arrangements on
// the caller's thread. Each worker holds a disjoint part of the
// index (exchanged by key), so the answer is the union of read_peek over
// every part; the first part's error wins, as in PeekTracker.
// Runtime::scan_if_ready hands the same sealed snapshots to an IndexScan,
// read piecewise by the caller (a result streamed to a client).
#include <algorithm>

#include "compute/runtime/peek_reader.hpp"
#include "compute/runtime/runtime.hpp"

namespace tandem::compute {

std::optional<std::vector<IndexScan::Part>> Runtime::sealed_parts(
    const Peek& peek, std::vector<PublicationRegistry::Part>* publications) {
  auto parts = publications_.parts(peek.target);
  if (!parts) return std::nullopt;
  std::vector<IndexScan::Part> snapshots;
  snapshots.reserve(parts->size());
  for (const PublicationRegistry::Part& part : *parts) {
    auto oks = part.oks->snapshot();
    auto errs = part.errs->snapshot();
    // Exact only for since <= time < upper on both; otherwise a parked peek
    // (or its error for a time below since) answers.
    if (oks->upper <= peek.time || errs->upper <= peek.time) return std::nullopt;
    if (peek.time < oks->since || peek.time < errs->since) return std::nullopt;
    snapshots.emplace_back(std::move(oks), std::move(errs));
  }
  if (publications) *publications = std::move(*parts);
  return snapshots;
}

std::optional<Timestamp> Runtime::published_upper(GlobalId id) const {
  auto parts = publications_.parts(id);
  if (!parts) return std::nullopt;
  Timestamp upper = kMaxTimestamp;
  for (const PublicationRegistry::Part& part : *parts) {
    upper = std::min({upper, part.oks->snapshot()->upper, part.errs->snapshot()->upper});
  }
  return upper;
}

std::optional<Result<std::unique_ptr<IndexScan>>> Runtime::scan_if_ready(const Peek& peek) {
  if (peek.literal_keys) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  std::vector<PublicationRegistry::Part> publications;
  auto parts = sealed_parts(peek, &publications);
  if (!parts) return std::nullopt;
  auto scan = IndexScan::open(peek, std::move(*parts));
  if (scan.ok()) {
    // The reader may walk it on another thread, for as long as it reads.
    (*scan)->keep_holds(PublicationRegistry::hold_all(publications, peek.time));
    // Walked beyond the inline budget, piecewise: logged when the read ends.
    (*scan)->set_on_close([log = peek_log_, target = peek.target, name = reads_name_, start] {
      log->served(target, logging::ReadPath::kOffloaded, name, start);
    });
  }
  return scan;
}

std::optional<PeekResponse> Runtime::peek_if_ready(const Peek& peek, std::size_t inline_budget) {
  const auto start = std::chrono::steady_clock::now();
  auto snapshots = sealed_parts(peek);
  if (!snapshots) return std::nullopt;
  std::uint64_t updates = 0;
  if (!peek.literal_keys) {
    for (const auto& part : *snapshots) updates += part.first->update_count();
  }
  if (updates > inline_budget) return std::nullopt;
  PeekResponse response;
  response.uuid = peek.uuid;
  for (const auto& [oks, errs] : *snapshots) {
    auto rows = read_peek(peek, *oks, *errs);
    if (!rows.ok()) {
      response.kind = PeekResponse::Kind::kError;
      response.error = rows.status();
      response.rows.clear();
      peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
      return response;
    }
    if (response.rows.empty()) {
      response.rows = std::move(rows).value();
    } else {
      std::move(rows->begin(), rows->end(), std::back_inserter(response.rows));
    }
  }
  peek_log_->served(peek.target, logging::ReadPath::kFastPath, reads_name_, start);
  return response;
}

}  // namespace tandem::compute
