#include "storage/shard_codec.hpp"

namespace tandem::storage {
namespace {

void put_be64(std::string* out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t get_be64(std::string_view in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

void put_varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool get_varint(std::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && !in->empty(); shift += 7) {
    uint8_t byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

}  // namespace

void put_be32(std::string* out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
}

std::string shard_data_key(ShardId shard, Timestamp time, uint8_t part, uint32_t chunk) {
  std::string key;
  key.reserve(21);
  put_be64(&key, shard);
  put_be64(&key, time);
  key.push_back(static_cast<char>(part));
  put_be32(&key, chunk);
  return key;
}

std::string shard_data_bound(ShardId shard, Timestamp time) {
  std::string key;
  put_be64(&key, shard);
  put_be64(&key, time);
  return key;
}

std::string shard_part_bound(ShardId shard, Timestamp time, uint8_t part) {
  std::string key = shard_data_bound(shard, time);
  key.push_back(static_cast<char>(part));
  return key;
}

std::string shard_data_end(ShardId shard) {
  // Every key of `shard` starts with be64(shard); the 8-byte key of shard + 1
  // sorts after all of them (for the last id, a longer all-0xff key does).
  std::string key;
  if (shard == UINT64_MAX) return std::string(18, '\xff');
  put_be64(&key, shard + 1);
  return key;
}

std::pair<std::string, std::string> staged_range(ShardId shard, uint64_t stage) {
  return {shard_part_bound(shard, kStagedTimeBit | stage, kStagedPart),
          shard_part_bound(shard, kStagedTimeBit | stage, kStagedPart + 1)};
}

std::string staged_marker_key(ShardId shard, uint64_t stage) {
  std::string key(kStagedMarkerPrefix);
  put_be64(&key, shard);
  put_be64(&key, stage);
  return key;
}

std::optional<std::pair<ShardId, uint64_t>> decode_staged_marker_key(std::string_view key) {
  if (key.size() != kStagedMarkerPrefix.size() + 16 || !key.starts_with(kStagedMarkerPrefix)) return std::nullopt;
  key.remove_prefix(kStagedMarkerPrefix.size());
  return std::make_pair(get_be64(key.substr(0, 8)), get_be64(key.substr(8, 8)));
}

std::string encode_staged_ref(uint64_t stage) {
  std::string value;
  put_be64(&value, stage);
  return value;
}

std::optional<uint64_t> decode_staged_ref(std::string_view value) {
  if (value.size() != 8) return std::nullopt;
  return get_be64(value);
}

std::optional<DataKey> decode_shard_data_key(std::string_view key) {
  if (key.size() != 17 && key.size() != 21) return std::nullopt;
  uint32_t chunk = 0;
  if (key.size() == 21) {
    for (int i = 17; i < 21; ++i) chunk = (chunk << 8) | static_cast<uint8_t>(key[i]);
  }
  return DataKey{get_be64(key.substr(0, 8)), get_be64(key.substr(8, 8)),
                 static_cast<uint8_t>(key[16]), chunk};
}

std::string shard_meta_key(ShardId shard) {
  std::string key(kShardMetaPrefix);
  put_be64(&key, shard);
  return key;
}

std::optional<ShardId> decode_shard_meta_key(std::string_view key) {
  if (key.size() != kShardMetaPrefix.size() + 8 || !key.starts_with(kShardMetaPrefix)) {
    return std::nullopt;
  }
  return get_be64(key.substr(kShardMetaPrefix.size()));
}

std::string encode_shard_meta(const ShardMeta& meta) {
  std::string value;
  put_be64(&value, meta.frontiers.upper);
  put_be64(&value, meta.frontiers.since);
  put_be64(&value, meta.base_time);
  put_be64(&value, meta.stored_batches);
  put_be64(&value, meta.stored_bytes);
  return value;
}

std::optional<ShardMeta> decode_shard_meta(std::string_view value) {
  if (value.size() != 16 && value.size() != 24 && value.size() != 40) return std::nullopt;
  ShardMeta meta;
  meta.frontiers.upper = get_be64(value.substr(0, 8));
  meta.frontiers.since = get_be64(value.substr(8, 8));
  meta.base_time = value.size() >= 24 ? get_be64(value.substr(16, 8)) : meta.frontiers.since;
  meta.counted = value.size() == 40;
  if (meta.counted) {
    meta.stored_batches = get_be64(value.substr(24, 8));
    meta.stored_bytes = get_be64(value.substr(32, 8));
  }
  return meta;
}

std::vector<std::string_view> split_batch(std::string_view batch, size_t max_bytes) {
  std::vector<std::string_view> pieces;
  if (batch.size() <= max_bytes) {
    if (!batch.empty()) pieces.push_back(batch);
    return pieces;
  }
  BatchReader reader(batch);
  size_t start = 0;
  std::string_view row;
  Diff diff = 0;
  while (reader.next(&row, &diff)) {
    size_t end = batch.size() - reader.remaining();
    if (end - start >= max_bytes) {
      pieces.push_back(batch.substr(start, end - start));
      start = end;
    }
  }
  if (start < batch.size()) pieces.push_back(batch.substr(start));
  return pieces;
}

void append_batch_entry(std::string* batch, std::string_view row, Diff diff) {
  put_varint(batch, row.size());
  batch->append(row);
  uint64_t u = static_cast<uint64_t>(diff);
  put_varint(batch, (u << 1) ^ static_cast<uint64_t>(diff >> 63));  // zigzag
}

bool BatchReader::next(std::string_view* row, Diff* diff) {
  if (rest_.empty() || corrupt_) return false;
  uint64_t len = 0;
  if (!get_varint(&rest_, &len) || len > rest_.size()) {
    corrupt_ = true;
    return false;
  }
  *row = rest_.substr(0, len);
  rest_.remove_prefix(len);
  uint64_t z = 0;
  if (!get_varint(&rest_, &z)) {
    corrupt_ = true;
    return false;
  }
  *diff = static_cast<Diff>((z >> 1) ^ (~(z & 1) + 1));
  return true;
}

}  // namespace tandem::storage
