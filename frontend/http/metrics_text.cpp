#include "frontend/http/metrics_text.hpp"

#include <cinttypes>
#include <cstdio>

#include "frontend/adapter/adapter.hpp"

namespace tandem::frontend::http {

namespace {

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}
  // HELP and TYPE lines of a metric family.
  void family(std::string_view name, std::string_view type, std::string_view help) {
    out_->append("# HELP ").append(name).append(" ").append(help).append("\n");
    out_->append("# TYPE ").append(name).append(" ").append(type).append("\n");
  }
  void sample(std::string_view name, std::string_view labels, double value) {
    out_->append(name);
    if (!labels.empty()) out_->append("{").append(labels).append("}");
    char buf[64];
    if (value == static_cast<double>(static_cast<int64_t>(value))) {
      std::snprintf(buf, sizeof buf, " %" PRId64 "\n", static_cast<int64_t>(value));
    } else {
      std::snprintf(buf, sizeof buf, " %.17g\n", value);
    }
    out_->append(buf);
  }
  void gauge(std::string_view name, std::string_view help, double value) {
    family(name, "gauge", help);
    sample(name, "", value);
  }

 private:
  std::string* out_;
};

std::string label(std::string_view name, std::string_view value) {
  std::string out(name);
  out.append("=\"");
  for (char c : value) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out.append("\\n");
      continue;
    }
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace

std::string render_metrics(ServerContext& context) {
  std::string out;
  Writer w(&out);
  const ServerMetrics& m = context.metrics;
  w.gauge("tandem_pgwire_connections", "Open PostgreSQL-wire connections (authenticated).",
          static_cast<double>(m.pgwire_connections.load()));
  w.gauge("tandem_http_connections", "Open HTTP connections.", static_cast<double>(m.http_connections.load()));
  w.gauge("tandem_websocket_sessions", "Open WebSocket SQL sessions.", static_cast<double>(m.websocket_sessions.load()));
  w.gauge("tandem_sessions", "Sessions counted against --max-connections (pgwire, WebSocket, running /api/sql requests).",
          static_cast<double>(context.connections.count()));
  w.gauge("tandem_max_connections", "The --max-connections limit.",
          static_cast<double>(context.options.max_connections));

  w.family("tandem_statements_total", "counter", "Statements executed, by kind and outcome.");
  for (size_t kind = 0; kind < kStatementKinds; ++kind) {
    for (size_t o = 0; o < kStatementOutcomes; ++o) {
      auto outcome = static_cast<StatementOutcome>(o);
      uint64_t n = m.statements(kind, outcome);
      if (n == 0) continue;
      w.sample("tandem_statements_total",
               label("kind", statement_kind_name(kind)) + "," + label("outcome", statement_outcome_name(outcome)),
               static_cast<double>(n));
    }
  }
  w.family("tandem_http_requests_total", "counter", "HTTP requests answered, by endpoint and status class.");
  for (size_t e = 0; e < kHttpEndpoints; ++e) {
    auto endpoint = static_cast<HttpEndpoint>(e);
    for (size_t cls = 1; cls <= 5; ++cls) {
      uint64_t n = m.http_requests(endpoint, cls);
      if (n == 0) continue;
      w.sample("tandem_http_requests_total",
               label("endpoint", http_endpoint_name(endpoint)) + "," +
                   label("status", std::to_string(cls) + "xx"),
               static_cast<double>(n));
    }
  }

  auto status = context.adapter.coordinator().controller_status();
  const catalog::ProcessStatus& process = status->process;
  w.gauge("tandem_process_resident_memory_bytes", "Resident set size of the process.",
          static_cast<double>(process.memory_bytes));
  w.gauge("tandem_process_heap_bytes", "Bytes the allocator has handed out.", static_cast<double>(process.heap_bytes));
  w.gauge("tandem_process_cpu_nano_cores", "CPU time used per wall second (ns/s) over the last sample window.",
          static_cast<double>(process.cpu_nano_cores));
  if (process.arrangement_memory) {
    const catalog::ArrangementMemoryStatus& a = *process.arrangement_memory;
    w.gauge("tandem_arrangement_memory_limit_bytes", "Memory budget for resident arrangement batches (0: none).",
            static_cast<double>(a.limit_bytes));
    w.gauge("tandem_arrangement_resident_bytes", "Arrangement batch columns held in memory.",
            static_cast<double>(a.resident_bytes));
    w.gauge("tandem_arrangement_spilled_bytes", "Arrangement batch columns spilled to RocksDB.",
            static_cast<double>(a.spilled_bytes));
    w.family("tandem_arrangement_spills_total", "counter", "Arrangement batches spilled since boot.");
    w.sample("tandem_arrangement_spills_total", "", static_cast<double>(a.spills_total));
    w.gauge("tandem_arrangement_block_cache_bytes", "Bytes in the block cache of spilled blocks read back.",
            static_cast<double>(a.cache_bytes));
    w.family("tandem_arrangement_block_cache_reads_total", "counter", "Block cache lookups, by result.");
    w.sample("tandem_arrangement_block_cache_reads_total", label("result", "hit"), static_cast<double>(a.cache_hits));
    w.sample("tandem_arrangement_block_cache_reads_total", label("result", "miss"),
             static_cast<double>(a.cache_misses));
  }

  w.family("tandem_compute_export_hydrated", "gauge",
           "1 once a dataflow export (index, materialized view, subscribe) has hydrated, else 0.");
  for (const catalog::ComputeObjectStatus& c : status->compute) {
    w.sample("tandem_compute_export_hydrated",
             label("export_id", std::to_string(c.object_id)) + "," + label("cluster", std::to_string(c.cluster)),
             c.hydrated ? 1 : 0);
  }
  w.family("tandem_compute_export_hydration_seconds", "gauge", "Time a hydrated export took to hydrate.");
  for (const catalog::ComputeObjectStatus& c : status->compute) {
    if (!c.hydration_time_us) continue;
    w.sample("tandem_compute_export_hydration_seconds",
             label("export_id", std::to_string(c.object_id)) + "," + label("cluster", std::to_string(c.cluster)),
             static_cast<double>(*c.hydration_time_us) / 1e6);
  }

  w.family("tandem_interactive_dataflows", "gauge", "Peek dataflows running and waiting for admission, per cluster.");
  for (const catalog::InteractiveAdmissionStatus& a : status->admission) {
    std::string cluster = label("cluster", std::to_string(a.cluster));
    w.sample("tandem_interactive_dataflows", cluster + "," + label("state", "running"), static_cast<double>(a.active));
    w.sample("tandem_interactive_dataflows", cluster + "," + label("state", "queued"), static_cast<double>(a.queued));
  }
  w.family("tandem_interactive_dataflows_admitted_total", "counter", "Peek dataflows admitted, per cluster.");
  for (const catalog::InteractiveAdmissionStatus& a : status->admission) {
    w.sample("tandem_interactive_dataflows_admitted_total", label("cluster", std::to_string(a.cluster)),
             static_cast<double>(a.admitted_total));
  }

  // Read latency: histograms with power-of-two bucket bounds from 1 µs
  // (2^10 ns) to 17 s (2^34 ns), as compute's PeekLog keeps them.
  constexpr size_t kFirstBucket = 10;
  constexpr size_t kLastBucket = 34;
  w.family("tandem_read_duration_seconds", "histogram",
           "Reads (peeks) by cluster, the runtime that served them and their path (fast_path, dataflow, offloaded).");
  for (const Coordinator::ClusterReads& cluster : context.adapter.coordinator().read_histograms()) {
    for (const auto& h : cluster.reads) {
      std::string labels = label("cluster", std::to_string(cluster.cluster)) + "," + label("runtime", h.runtime) +
                           "," + label("path", compute::logging::read_path_name(h.path));
      uint64_t cumulative = 0;
      for (size_t i = 0; i < kFirstBucket; ++i) cumulative += h.histogram[i];
      for (size_t i = kFirstBucket; i <= kLastBucket; ++i) {
        cumulative += h.histogram[i];
        char le[32];
        std::snprintf(le, sizeof le, "%.9g", static_cast<double>(uint64_t{1} << i) / 1e9);
        w.sample("tandem_read_duration_seconds_bucket", labels + "," + label("le", le),
                 static_cast<double>(cumulative));
      }
      w.sample("tandem_read_duration_seconds_bucket", labels + "," + label("le", "+Inf"),
               static_cast<double>(h.count));
      w.sample("tandem_read_duration_seconds_sum", labels, static_cast<double>(h.sum_ns) / 1e9);
      w.sample("tandem_read_duration_seconds_count", labels, static_cast<double>(h.count));
    }
  }

  w.family("tandem_storage_shard_bytes", "gauge", "Bytes stored in each durable shard (tables, materialized views).");
  for (const catalog::ShardStatus& s : status->shards) {
    w.sample("tandem_storage_shard_bytes", label("object_id", std::to_string(s.object_id)),
             static_cast<double>(s.stored_bytes));
  }
  return out;
}

}  // namespace tandem::frontend::http
