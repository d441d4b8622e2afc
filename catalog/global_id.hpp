#pragma once
// Catalog object ids, shaped like Materialize's GlobalId: a namespace kind
// plus a 64-bit counter, printed `s1` (system), `u1` (user), `t1`
// (transient). Ordering is (kind, value) with system < user < transient, so
// a std::map<ItemId, ...> iterates builtins first and user items in creation
// order — the order the coordinator replays them at boot.
//
// Id spaces and their lifetimes:
//   system    — builtin relations and system clusters; assigned at every boot
//               in registration order, never persisted;
//   user      — everything a user creates; the counter is persisted and only
//               grows, so an id is never reused, even after DROP and restart;
//   transient — peeks and other short-lived dataflows; process-local.
//
// Compute (compute/plan/global_id.hpp) names collections with a bare
// uint64; `to_compute_id`/`item_id_from_compute` convert losslessly by
// putting a kind tag in the top two bits (user ids are unchanged). Catalog
// must not include compute, so the mapping lives here.
//
// Threading: plain values; every function here is pure and thread-safe.

#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tandem::catalog {

enum class IdKind : uint8_t { kSystem = 0, kUser = 1, kTransient = 2 };

// The letter that prefixes an id of this kind: 's', 'u' or 't'.
char id_kind_prefix(IdKind kind);

// BasicId<Tag>: one id space per Tag, so that an item id cannot be passed
// where a cluster id is expected. Value 0 is never allocated.
template <class Tag>
struct BasicId {
  IdKind kind = IdKind::kUser;
  uint64_t value = 0;

  static constexpr BasicId system(uint64_t v) { return BasicId{IdKind::kSystem, v}; }
  static constexpr BasicId user(uint64_t v) { return BasicId{IdKind::kUser, v}; }
  static constexpr BasicId transient(uint64_t v) { return BasicId{IdKind::kTransient, v}; }

  bool is_system() const { return kind == IdKind::kSystem; }
  bool is_user() const { return kind == IdKind::kUser; }
  bool is_transient() const { return kind == IdKind::kTransient; }

  // "u12".
  std::string to_string() const { return id_kind_prefix(kind) + std::to_string(value); }

  friend auto operator<=>(const BasicId&, const BasicId&) = default;
  friend bool operator==(const BasicId&, const BasicId&) = default;
};

// Parses "s1"/"u1"/"t1" (no sign, no leading '+', value >= 1 and < 2^62);
// nullopt for anything else.
std::optional<std::pair<IdKind, uint64_t>> parse_id_parts(std::string_view text);

template <class Tag>
std::optional<BasicId<Tag>> parse_id(std::string_view text) {
  auto parts = parse_id_parts(text);
  if (!parts) return std::nullopt;
  return BasicId<Tag>{parts->first, parts->second};
}

struct ItemTag {};
struct ClusterTag {};
struct SchemaTag {};

using ItemId = BasicId<ItemTag>;        // tables, views, indexes, ...
using ClusterId = BasicId<ClusterTag>;  // clusters
using SchemaId = BasicId<SchemaTag>;    // schemas

// Values must stay below 2^62 so that the kind fits in the top two bits.
inline constexpr uint64_t kMaxIdValue = (uint64_t{1} << 62) - 1;

// Lossless conversion to compute's bare uint64 GlobalId (and storage's
// ShardId): a tag in bits 62-63 (user 0, system 1, transient 2), the value
// below, so user ids map to themselves.
inline uint64_t to_compute_id(ItemId id) {
  uint64_t tag = id.kind == IdKind::kUser ? 0 : id.kind == IdKind::kSystem ? 1 : 2;
  return (tag << 62) | (id.value & kMaxIdValue);
}
inline ItemId item_id_from_compute(uint64_t raw) {
  uint64_t tag = raw >> 62;
  IdKind kind = tag == 0 ? IdKind::kUser : tag == 1 ? IdKind::kSystem : IdKind::kTransient;
  return ItemId{kind, raw & kMaxIdValue};
}

}  // namespace tandem::catalog

template <class Tag>
struct std::hash<tandem::catalog::BasicId<Tag>> {
  size_t operator()(const tandem::catalog::BasicId<Tag>& id) const noexcept {
    return std::hash<uint64_t>()((static_cast<uint64_t>(id.kind) << 62) ^ id.value);
  }
};
