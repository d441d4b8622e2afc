// tandem-subscribe-latency: freshness of a SUBSCRIBE: the
// time from an acknowledged INSERT to the change reaching a subscribed
// client, tandemd and PostgreSQL side by side, interleaved in one process.
//
//   tandem-subscribe-latency TANDEM_CONNINFO PG_CONNINFO [WRITES] [RATE]
//     Both servers hold t(k int, v int) (the calling script,
//     bench/subscribe_vs_postgres.sh, loads them). On tandem the indexed
//     view agg = SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k is
//     followed by `COPY (SUBSCRIBE agg) TO STDOUT` on a second connection.
//     PostgreSQL has no SUBSCRIBE; its closest push is LISTEN/NOTIFY: an
//     AFTER INSERT trigger on t notifies the key, heard by a second
//     connection (it reports that a row changed, not the view's new value).
//     One sample: INSERT INTO t VALUES (k, 1) on the writer (timed to its
//     acknowledgement), then wait on the listener for the update of group k
//     (tandem: the `+1` row of agg at k with the new count; PostgreSQL: the
//     notification carrying k). WRITES samples per server (default 1000),
//     at RATE writes per second per server (default 100), alternating.
#include <poll.h>

#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "bench/driver/bench_client.hpp"

namespace {

using namespace bench;

// Waits until `c`'s socket is readable or `deadline` passes, then reads
// what arrived; false on a timeout.
bool wait_input(PGconn* c, Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return false;
  pollfd p{PQsocket(c), POLLIN, 0};
  if (poll(&p, 1, static_cast<int>(left)) <= 0) return false;
  if (PQconsumeInput(c) == 0) die(std::string("connection lost: ") + PQerrorMessage(c));
  return true;
}

// The fields of the next CopyData line of the subscribe, if one arrived.
std::optional<std::vector<std::string>> copy_line(PGconn* c) {
  char* buffer = nullptr;
  int n = PQgetCopyData(c, &buffer, 1);
  if (n == -1) die("the subscribe ended");
  if (n == -2) die(std::string("subscribe: ") + PQerrorMessage(c));
  if (n == 0) return std::nullopt;
  std::string line(buffer, static_cast<size_t>(n));
  PQfreemem(buffer);
  if (!line.empty() && line.back() == '\n') line.pop_back();
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string f;
  while (std::getline(in, f, '\t')) fields.push_back(f);
  return fields;
}

// Reads the subscribe until agg's row for `key` shows `count` (mz_diff +1).
void await_tandem(PGconn* c, const std::string& key, long count) {
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  for (;;) {
    while (auto f = copy_line(c)) {
      // mz_timestamp, mz_diff, k, c, s
      if (f->size() == 5 && (*f)[1] == "1" && (*f)[2] == key && std::atol((*f)[3].c_str()) == count) return;
    }
    if (!wait_input(c, deadline)) die("tandem: the update of k=" + key + " did not arrive within 10 s");
  }
}

void await_postgres(PGconn* c, const std::string& key) {
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  for (;;) {
    while (PGnotify* n = PQnotifies(c)) {
      bool hit = key == n->extra;
      PQfreemem(n);
      if (hit) return;
    }
    if (!wait_input(c, deadline)) die("postgres: the notification of k=" + key + " did not arrive within 10 s");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tandem-subscribe-latency TANDEM_CONNINFO PG_CONNINFO [WRITES] [RATE]\n");
    return 2;
  }
  const int writes = argc > 3 ? std::atoi(argv[3]) : 1000;
  const int rate = argc > 4 ? std::atoi(argv[4]) : 100;
  Connection td(argv[1], "tandem");
  Connection td_sub(argv[1], "tandem subscriber");
  Connection pg(argv[2], "postgres");
  Connection pg_listen(argv[2], "postgres listener");

  // Group counts now, read once; every write adds one row to its group.
  std::map<std::string, long> counts;
  for (auto& row : td.run("SELECT k, c FROM agg")) counts[row[0]] = std::atol(row[1].c_str());
  pg.run("CREATE FUNCTION notify_k() RETURNS trigger LANGUAGE plpgsql AS "
         "$$ BEGIN PERFORM pg_notify('t_changed', NEW.k::text); RETURN NEW; END $$");
  pg.run("CREATE TRIGGER t_notify AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION notify_k()");
  pg_listen.run("LISTEN t_changed");
  PGresult* r = PQexec(td_sub.raw(), "COPY (SUBSCRIBE agg) TO STDOUT");
  if (PQresultStatus(r) != PGRES_COPY_OUT) die(std::string("tandem: SUBSCRIBE: ") + PQresultErrorMessage(r));
  PQclear(r);
  // The snapshot first: one row per group.
  const auto snapshot_deadline = Clock::now() + std::chrono::seconds(60);
  for (size_t seen = 0; seen < counts.size();) {
    while (copy_line(td_sub.raw())) ++seen;
    if (seen < counts.size() && !wait_input(td_sub.raw(), snapshot_deadline)) die("tandem: no snapshot");
  }

  Samples td_ack, td_seen, pg_ack, pg_seen;
  const auto interval = std::chrono::microseconds(1000000 / std::max(1, rate));
  auto next = Clock::now();
  const int groups = static_cast<int>(std::max<size_t>(1, counts.size()));
  for (int i = 0; i < writes; ++i) {
    std::string key = std::to_string((i * 7919) % groups);
    std::this_thread::sleep_until(next);
    next += interval;
    auto start = Clock::now();
    td.run("INSERT INTO t VALUES ($1, 1)", {key});
    td_ack.add(micros_since(start));
    auto acked = Clock::now();
    await_tandem(td_sub.raw(), key, ++counts[key]);
    td_seen.add(micros_since(acked));

    start = Clock::now();
    pg.run("INSERT INTO t VALUES ($1, 1)", {key});
    pg_ack.add(micros_since(start));
    acked = Clock::now();
    await_postgres(pg_listen.raw(), key);
    pg_seen.add(micros_since(acked));
  }
  std::printf("subscribe freshness: %d writes per server at %d/s\n", writes, rate);
  print_header();
  print_row("tandem INSERT ack", td_ack);
  print_row("tandem ack -> row at SUBSCRIBE client", td_seen);
  print_row("postgres INSERT ack", pg_ack);
  print_row("postgres ack -> NOTIFY at LISTEN client", pg_seen);
  std::printf("ratio (postgres / tandem, ack -> client): p50 %.2fx, p99 %.2fx\n", pg_seen.pct(50) / td_seen.pct(50),
              pg_seen.pct(99) / td_seen.pct(99));
  return 0;
}
