// GlobalId: the catalog-assigned identity of a collection compute knows about
// (a source, an index, a view built inside a dataflow). Compute treats it as
// an opaque number; the catalog owns its meaning.
// Threading: plain value.
#pragma once

#include <cstdint>

namespace tandem::compute {

using GlobalId = std::uint64_t;

}  // namespace tandem::compute
