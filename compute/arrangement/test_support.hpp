// Helpers shared by the arrangement unit tests (*_test.cpp only): a naive
// model of a collection and flat dumps of batches and cursors to compare
// against it. Not part of the library's public face.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compute/arrangement/batch.hpp"
#include "compute/arrangement/cursor.hpp"
#include "compute/arrangement/cursor_list.hpp"

namespace tandem::compute::testing {

using Update = std::tuple<std::string, std::string, Timestamp, Diff>;
using Contents = std::map<std::pair<std::string, std::string>, Diff>;

// Every stored update of a batch, in storage order.
inline std::vector<Update> dump(const BatchPtr& batch) {
  std::vector<Update> out;
  BatchCursor cursor(batch);
  for (; cursor.key_valid(); cursor.step_key()) {
    for (; cursor.val_valid(); cursor.step_val()) {
      cursor.for_each_time([&](Timestamp t, Diff d) {
        out.emplace_back(std::string(cursor.key()), std::string(cursor.val()), t, d);
      });
    }
  }
  return out;
}

// Naive consolidation: sort by (key, val, time), sum equal, drop zeros,
// optionally advancing times below `since` to `since` first.
inline std::vector<Update> consolidate(std::vector<Update> updates, Timestamp since = 0) {
  std::map<std::tuple<std::string, std::string, Timestamp>, Diff> sums;
  for (auto& [k, v, t, d] : updates) sums[{k, v, std::max(t, since)}] += d;
  std::vector<Update> out;
  for (auto& [kvt, d] : sums) {
    if (d != 0) out.emplace_back(std::get<0>(kvt), std::get<1>(kvt), std::get<2>(kvt), d);
  }
  return out;
}

// The collection as of `as_of` read through a cursor.
template <typename Cursor>
Contents read_as_of(Cursor& cursor, Timestamp as_of) {
  Contents out;
  for_each_as_of(cursor, as_of, [&](std::string_view k, std::string_view v, Diff d) {
    out[{std::string(k), std::string(v)}] = d;
  });
  return out;
}

// The collection as of `as_of` from a flat update list.
inline Contents model_as_of(const std::vector<Update>& updates, Timestamp as_of) {
  Contents sums;
  for (const auto& [k, v, t, d] : updates) {
    if (t <= as_of) sums[{k, v}] += d;
  }
  std::erase_if(sums, [](const auto& e) { return e.second == 0; });
  return sums;
}

// A key or val with byte values across the whole unsigned range and shared
// prefixes, to exercise unsigned ordering and prefix ties.
inline std::string random_bytes(std::mt19937_64& rng, int distinct) {
  const std::uint64_t n = rng() % distinct;
  std::string s = "prefix__";  // 8 shared bytes: ties on the integer prefix
  s.resize(rng() % 3 == 0 ? 2 : 8);
  s.push_back(static_cast<char>(n & 0xff));
  if (n % 3 == 0) s.push_back(static_cast<char>(0x80 + (n % 5)));
  if (n % 7 == 0) s.push_back('\0');
  return s;
}

}  // namespace tandem::compute::testing
