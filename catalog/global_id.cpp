#include "catalog/global_id.hpp"

namespace tandem::catalog {

char id_kind_prefix(IdKind kind) {
  switch (kind) {
    case IdKind::kSystem: return 's';
    case IdKind::kUser: return 'u';
    case IdKind::kTransient: return 't';
  }
  return '?';
}

std::optional<std::pair<IdKind, uint64_t>> parse_id_parts(std::string_view text) {
  if (text.size() < 2 || text.size() > 20) return std::nullopt;
  IdKind kind;
  switch (text[0]) {
    case 's': kind = IdKind::kSystem; break;
    case 'u': kind = IdKind::kUser; break;
    case 't': kind = IdKind::kTransient; break;
    default: return std::nullopt;
  }
  uint64_t value = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    char c = text[i];
    if (c < '0' || c > '9') return std::nullopt;
    if (i == 1 && c == '0') return std::nullopt;  // no leading zeros, no zero id
    value = value * 10 + static_cast<uint64_t>(c - '0');
    if (value > kMaxIdValue) return std::nullopt;
  }
  return std::make_pair(kind, value);
}

}  // namespace tandem::catalog
