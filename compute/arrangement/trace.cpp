#include "compute/arrangement/trace.hpp"

#include <cassert>
#include <utility>

namespace tandem::compute {

Trace::Trace(Timestamp lower, SpineOptions options)
    : spine_(lower, options),
      publication_(std::make_shared<TracePublication>(
          std::make_shared<const TraceSnapshot>(TraceSnapshot{{}, lower, lower}))) {}

Trace::Trace(std::shared_ptr<TracePublication> placeholder, Timestamp lower, SpineOptions options)
    : spine_(lower, options), publication_(std::move(placeholder)) {
  publish();
}

void Trace::apply_holds() {
  if (const auto least = publication_->claim_compaction()) spine_.set_logical_compaction(*least);
}

void Trace::publish() {
  auto snapshot = std::make_shared<const TraceSnapshot>(
      TraceSnapshot{spine_.batches(), spine_.upper(), spine_.since()});
  publication_->publish_checked(std::move(snapshot));
}

void Trace::insert(BatchPtr batch) {
  // Holds first, so merges started by this insert compact as far as allowed.
  apply_holds();
  spine_.insert(std::move(batch));
  publish();
}

void Trace::advance_upper(Timestamp upper) {
  assert(upper >= spine_.upper());
  if (upper == spine_.upper()) return;
  insert(Batch::empty(Description{spine_.upper(), upper, spine_.since()}));
}

void Trace::exert(std::int64_t& fuel) {
  apply_holds();
  spine_.exert(fuel);
  publish();
}

void Trace::refresh() {
  apply_holds();
  publish();
}

}  // namespace tandem::compute
