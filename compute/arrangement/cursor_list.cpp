#include "compute/arrangement/cursor_list.hpp"

namespace tandem::compute {

CursorList::CursorList(const std::vector<BatchPtr>& batches) {
  cursors_.reserve(batches.size());
  for (const BatchPtr& batch : batches) {
    if (!batch->is_empty()) cursors_.emplace_back(batch);
  }
  find_min_key();
}

void CursorList::find_min_key() {
  min_key_.clear();
  std::string_view least;
  for (std::uint32_t i = 0; i < cursors_.size(); ++i) {
    if (!cursors_[i].key_valid()) continue;
    const std::string_view key = cursors_[i].key();
    if (min_key_.empty() || key < least) {
      min_key_.clear();
      least = key;
      min_key_.push_back(i);
    } else if (key == least) {
      min_key_.push_back(i);
    }
  }
  find_min_val();
}

void CursorList::find_min_val() {
  min_val_.clear();
  std::string_view least;
  for (const std::uint32_t i : min_key_) {
    if (!cursors_[i].val_valid()) continue;
    const std::string_view val = cursors_[i].val();
    if (min_val_.empty() || val < least) {
      min_val_.clear();
      least = val;
      min_val_.push_back(i);
    } else if (val == least) {
      min_val_.push_back(i);
    }
  }
}

void CursorList::step_key() {
  for (const std::uint32_t i : min_key_) cursors_[i].step_key();
  find_min_key();
}

void CursorList::seek_key(std::string_view target) {
  for (BatchCursor& cursor : cursors_) cursor.seek_key(target);
  find_min_key();
}

void CursorList::rewind_keys() {
  for (BatchCursor& cursor : cursors_) cursor.rewind_keys();
  find_min_key();
}

void CursorList::step_val() {
  for (const std::uint32_t i : min_val_) cursors_[i].step_val();
  find_min_val();
}

void CursorList::seek_val(std::string_view target) {
  for (const std::uint32_t i : min_key_) cursors_[i].seek_val(target);
  find_min_val();
}

void CursorList::rewind_vals() {
  for (const std::uint32_t i : min_key_) cursors_[i].rewind_vals();
  find_min_val();
}

}  // namespace tandem::compute
