// Runtime::peek_if_ready: the fast path that reads published arrangements on
// the caller's thread (DESIGN §9). Each worker holds a disjoint part of the
// index (exchanged by key), so the answer is the union of read_peek over
// every part; the first part's error wins, as in PeekTracker.
#include <algorithm>

#include "compute/runtime/peek_reader.hpp"
#include "compute/runtime/runtime.hpp"

namespace tandem::compute {

std::optional<PeekResponse> Runtime::peek_if_ready(const Peek& peek, std::size_t inline_budget) {
  auto parts = publications_.parts(peek.target);
  if (!parts) return std::nullopt;
  std::vector<std::pair<std::shared_ptr<const TraceSnapshot>, std::shared_ptr<const TraceSnapshot>>> snapshots;
  snapshots.reserve(parts->size());
  std::uint64_t updates = 0;
  for (const PublicationRegistry::Part& part : *parts) {
    auto oks = part.oks->snapshot();
    auto errs = part.errs->snapshot();
    // Exact only for since <= time < upper on both; otherwise a parked peek
    // (or its error for a time below since) answers.
    if (oks->upper <= peek.time || errs->upper <= peek.time) return std::nullopt;
    if (peek.time < oks->since || peek.time < errs->since) return std::nullopt;
    if (!peek.literal_keys) updates += oks->update_count();
    snapshots.emplace_back(std::move(oks), std::move(errs));
  }
  if (updates > inline_budget) return std::nullopt;
  PeekResponse response;
  response.uuid = peek.uuid;
  for (const auto& [oks, errs] : snapshots) {
    auto rows = read_peek(peek, *oks, *errs);
    if (!rows.ok()) {
      response.kind = PeekResponse::Kind::kError;
      response.error = rows.status();
      response.rows.clear();
      return response;
    }
    if (response.rows.empty()) {
      response.rows = std::move(rows).value();
    } else {
      std::move(rows->begin(), rows->end(), std::back_inserter(response.rows));
    }
  }
  return response;
}

}  // namespace tandem::compute
