// tandemd: the tandem server. Parses the command line, opens the data
// directory, serves PostgreSQL-wire and HTTP clients until SIGINT/SIGTERM, then stops
// accepting, cancels running statements, closes storage and exits 0. On
// SIGUSR1 it logs where its memory is (process_memory.hpp).

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "compute/arrangement/memory_budget.hpp"
#include "frontend/adapter/adapter.hpp"
#include "frontend/server/process_memory.hpp"
#include "frontend/server/server.hpp"
#include "storage/durable_store.hpp"
#include "storage/rocks_spill_store.hpp"
#include "storage/timestamp_oracle.hpp"

namespace {

constexpr const char* kUsage = R"(tandemd: a streaming SQL engine behind the PostgreSQL wire protocol

Usage: tandemd [OPTIONS]

  --listen HOST:PORT       address to listen on (default 127.0.0.1:6875)
  --http-listen HOST:PORT  address of the HTTP API (POST /api/sql, the WebSocket API at
                           /api/experimental/sql, /api/readyz, /api/livez, /metrics;
                           default 127.0.0.1:6876, skipped with a warning when in
                           use), or "off"
  --data-dir DIR           data directory, created if missing (default ./data)
  --log-level LEVEL        trace, debug, info, warn, error (default info);
                           debug logs each statement
  --max-connections N      maximum concurrent client sessions (default 1000)
  --max-startup-connections N
                           maximum connections not yet authenticated, counted
                           apart from the sessions (default 100)
  --auth-timeout MS        close a connection that has not finished startup and
                           authentication within MS milliseconds (default 60000)
  --auth-failure-delay MS  answer a failed password after MS milliseconds
                           (default 500; 0 answers at once)
  --password-file FILE     require SCRAM-SHA-256 passwords from FILE (lines user:password);
                           without it any user is trusted
  --max-message-size BYTES largest accepted protocol message or HTTP request body
                           (default 67108864)
  --io-threads N           connection threads (default: twice the CPUs, at least 4)
  --memory-limit SIZE      memory for resident arrangement batches before they spill
                           to RocksDB, e.g. 256MB or 4GB (default: half of physical
                           memory; the system parameter memory_limit overrides it)
  --durability MODE        strict (fsync before acknowledging a write, default) or
                           relaxed (UNSAFE: a crash may lose acknowledged writes)
  --bootstrap-default-cluster-replica-size SIZE
                           size of the default cluster (quickstart) when the data
                           directory is first created (default 25cc: one worker)
  --system-parameter-default NAME=VALUE
                           set a system parameter at boot unless ALTER SYSTEM set
                           it already (repeatable), e.g.
                           enable_compute_interactive_runtime=false
  --unsafe-wall-clock-offset-ms MS
                           TESTING ONLY: shift the wall clock the timestamp oracle
                           reads by MS milliseconds (may be negative)
  --recover-torn-wal       open even though the write-ahead log is damaged or a WAL
                           file is missing: replay stops before the first damaged
                           record and the writes after it are lost (logged); without
                           it such a data directory does not open
  --verify DATA_DIR        check DATA_DIR without starting the server: every SST
                           block's checksum, a full scan of the shards, catalog and
                           meta families, the write-ahead log; prints the damage
                           found and exits 0 when clean, 1 when damaged
  --help                   show this text
  --version                show the version
)";

bool parse_size(const std::string& s, size_t* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

// "256MB", "4GB", "512kB", "1048576" (bytes).
bool parse_bytes(const std::string& s, std::uint64_t* out) {
  std::uint64_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p == s.data()) return false;
  const std::string unit(p, s.data() + s.size());
  int shift = 0;
  if (unit == "kB" || unit == "KB") {
    shift = 10;
  } else if (unit == "MB") {
    shift = 20;
  } else if (unit == "GB") {
    shift = 30;
  } else if (unit == "TB") {
    shift = 40;
  } else if (!unit.empty() && unit != "B") {
    return false;
  }
  if (shift != 0 && n > (UINT64_MAX >> shift)) return false;
  *out = n << shift;
  return true;
}

std::uint64_t half_of_physical_memory() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE) / 2;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "tandemd: %s\n\n%s", message.c_str(), kUsage);
  return 2;
}

// tandemd --verify DATA_DIR: 0 clean, 1 damaged. The check runs in a child
// process: on some damage (a corrupt MANIFEST) RocksDB's read-only open
// fails an assertion and aborts, which is reported as damage too.
int verify_data_dir(const std::string& dir) {
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    tandem::storage::VerifyReport report = tandem::storage::DurableStore::verify(dir);
    for (const std::string& d : report.damage) std::printf("damaged: %s\n", d.c_str());
    if (report.damage.empty()) {
      std::printf("%s: clean (%llu keys read)\n", dir.c_str(), static_cast<unsigned long long>(report.keys));
    }
    std::fflush(stdout);
    _exit(report.damage.empty() ? 0 : 1);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) {
    std::printf("%s: could not run the check: %s\n", dir.c_str(), std::strerror(errno));
    return 1;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  if (WIFSIGNALED(status)) {
    std::printf("damaged: RocksDB stopped with signal %d while reading the data directory\n", WTERMSIG(status));
  }
  std::printf("%s: damaged\n", dir.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  tandem::frontend::tune_malloc();  // before any thread starts
  tandem::frontend::ServerOptions options;
  tandem::frontend::BootOptions boot;
  int64_t wall_clock_offset_ms = 0;
  std::uint64_t memory_limit = half_of_physical_memory();
  bool recover_torn_wal = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    auto eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (arg != "--help" && arg != "--version" && arg != "--recover-torn-wal") {
      if (i + 1 >= argc) return usage_error("missing value for " + arg);
      value = argv[++i];
    }
    if (arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--version") {
      std::puts("tandemd 0.1 (PostgreSQL 15.0 protocol)");
      return 0;
    } else if (arg == "--recover-torn-wal") {
      recover_torn_wal = true;
    } else if (arg == "--verify") {
      return verify_data_dir(value);
    } else if (arg == "--listen") {
      auto colon = value.rfind(':');
      size_t port = 0;
      if (colon == std::string::npos || !parse_size(value.substr(colon + 1), &port) || port > 65535)
        return usage_error("invalid --listen address \"" + value + "\" (expected HOST:PORT)");
      options.listen_host = value.substr(0, colon);
      options.listen_port = static_cast<uint16_t>(port);
    } else if (arg == "--http-listen") {
      if (value == "off") {
        options.http_enabled = false;
        continue;
      }
      auto colon = value.rfind(':');
      size_t port = 0;
      if (colon == std::string::npos || !parse_size(value.substr(colon + 1), &port) || port > 65535)
        return usage_error("invalid --http-listen address \"" + value + "\" (expected HOST:PORT or off)");
      options.http_enabled = true;
      options.http_explicit = true;
      options.http_listen_host = value.substr(0, colon);
      options.http_listen_port = static_cast<uint16_t>(port);
    } else if (arg == "--data-dir") {
      options.data_dir = value;
    } else if (arg == "--log-level") {
      options.log_level = value;
    } else if (arg == "--max-connections") {
      if (!parse_size(value, &options.max_connections) || options.max_connections == 0)
        return usage_error("invalid --max-connections \"" + value + "\"");
    } else if (arg == "--max-startup-connections") {
      if (!parse_size(value, &options.max_startup_connections) || options.max_startup_connections == 0)
        return usage_error("invalid --max-startup-connections \"" + value + "\"");
    } else if (arg == "--auth-timeout" || arg == "--auth-failure-delay") {
      size_t ms = 0;
      if (!parse_size(value, &ms) || (arg == "--auth-timeout" && ms == 0) || ms > 3'600'000)
        return usage_error("invalid " + arg + " \"" + value + "\" (milliseconds)");
      (arg == "--auth-timeout" ? options.auth_timeout : options.auth_failure_delay) = std::chrono::milliseconds(ms);
    } else if (arg == "--password-file") {
      options.password_file = value;
    } else if (arg == "--max-message-size") {
      if (!parse_size(value, &options.max_message_size) || options.max_message_size < 1024)
        return usage_error("invalid --max-message-size \"" + value + "\" (at least 1024)");
    } else if (arg == "--io-threads") {
      size_t n = 0;
      if (!parse_size(value, &n) || n > 256) return usage_error("invalid --io-threads \"" + value + "\"");
      options.io_threads = static_cast<unsigned>(n);
    } else if (arg == "--memory-limit") {
      if (!parse_bytes(value, &memory_limit) || memory_limit == 0)
        return usage_error("invalid --memory-limit \"" + value + "\" (e.g. 256MB, 4GB)");
    } else if (arg == "--durability") {
      if (value == "strict") {
        options.sync_writes = true;
      } else if (value == "relaxed") {
        options.sync_writes = false;
      } else {
        return usage_error("invalid --durability \"" + value + "\" (strict or relaxed)");
      }
    } else if (arg == "--bootstrap-default-cluster-replica-size") {
      boot.default_cluster_size = value;
    } else if (arg == "--system-parameter-default") {
      auto at = value.find('=');
      if (at == std::string::npos || at == 0)
        return usage_error("invalid --system-parameter-default \"" + value + "\" (expected NAME=VALUE)");
      boot.system_parameter_defaults.emplace_back(value.substr(0, at), value.substr(at + 1));
    } else if (arg == "--unsafe-wall-clock-offset-ms") {
      int64_t ms = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
      if (ec != std::errc() || p != value.data() + value.size())
        return usage_error("invalid --unsafe-wall-clock-offset-ms \"" + value + "\"");
      wall_clock_offset_ms = ms;
    } else {
      return usage_error("unknown option " + arg);
    }
  }

  auto logger = spdlog::stderr_color_mt("tandemd");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %^%l%$ %v", spdlog::pattern_time_type::utc);
  auto level = spdlog::level::from_str(options.log_level);
  if (level == spdlog::level::off && options.log_level != "off")
    return usage_error("invalid --log-level \"" + options.log_level + "\"");
  spdlog::set_level(level);
  if (!options.sync_writes) spdlog::warn("--durability relaxed: acknowledged writes may be lost on a crash");
  if (wall_clock_offset_ms != 0) {
    spdlog::warn("--unsafe-wall-clock-offset-ms {}: the timestamp oracle reads a shifted wall clock",
                 wall_clock_offset_ms);
    tandem::storage::TimestampOracle::set_system_wall_clock_offset(wall_clock_offset_ms);
  }

  // Block the stop signals (and SIGUSR1, a request for a memory report) in
  // every thread; one thread waits for them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  auto store = tandem::storage::DurableStore::open({options.data_dir, options.sync_writes, recover_torn_wal});
  if (!store.ok()) {
    const tandem::Status& failed = store.status();
    spdlog::critical("{}{}", failed.message(), failed.hint().empty() ? "" : " (hint: " + failed.hint() + ")");
    return 1;
  }
  for (const std::string& line : (*store)->recovery_report()) spdlog::warn("recovery: {}", line);
  spdlog::info("data directory {}", options.data_dir);
  // Arrangement batches over the budget spill to the store's spill family.
  auto budget = std::make_shared<tandem::compute::MemoryBudget>(
      std::make_shared<tandem::storage::RocksSpillStore>(**store), memory_limit,
      tandem::compute::MemoryBudget::cache_bytes_for(memory_limit));
  tandem::compute::MemoryBudget::install(budget);
  spdlog::info("memory limit for arrangements {} bytes", memory_limit);

  auto adapter = tandem::frontend::Adapter::open(**store, {}, boot);
  if (!adapter.ok()) {
    spdlog::critical("{}", adapter.status().message());
    return 1;
  }
  // Destroyed before the coordinator: the connections' coroutine frames
  // still alive then (a COPY in progress: its staged write deletes what
  // it staged) may use it.
  std::optional<tandem::frontend::Server> server_holder;
  tandem::frontend::Server& server = server_holder.emplace(options, **adapter);
  tandem::Status started = server.start();
  if (!started.is_ok()) {
    spdlog::critical("{}", started.message());
    return 1;
  }

  std::thread signal_waiter([&] {
    int sig = 0;
    while (sigwait(&stop_signals, &sig) == 0 && sig == SIGUSR1) {
      spdlog::info("{}", tandem::frontend::memory_report(**store, budget.get()));
    }
    if (sig == SIGINT || sig == SIGTERM) spdlog::info("received {}", sig == SIGINT ? "SIGINT" : "SIGTERM");
    server.stop();
  });
  server.run();
  // If the server stopped on its own, wake the signal waiter.
  pthread_kill(signal_waiter.native_handle(), SIGTERM);
  signal_waiter.join();

  server_holder.reset();
  adapter->reset();  // stops the coordinator and compute before storage closes
  tandem::compute::MemoryBudget::install(nullptr);
  const tandem::compute::MemoryBudgetStats spill = budget->stats();
  spdlog::info("arrangement spill: {} batches spilled, block cache {} hits / {} misses",
               spill.spilled_batches, spill.cache.hits, spill.cache.misses);
  budget.reset();
  tandem::Status closed = (*store)->close();
  if (!closed.is_ok()) {
    spdlog::error("closing storage: {}", closed.message());
    return 1;
  }
  spdlog::info("stopped");
  return 0;
}
