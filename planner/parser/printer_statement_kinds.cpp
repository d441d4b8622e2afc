// Printer: the per-kind statement visitor.

#include <cctype>

#include "planner/parser/printer_impl.hpp"

namespace tandem::sql {
namespace {


const char* explain_stage(Explain::Stage s) {
  switch (s) {
    case Explain::Stage::kRaw: return "RAW PLAN";
    case Explain::Stage::kDecorrelated: return "DECORRELATED PLAN";
    case Explain::Stage::kLocallyOptimized: return "LOCALLY OPTIMIZED PLAN";
    case Explain::Stage::kOptimized: return "OPTIMIZED PLAN";
    case Explain::Stage::kPhysical: return "PHYSICAL PLAN";
    case Explain::Stage::kTimestamp: return "TIMESTAMP";
    case Explain::Stage::kDefault: break;
  }
  return "PLAN";
}

const char* show_kind(ShowObjects::Kind k) {
  using Kind = ShowObjects::Kind;
  switch (k) {
    case Kind::kObjects: return "OBJECTS";
    case Kind::kTables: return "TABLES";
    case Kind::kViews: return "VIEWS";
    case Kind::kMaterializedViews: return "MATERIALIZED VIEWS";
    case Kind::kIndexes: return "INDEXES";
    case Kind::kSources: return "SOURCES";
    case Kind::kSinks: return "SINKS";
    case Kind::kClusters: return "CLUSTERS";
    case Kind::kClusterReplicas: return "CLUSTER REPLICAS";
    case Kind::kSchemas: return "SCHEMAS";
    case Kind::kDatabases: return "DATABASES";
    case Kind::kSecrets: return "SECRETS";
    case Kind::kConnections: return "CONNECTIONS";
  }
  return "OBJECTS";
}

}  // namespace

void Printer::statement(const Statement& stmt) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, SelectStatement>) {
          query(n.query);
        } else if constexpr (std::is_same_v<T, SetVariable>) {
          *this << (n.local ? "SET LOCAL " : "SET ");
          ident(n.name);
          *this << " = ";
          set_values(n.values, n.to_default);
        } else if constexpr (std::is_same_v<T, ResetVariable>) {
          *this << "RESET ";
          if (n.all) *this << "ALL";
          else ident(n.name);
        } else if constexpr (std::is_same_v<T, ShowVariable>) {
          *this << "SHOW ";
          if (n.all) *this << "ALL";
          else ident(n.name);
        } else if constexpr (std::is_same_v<T, StartTransaction>) {
          *this << "BEGIN";
          transaction_modes(n.modes);
        } else if constexpr (std::is_same_v<T, SetTransaction>) {
          *this << (n.session_characteristics ? "SET SESSION CHARACTERISTICS AS TRANSACTION"
                                              : "SET TRANSACTION");
          transaction_modes(n.modes);
        } else if constexpr (std::is_same_v<T, Commit>) {
          *this << "COMMIT";
        } else if constexpr (std::is_same_v<T, Rollback>) {
          *this << "ROLLBACK";
        } else if constexpr (std::is_same_v<T, Discard>) {
          *this << (n.target == Discard::Target::kAll     ? "DISCARD ALL"
                    : n.target == Discard::Target::kTemp  ? "DISCARD TEMP"
                    : n.target == Discard::Target::kPlans ? "DISCARD PLANS"
                                                          : "DISCARD SEQUENCES");
        } else if constexpr (std::is_same_v<T, Maintenance>) {
          *this << (n.kind == Maintenance::Kind::kVacuum ? "VACUUM" : "ANALYZE");
        } else if constexpr (std::is_same_v<T, CreateTable>) {
          *this << (n.temporary ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ");
          if (n.if_not_exists) *this << "IF NOT EXISTS ";
          name(n.name);
          *this << " (";
          bool first = true;
          for (const ColumnDef& c : n.columns) {
            if (!first) *this << ", ";
            first = false;
            ident(c.name);
            *this << " ";
            type(c.type);
            if (c.primary_key) *this << " PRIMARY KEY";
            else if (c.not_null) *this << " NOT NULL";
            if (c.unique) *this << " UNIQUE";
            if (c.default_value) {
              *this << " DEFAULT ";
              expr(*c.default_value);
            }
          }
          for (const TableConstraint& c : n.constraints) {
            if (!first) *this << ", ";
            first = false;
            if (!c.name.empty()) {
              *this << "CONSTRAINT ";
              ident(c.name);
              *this << " ";
            }
            *this << (c.primary_key ? "PRIMARY KEY (" : "UNIQUE (");
            idents(c.columns);
            *this << ")";
          }
          *this << ")";
          if (!n.with_options.empty()) {
            *this << " WITH ";
            options(n.with_options);
          }
        } else if constexpr (std::is_same_v<T, CreateView>) {
          *this << "CREATE ";
          if (n.or_replace) *this << "OR REPLACE ";
          if (n.temporary) *this << "TEMPORARY ";
          *this << "VIEW ";
          if (n.if_not_exists) *this << "IF NOT EXISTS ";
          name(n.name);
          if (!n.columns.empty()) {
            *this << " (";
            idents(n.columns);
            *this << ")";
          }
          *this << " AS ";
          query(n.query);
        } else if constexpr (std::is_same_v<T, CreateMaterializedView>) {
          create_mv(n);
        } else if constexpr (std::is_same_v<T, CreateIndex>) {
          create_index(n);
        } else if constexpr (std::is_same_v<T, CreateCluster>) {
          *this << "CREATE CLUSTER ";
          ident(n.name);
          if (n.has_replicas) {
            *this << " REPLICAS (";
            for (size_t i = 0; i < n.replicas.size(); ++i) {
              if (i) *this << ", ";
              ident(n.replicas[i].name);
              *this << " ";
              options(n.replicas[i].options);
            }
            *this << ")";
          } else if (!n.options.empty()) {
            *this << " ";
            options(n.options);
          }
        } else if constexpr (std::is_same_v<T, CreateClusterReplica>) {
          *this << "CREATE CLUSTER REPLICA ";
          ident(n.cluster);
          *this << ".";
          ident(n.replica);
          if (!n.options.empty()) {
            *this << " ";
            options(n.options);
          }
        } else if constexpr (std::is_same_v<T, CreateSchema>) {
          *this << "CREATE SCHEMA ";
          if (n.if_not_exists) *this << "IF NOT EXISTS ";
          name(n.name);
        } else if constexpr (std::is_same_v<T, DropObjects>) {
          *this << "DROP ";
          object_type(n.type);
          *this << " ";
          if (n.if_exists) *this << "IF EXISTS ";
          for (size_t i = 0; i < n.names.size(); ++i) {
            if (i) *this << ", ";
            name(n.names[i]);
          }
          if (n.cascade) *this << " CASCADE";
        } else if constexpr (std::is_same_v<T, AlterRename>) {
          *this << "ALTER ";
          object_type(n.type);
          *this << " ";
          if (n.if_exists) *this << "IF EXISTS ";
          name(n.name);
          *this << " RENAME TO ";
          ident(n.new_name);
        } else if constexpr (std::is_same_v<T, AlterTableAddConstraint>) {
          *this << "ALTER TABLE ";
          if (n.if_exists) *this << "IF EXISTS ";
          name(n.name);
          *this << " ADD ";
          if (!n.constraint.name.empty()) {
            *this << "CONSTRAINT ";
            ident(n.constraint.name);
            *this << " ";
          }
          *this << (n.constraint.primary_key ? "PRIMARY KEY (" : "UNIQUE (");
          for (size_t i = 0; i < n.constraint.columns.size(); ++i) {
            if (i) *this << ", ";
            ident(n.constraint.columns[i]);
          }
          *this << ")";
        } else if constexpr (std::is_same_v<T, CreateRole> || std::is_same_v<T, AlterRole>) {
          *this << (std::is_same_v<T, CreateRole> ? "CREATE ROLE " : "ALTER ROLE ");
          ident(n.name);
          if (n.options.superuser) *this << (*n.options.superuser ? " SUPERUSER" : " NOSUPERUSER");
          if (n.options.login) *this << (*n.options.login ? " LOGIN" : " NOLOGIN");
          if (n.options.inherit) *this << (*n.options.inherit ? " INHERIT" : " NOINHERIT");
        } else if constexpr (std::is_same_v<T, DropRole>) {
          *this << "DROP ROLE ";
          if (n.if_exists) *this << "IF EXISTS ";
          for (size_t i = 0; i < n.names.size(); ++i) {
            if (i) *this << ", ";
            ident(n.names[i]);
          }
        } else if constexpr (std::is_same_v<T, GrantRole>) {
          *this << (n.grant ? "GRANT " : "REVOKE ");
          for (size_t i = 0; i < n.roles.size(); ++i) {
            if (i) *this << ", ";
            ident(n.roles[i]);
          }
          *this << (n.grant ? " TO " : " FROM ");
          for (size_t i = 0; i < n.members.size(); ++i) {
            if (i) *this << ", ";
            ident(n.members[i]);
          }
        } else if constexpr (std::is_same_v<T, GrantPrivileges>) {
          *this << (n.grant ? "GRANT " : "REVOKE ");
          if (n.privileges.empty()) *this << "ALL PRIVILEGES";
          for (size_t i = 0; i < n.privileges.size(); ++i) *this << (i ? ", " : "") << n.privileges[i];
          using Target = GrantPrivileges::Target;
          *this << (n.target == Target::kSystem     ? " ON SYSTEM"
                    : n.target == Target::kSchema   ? " ON SCHEMA "
                    : n.target == Target::kDatabase ? " ON DATABASE "
                    : n.target == Target::kCluster  ? " ON CLUSTER "
                                                    : " ON TABLE ");
          for (size_t i = 0; i < n.objects.size(); ++i) {
            if (i) *this << ", ";
            name(n.objects[i]);
          }
          *this << (n.grant ? " TO " : " FROM ");
          for (size_t i = 0; i < n.roles.size(); ++i) {
            if (i) *this << ", ";
            ident(n.roles[i]);
          }
        } else if constexpr (std::is_same_v<T, AlterOwner>) {
          *this << "ALTER ";
          object_type(n.type);
          *this << " ";
          name(n.name);
          *this << " OWNER TO ";
          ident(n.new_owner);
        } else if constexpr (std::is_same_v<T, AlterSystemSet>) {
          *this << "ALTER SYSTEM SET ";
          ident(n.name);
          *this << " = ";
          set_values(n.values, n.to_default);
        } else if constexpr (std::is_same_v<T, AlterSystemReset>) {
          *this << "ALTER SYSTEM RESET ";
          if (n.all) *this << "ALL";
          else ident(n.name);
        } else if constexpr (std::is_same_v<T, Insert>) {
          *this << "INSERT INTO ";
          name(n.table);
          if (!n.alias.empty()) {
            *this << " AS ";
            ident(n.alias);
          }
          if (!n.columns.empty()) {
            *this << " (";
            idents(n.columns);
            *this << ")";
          }
          if (n.default_values) {
            *this << " DEFAULT VALUES";
          } else if (n.query) {
            *this << " ";
            query(*n.query);
          }
          if (!n.returning.empty()) {
            *this << " RETURNING ";
            select_items(n.returning);
          }
        } else if constexpr (std::is_same_v<T, Update>) {
          *this << "UPDATE ";
          name(n.table);
          if (!n.alias.empty()) {
            *this << " AS ";
            ident(n.alias);
          }
          *this << " SET ";
          for (size_t i = 0; i < n.assignments.size(); ++i) {
            if (i) *this << ", ";
            ident(n.assignments[i].column);
            *this << " = ";
            if (n.assignments[i].default_value) *this << "DEFAULT";
            else expr(n.assignments[i].value);
          }
          if (n.where) {
            *this << " WHERE ";
            expr(*n.where);
          }
          if (!n.returning.empty()) {
            *this << " RETURNING ";
            select_items(n.returning);
          }
        } else if constexpr (std::is_same_v<T, Delete>) {
          *this << "DELETE FROM ";
          name(n.table);
          if (!n.alias.empty()) {
            *this << " AS ";
            ident(n.alias);
          }
          if (!n.using_tables.empty()) {
            *this << " USING ";
            for (size_t i = 0; i < n.using_tables.size(); ++i) {
              if (i) *this << ", ";
              table_ref(n.using_tables[i]);
            }
          }
          if (n.where) {
            *this << " WHERE ";
            expr(*n.where);
          }
          if (!n.returning.empty()) {
            *this << " RETURNING ";
            select_items(n.returning);
          }
        } else if constexpr (std::is_same_v<T, Truncate>) {
          *this << "TRUNCATE ";
          for (size_t i = 0; i < n.tables.size(); ++i) {
            if (i) *this << ", ";
            name(n.tables[i]);
          }
        } else if constexpr (std::is_same_v<T, Copy>) {
          *this << "COPY ";
          if (n.table) {
            name(*n.table);
            if (!n.columns.empty()) {
              *this << " (";
              idents(n.columns);
              *this << ")";
            }
          } else if (n.query) {
            *this << "(";
            query(*n.query);
            *this << ")";
          } else if (n.subscribe) {
            *this << "(";
            subscribe(*n.subscribe);
            *this << ")";
          }
          *this << (n.direction == Copy::Direction::kFrom ? " FROM STDIN" : " TO STDOUT");
          if (!n.options.empty()) {
            *this << " WITH ";
            options(n.options);
          }
        } else if constexpr (std::is_same_v<T, Subscribe>) {
          subscribe(n);
        } else if constexpr (std::is_same_v<T, Declare>) {
          *this << "DECLARE ";
          ident(n.name);
          *this << (n.hold ? " CURSOR WITH HOLD FOR " : " CURSOR FOR ");
          if (n.statement) statement(*n.statement);
        } else if constexpr (std::is_same_v<T, Fetch>) {
          *this << "FETCH ";
          if (n.all) *this << "ALL ";
          else if (n.count) *this << std::to_string(*n.count) << " ";
          *this << "FROM ";
          ident(n.cursor);
          if (!n.options.empty()) {
            *this << " WITH ";
            options(n.options);
          }
        } else if constexpr (std::is_same_v<T, Close>) {
          *this << "CLOSE ";
          ident(n.cursor);
        } else if constexpr (std::is_same_v<T, Prepare>) {
          *this << "PREPARE ";
          ident(n.name);
          if (!n.param_types.empty()) {
            *this << " (";
            for (size_t i = 0; i < n.param_types.size(); ++i) {
              if (i) *this << ", ";
              type(n.param_types[i]);
            }
            *this << ")";
          }
          *this << " AS ";
          if (n.statement) statement(*n.statement);
        } else if constexpr (std::is_same_v<T, Execute>) {
          *this << "EXECUTE ";
          ident(n.name);
          if (!n.params.empty()) {
            *this << " (";
            exprs(n.params);
            *this << ")";
          }
        } else if constexpr (std::is_same_v<T, Deallocate>) {
          *this << "DEALLOCATE ";
          if (n.all) *this << "ALL";
          else ident(n.name);
        } else if constexpr (std::is_same_v<T, Savepoint>) {
          *this << (n.kind == Savepoint::Kind::kDefine    ? "SAVEPOINT "
                    : n.kind == Savepoint::Kind::kRelease ? "RELEASE SAVEPOINT "
                                                          : "ROLLBACK TO SAVEPOINT ");
          ident(n.name);
        } else if constexpr (std::is_same_v<T, ShowObjects>) {
          *this << "SHOW " << show_kind(n.kind);
          if (n.from) {
            *this << " FROM ";
            name(*n.from);
          }
          if (!n.in_cluster.empty()) {
            *this << " IN CLUSTER ";
            ident(n.in_cluster);
          }
          if (n.on) {
            *this << " ON ";
            name(*n.on);
          }
          if (n.like) {
            *this << " LIKE ";
            string(*n.like);
          } else if (n.where) {
            *this << " WHERE ";
            expr(*n.where);
          }
        } else if constexpr (std::is_same_v<T, ShowColumns>) {
          *this << "SHOW COLUMNS FROM ";
          name(n.table);
          if (n.like) {
            *this << " LIKE ";
            string(*n.like);
          } else if (n.where) {
            *this << " WHERE ";
            expr(*n.where);
          }
        } else if constexpr (std::is_same_v<T, ShowCreate>) {
          *this << "SHOW CREATE ";
          object_type(n.type);
          *this << " ";
          name(n.name);
        } else if constexpr (std::is_same_v<T, Explain>) {
          *this << "EXPLAIN " << explain_stage(n.stage);
          if (!n.modifiers.empty()) {
            *this << " WITH ";
            options(n.modifiers);
          }
          *this << (n.format == Explain::Format::kJson ? " AS JSON FOR " : " AS TEXT FOR ");
          std::visit(
              [&](const auto& e) {
                using E = std::decay_t<decltype(e)>;
                if constexpr (std::is_same_v<E, Query>) {
                  query(e);
                } else if constexpr (std::is_same_v<E, CreateIndex>) {
                  create_index(e);
                } else if constexpr (std::is_same_v<E, CreateMaterializedView>) {
                  create_mv(e);
                } else {
                  object_type(e.type);
                  *this << " ";
                  name(e.name);
                }
              },
              n.explainee);
        } else if constexpr (std::is_same_v<T, Unsupported>) {
          // Only the leading keywords are kept; for most kinds they read
          // back as the same Unsupported node.
          *this << n.what;
        }
      },
      stmt.node);
}

}  // namespace tandem::sql
