#pragma once
// Checks shared by the planner's fuzz targets: a broken contract aborts, so
// libFuzzer reports the input as a crash. Not part of the library.
#include <cstdlib>

#include "common/status.hpp"

namespace tandem::planner::testing {

inline void fuzz_check(bool condition) {
  if (!condition) std::abort();
}

// An error the planner or the evaluator returned: it carries a SQLSTATE and
// a message, as every error a client sees must.
inline void fuzz_check_error(const Status& s) {
  fuzz_check(!s.is_ok());
  fuzz_check(s.sqlstate().size() == 5);
  fuzz_check(!s.message().empty());
}

}  // namespace tandem::planner::testing
