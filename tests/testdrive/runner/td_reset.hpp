#pragma once
// Resetting a shared server between files (tandem-td --url without
// --no-reset), as testdrive does: every cluster but the built-in ones is
// dropped with CASCADE, then every object SHOW OBJECTS lists in the
// current schema (tables, views, materialized views, indexes, ...).
// Drops run in rounds, as dropping one object may already have dropped
// others (IF EXISTS ... CASCADE); the reset fails if objects remain.

#include <optional>
#include <string>

#include "sqllogic/runner/pg_session.hpp"

namespace tandem::td {

// nullopt on success, else why the server could not be reset.
std::optional<std::string> reset_catalog(const slt::ConnectTarget& target);

// The DROP statement for an object of SHOW OBJECTS' `type`, or an empty
// string for a type that cannot be dropped this way.
std::string drop_statement(const std::string& type, const std::string& name);

// "name" with inner quotes doubled.
std::string quote_identifier(const std::string& name);

}  // namespace tandem::td
