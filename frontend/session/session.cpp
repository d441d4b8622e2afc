#include "frontend/session/session.hpp"

namespace tandem::frontend {

Session::Session(std::string user, std::string database)
    : user_(std::move(user)), database_(std::move(database)) {
  (void)vars_.set_startup("is_superuser", user_ == "mz_system" ? "on" : "off");
  (void)vars_.set_startup("database", database_);
}

}  // namespace tandem::frontend
