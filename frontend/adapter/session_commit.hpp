#pragma once
// Committing table writes from a session's coroutine (adapter.cpp).

#include <optional>
#include <vector>

#include <boost/asio/awaitable.hpp>

#include "common/status.hpp"
#include "frontend/coord/coordinator.hpp"
#include "frontend/session/session.hpp"

namespace tandem::frontend {

// Commits `writes` at one new timestamp: on this thread when nothing else is
// committing (Coordinator::try_write_inline), else the coordinator sequences
// them and the storage committer acknowledges straight back to the caller's
// executor (Coordinator::write_and_ack); nullopt on success. The caller
// resumes on its own executor.
boost::asio::awaitable<std::optional<Status>> commit_from_session(Coordinator* coord, Session& session,
                                                                  std::vector<TableWrite> writes);

}  // namespace tandem::frontend
