#pragma once
// One record of a sqllogictest script, as the parser produces it.
//
// A record is plain data: the parser fills it from the script text and the
// runner interprets it. Expected output is kept as the raw lines that follow
// `----`, because their meaning depends on state that only the runner tracks
// (the current `mode`, the number of result columns).

#include <cstdint>
#include <string>
#include <vector>

namespace tandem::slt {

enum class RecordKind {
  kStatementOk,     // `statement ok`: must succeed.
  kStatementCount,  // `statement count N`: must succeed affecting N rows.
  kStatementError,  // `statement error [pgcode XXXXX] [regex]`: must fail.
  kQuery,           // `query <types> [options] [label]`: results compared.
  kQueryError,      // `query error [pgcode XXXXX] [regex]`: must fail.
  kSimple,          // `simple [conn=name[,user=name]]`: simple-protocol transcript.
  kMode,            // `mode cockroach|standard|sqlite`.
  kHashThreshold,   // `hash-threshold N`.
  kHalt,            // `halt`: stop executing this file.
  kResetServer,     // `reset-server`: restart with fresh state.
  kIgnored,         // Directives accepted without effect (subtest, user, ...).
  kInvalid,         // Unparsable record; `error` says why. Counts as a failure.
};

enum class SortMode { kNoSort, kRowSort, kValueSort };

enum class OutputMode { kStandard, kCockroach };

// `skipif <db>` (only_if == false) or `onlyif <db>` (only_if == true).
struct Condition {
  bool only_if = false;
  std::string database;
};

struct Record {
  RecordKind kind = RecordKind::kInvalid;
  int line = 0;  // 1-based line of the record's command (not its conditions).
  std::vector<Condition> conditions;
  std::string sql;  // Statement/query text; lines joined with '\n'.

  // Queries.
  std::string types;  // Type letters, one per column (T I R B O).
  SortMode sort = SortMode::kNoSort;
  std::string label;  // Queries with the same label must give the same result.
  bool colnames = false;   // First expected line holds the column names.
  bool multiline = false;  // Expected output runs until a line `EOF`.
  // `retry`: the query reads something that converges (introspection of a
  // dataflow's progress); a result that differs is read again, with
  // backoff, for up to kRetrySeconds before it counts as a failure.
  bool retry = false;
  bool has_expected = false;  // A `----` separator was present.
  std::vector<std::string> expected;  // Raw lines after `----`.

  // Errors: `statement error` / `query error`.
  std::string error_regex;  // Empty: any error passes.
  std::string error_pgcode;  // Empty: any SQLSTATE passes.

  // `statement count N`.
  std::int64_t expected_count = 0;

  // `mode`.
  OutputMode mode = OutputMode::kStandard;

  // `hash-threshold N`.
  std::int64_t hash_threshold = 0;

  // `simple conn=name,user=name`: empty means the default connection/user.
  std::string conn_name;
  std::string conn_user;

  // kInvalid: what is wrong.
  std::string error;
};

// True if the record should run on a database that answers to any of
// `names` (tandem-slt answers to "postgresql" and "tandem").
bool record_applies(const Record& record, const std::vector<std::string>& names);

}  // namespace tandem::slt
