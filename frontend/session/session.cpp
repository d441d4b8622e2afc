#include "frontend/session/session.hpp"

namespace tandem::frontend {

Session::Session(std::string user, std::string database)
    : user_(std::move(user)), database_(std::move(database)) {
  (void)vars_.set_startup("is_superuser", is_superuser() ? "on" : "off");
  (void)vars_.set_startup("database", database_);
}

}  // namespace tandem::frontend
