#include "sqllogic/runner/record.hpp"

#include <algorithm>

namespace tandem::slt {

bool record_applies(const Record& record, const std::vector<std::string>& names) {
  for (const Condition& condition : record.conditions) {
    const bool named = std::find(names.begin(), names.end(), condition.database) != names.end();
    if (condition.only_if != named) return false;
  }
  return true;
}

}  // namespace tandem::slt
