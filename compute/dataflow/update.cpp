#include "compute/dataflow/update.hpp"

#include <algorithm>

namespace tandem::compute {

void consolidate(std::vector<Update>& updates) {
  if (updates.size() < 2) {
    if (updates.size() == 1 && updates[0].diff == 0) updates.clear();
    return;
  }
  std::sort(updates.begin(), updates.end(), [](const Update& a, const Update& b) {
    if (const int c = a.key.bytes().compare(b.key.bytes()); c != 0) return c < 0;
    if (const int c = a.val.bytes().compare(b.val.bytes()); c != 0) return c < 0;
    return a.time < b.time;
  });
  std::size_t out = 0;
  for (std::size_t i = 0; i < updates.size();) {
    std::size_t j = i + 1;
    Diff sum = updates[i].diff;
    while (j < updates.size() && updates[j].time == updates[i].time && updates[j].key == updates[i].key &&
           updates[j].val == updates[i].val) {
      sum += updates[j].diff;
      ++j;
    }
    if (sum != 0) {
      if (out != i) updates[out] = std::move(updates[i]);
      updates[out].diff = sum;
      ++out;
    }
    i = j;
  }
  updates.resize(out);
}

bool row_has_null(RowRef row) {
  RowIter it(row);
  while (!it.done()) {
    if (it.next().is_null()) return true;
  }
  return false;
}

}  // namespace tandem::compute
