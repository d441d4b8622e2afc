#include "compute/runtime/worker.hpp"

#include <malloc.h>

#include <cstdio>
#include <future>
#include <string>
#include <utility>

#include "compute/arrangement/batch.hpp"
#include "compute/dataflow/render.hpp"
#include "compute/runtime/peek_reader.hpp"

namespace tandem::compute {

Worker::Worker(std::size_t index, PeekTracker* peeks, FrontierTracker* frontiers, SinkTracker* sinks, Options options)
    : index_(index),
      peeks_(peeks),
      frontiers_(frontiers),
      sinks_(sinks),
      publications_(options.publications),
      offload_pool_(std::move(options.offload_pool)),
      offloaded_answers_(std::move(options.offloaded_answers)),
      logger_(std::move(options.logger)),
      peek_log_(options.peek_log),
      peer_(options.peer),
      record_steps_(options.record_steps),
      peer_steps_(options.peer_steps),
      thread_name_(std::move(options.thread_name)),
      thread_class_(options.thread_class) {}

Worker::~Worker() { shutdown(); }

void Worker::start() {
  // Returns once the thread is named and scheduled as asked.
  std::promise<void> configured;
  thread_ = std::thread([this, &configured] {
    configure_current_thread(thread_name_, thread_class_);
    configured.set_value();
    run();
  });
  configured.get_future().wait();
}

void Worker::shutdown() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Worker::enqueue(WorkerCommand command) {
  {
    std::lock_guard lock(mutex_);
    inbox_.push_back(std::move(command));
  }
  cv_.notify_one();
}

void Worker::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  cv_.notify_one();
}

void Worker::mark_dirty(GlobalId id) {
  {
    std::lock_guard lock(mutex_);
    dirty_.push_back(id);
    woken_ = true;
  }
  cv_.notify_one();
}

StepStart Worker::request_logs(Timestamp time) {
  StepStart started;
  {
    std::lock_guard lock(mutex_);
    log_request_ = std::max(log_request_, time + 1);
    if (stepping_) started = step_started_;
    woken_ = true;
  }
  cv_.notify_one();
  return started;
}

namespace {

// A step this long (hydration, a large Reduce) freed many transient Rows
// and Update vectors among allocations that live on, and glibc keeps the
// space freed between them in its arenas: 60-100 MiB free but held
// through a full-size hydration and its aggregates (bench/HISTORY.md,
// "What holds memory above the budget"). Trimming returns it to the
// kernel; it costs a walk of the arenas' free chunks, small next to such
// a step.
constexpr std::chrono::milliseconds kTrimAfterStep{100};

}  // namespace

void Worker::run() {
  std::deque<WorkerCommand> commands;
  std::vector<GlobalId> dirty;
  for (;;) {
    Timestamp log_request;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [&] { return stop_ || woken_ || !inbox_.empty(); };
      if (recheck_at_) {
        cv_.wait_until(lock, *recheck_at_, ready);
      } else {
        cv_.wait(lock, ready);
      }
      if (stop_ && inbox_.empty()) return;
      commands.swap(inbox_);
      dirty.swap(dirty_);
      woken_ = false;
      log_request = std::exchange(log_request_, kMinTimestamp);
      // A log request from now on waits for this step's end (request_logs).
      stepping_ = true;
      step_started_ = std::chrono::steady_clock::now();
    }
    if (recheck_at_ && std::chrono::steady_clock::now() >= *recheck_at_) {
      recheck_at_.reset();
      for (const auto& [id, reads] : parked_published_) dirty.push_back(id);
    }
    const auto start = std::chrono::steady_clock::now();
    for (WorkerCommand& c : commands) handle(c);
    commands.clear();
    if (logger_ && log_request != kMinTimestamp) logger_->request_time(log_request - 1);
    if (logger_ && logger_->flush_due()) flush_logs();
    step_dataflows();
    check_heaps();
    after_step();
    if (!dirty.empty()) recheck_dirty(dirty);
    dirty.clear();
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (logger_) logger_->record_step(elapsed);
    if (record_steps_) record_steps_->record(index_, elapsed);
    if (elapsed >= kTrimAfterStep) malloc_trim(0);
    std::lock_guard lock(mutex_);
    stepping_ = false;
  }
}

void Worker::step_dataflows() {
  bool more = false;
  for (Installed& d : dataflows_) {
    if (d.failed) continue;
    d.dataflow->step();
    // Readers on the other runtime hear of each advance as soon as the
    // dataflow that made it has stepped, not at the end of a long step.
    for (const GlobalId id : d.exports) {
      auto it = exports_.find(id);
      if (it == exports_.end()) continue;
      const Timestamp upper = std::min(it->second.op->trace().upper(),
                                       it->second.op->shared_errs_trace()->upper());
      if (upper <= it->second.notified) continue;
      it->second.notified = upper;
      if (publications_ != nullptr) publications_->advanced(id, index_);
    }
    more = more || d.dataflow->has_more();
    if (d.shared_imports.empty()) continue;
    unwatch_done_imports(d);
    for (const auto& [id, op] : d.shared_imports) more = more || op->has_more();
  }
  if (more) {
    // An import walks a large index in chunks, a source a large history:
    // step again (after any command that arrived meanwhile) without waiting
    // for a wake-up.
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
}

void Worker::handle(WorkerCommand& command) {
  if (auto* c = std::get_if<ComputeCommand>(&command.command)) {
    handle(*c, command.shared);
  } else if (auto* hold = std::get_if<HoldPublished>(&command.command)) {
    hold_published(*hold);
  } else {
    release_published(std::get<ReleasePublished>(command.command).id);
  }
}

void Worker::handle(ComputeCommand& command, const std::shared_ptr<DataflowShared>& shared) {
  std::visit(
      [&](auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, CreateDataflow>) {
          create(c, shared);
        } else if constexpr (std::is_same_v<T, AllowCompaction>) {
          allow_compaction(c);
        } else if constexpr (std::is_same_v<T, Peek>) {
          peek(std::move(c));
        } else if constexpr (std::is_same_v<T, CancelPeek>) {
          cancel(c.uuid);
        } else {
          drop(c.export_id);
        }
      },
      command);
}

void Worker::create(const CreateDataflow& create, const std::shared_ptr<DataflowShared>& shared) {
  RenderContext ctx;
  ctx.worker = index_;
  ctx.channel = [&](std::size_t seq) { return shared->channel(seq); };
  ctx.source = [&](GlobalId id) -> std::shared_ptr<SourceFeed> {
    if (logger_) {
      if (auto feed = logger_->feed(id)) return feed;
    }
    return shared->feed(id, index_);
  };
  ctx.index = [&](GlobalId id) -> ArrangeOp* {
    auto it = exports_.find(id);
    return it == exports_.end() ? nullptr : it->second.op;
  };
  if (peer_ != nullptr) ctx.shared_index = [&](GlobalId id, Timestamp as_of) { return shared_index(id, as_of); };
  ctx.export_placeholders = [&](GlobalId id) {
    ExportPlaceholders out;
    if (publications_ == nullptr) return out;
    if (auto parts = publications_->placeholders(id); parts && index_ < parts->size()) {
      out.oks = (*parts)[index_].oks;
      out.errs = (*parts)[index_].errs;
    }
    return out;
  };
  auto rendered = render(create.desc, ctx);
  if (!rendered.ok()) {
    // The controller validates imports before sending; reaching this is a bug.
    std::fprintf(stderr, "compute worker %zu: cannot render dataflow %s: %s\n", index_,
                 create.desc.debug_name.c_str(), rendered.status().to_string().c_str());
    return;
  }
  Installed installed;
  installed.dataflow = std::move(rendered->dataflow);
  installed.imports = std::move(rendered->imports);
  installed.shared_imports = std::move(rendered->shared_imports);
  installed.heap_limit = create.desc.heap_limit_bytes;
  if (installed.heap_limit != 0) installed.shared = shared;
  for (const auto& [id, op] : installed.shared_imports) peer_->registry->watch(id, index_);
  for (const SourceImport& s : create.desc.source_imports) installed.is_logging |= logging::log_source_of(s.id).has_value();
  installed.id = next_log_id_++;
  installed.first_operator_id = next_log_id_;
  next_log_id_ += static_cast<std::int64_t>(installed.dataflow->operator_count());
  if (logger_ && !installed.is_logging) installed.dataflow->set_timed(true);
  // A dataflow importing a log index (a peek dataflow over introspection
  // relations) reads it from its as_of: log past it, as for a peek.
  for (const IndexImport& i : create.desc.index_imports) {
    if (logger_ && logging::log_variant_of(i.index_id)) logger_->request_time(create.desc.as_of);
  }
  for (const RenderedExport& e : rendered->exports) {
    Export exp;
    exp.op = e.arrangement;
    exp.oks_hold = e.arrangement->trace().handle();
    exp.errs_hold = e.arrangement->shared_errs_trace()->handle();
    exp.oks_hold.set_logical_compaction(create.desc.as_of);
    exp.errs_hold.set_logical_compaction(create.desc.as_of);
    if (publications_ != nullptr) publications_->publish(e.index_id, index_);
    exports_[e.index_id] = std::move(exp);
    installed.exports.push_back(e.index_id);
  }
  for (const SinkExport& sink : create.desc.sink_exports) {
    auto exp = exports_.find(sink.index_id);
    if (exp == exports_.end()) continue;  // the controller sinks its own exports only
    Sink s;
    s.index_id = sink.index_id;
    s.feed = std::make_shared<ArrangementFeed>();
    exp->second.op->subscribe(s.feed);
    sink_exports_[sink.sink_id] = std::move(s);
  }
  dataflows_.push_back(std::move(installed));
}

void Worker::allow_compaction(const AllowCompaction& allow) {
  if (auto p = published_.find(allow.id); p != published_.end()) {
    p->second.oks.set_logical_compaction(allow.since);
    p->second.errs.set_logical_compaction(allow.since);
    return;
  }
  auto it = exports_.find(allow.id);
  if (it == exports_.end()) return;
  it->second.oks_hold.set_logical_compaction(allow.since);
  it->second.errs_hold.set_logical_compaction(allow.since);
  it->second.compacted = true;
}

void Worker::peek(Peek peek) {
  auto it = exports_.find(peek.target);
  if (it == exports_.end() && peer_ != nullptr) {
    peek_published(std::move(peek));
    return;
  }
  if (it == exports_.end()) {
    peeks_->error(peek.uuid, Status::error(sqlstate::kUndefinedObject,
                                           "index " + std::to_string(peek.target) + " does not exist"));
    return;
  }
  Export& exp = it->second;
  if (exp.failed) {
    peeks_->error(peek.uuid, *exp.failed);
    return;
  }
  if (peek.time < exp.oks_hold.since()) {
    peeks_->error(peek.uuid, Status::error(sqlstate::kSnapshotTooOld,
                                           "Arrangement compaction frontier (" + std::to_string(exp.oks_hold.since()) +
                                               ") is beyond the time of the attempted read (" +
                                               std::to_string(peek.time) + ")"));
    return;
  }
  // A log index is complete only up to the last flush: log past the peek.
  if (logger_ && logging::log_variant_of(peek.target)) logger_->request_time(peek.time);
  Parked parked{std::move(peek), exp.oks_hold, exp.errs_hold};
  parked.oks_hold.set_logical_compaction(parked.peek.time);
  parked.errs_hold.set_logical_compaction(parked.peek.time);
  if (!try_answer(parked, exp)) parked_[parked.peek.target].push_back(std::move(parked));
}

bool Worker::try_answer(Parked& parked, const Export& exp) {
  if (exp.op->trace().upper() <= parked.peek.time) return false;
  answer(parked, parked.oks_hold.snapshot(), parked.errs_hold.snapshot());
  return true;
}

void Worker::answer(const Parked& parked, std::shared_ptr<const TraceSnapshot> oks,
                    std::shared_ptr<const TraceSnapshot> errs) {
  if (parked.peek.stream && !parked.peek.literal_keys) {
    // Handed over, not walked: the reader walks the sealed batches at the
    // client's pace, and the snapshots keep them alive past this hold.
    peeks_->snapshots(parked.peek.uuid, {std::move(oks), std::move(errs)});
    return;
  }
  if (offload_answer(parked, oks, errs)) return;
  auto rows = read_peek(parked.peek, *oks, *errs);
  if (rows.ok()) {
    peeks_->rows(parked.peek.uuid, std::move(rows).value());
  } else {
    peeks_->error(parked.peek.uuid, rows.status());
  }
}

void Worker::cancel(PeekId id) {
  if (cancel_offloaded(id)) return;
  for (auto& [target, list] : parked_) {
    for (auto it = list.begin(); it != list.end(); ++it) {
      if (it->peek.uuid != id) continue;
      list.erase(it);
      peeks_->canceled(id);
      return;
    }
  }
  for (auto& [target, list] : parked_published_) {
    for (auto it = list.begin(); it != list.end(); ++it) {
      if (it->peek.uuid != id) continue;
      list.erase(it);  // releases its holds
      peer_->registry->unwatch(target, index_);
      peeks_->canceled(id);
      return;
    }
  }
}

void Worker::drop(GlobalId export_id) {
  for (auto d = dataflows_.begin(); d != dataflows_.end(); ++d) {
    if (std::find(d->exports.begin(), d->exports.end(), export_id) == d->exports.end()) continue;
    for (const GlobalId id : d->exports) {
      if (auto p = parked_.find(id); p != parked_.end()) {
        for (Parked& parked : p->second)
          peeks_->error(parked.peek.uuid,
                        Status::error(sqlstate::kUndefinedObject, "index " + std::to_string(id) + " was dropped"));
        parked_.erase(p);
      }
      exports_.erase(id);
      frontiers_->forget(id);
      for (auto sink = sink_exports_.begin(); sink != sink_exports_.end();) {
        if (sink->second.index_id != id) {
          ++sink;
          continue;
        }
        sinks_->forget(sink->first);
        sink = sink_exports_.erase(sink);
      }
    }
    for (const auto& [id, op] : d->shared_imports) peer_->registry->unwatch(id, index_);
    dataflows_.erase(d);
    return;
  }
}

void Worker::check_heaps() {
  for (Installed& d : dataflows_) {
    if (d.heap_limit == 0 || d.failed) continue;
    std::optional<std::uint64_t> failure = d.shared->heap_failure();
    if (!failure) {
      std::uint64_t bytes = 0;
      for (std::size_t i = 0; i < d.dataflow->operator_count(); ++i) {
        if (const auto* arrange = dynamic_cast<const ArrangeOp*>(&d.dataflow->operator_at(i)))
          bytes += arrange->held_bytes();
      }
      if (d.shared->report_heap(index_, bytes, d.heap_limit)) failure = d.shared->heap_failure();
    }
    if (failure) fail_heap(d, *failure);
  }
}

void Worker::fail_heap(Installed& installed, std::uint64_t total) {
  installed.failed = true;
  const Status status = Status::error(
      sqlstate::kOutOfMemory, "out of memory: the query's dataflow holds " + std::to_string(total) +
                                  " bytes, over max_query_heap_size (" + std::to_string(installed.heap_limit) +
                                  " bytes)");
  for (const GlobalId id : installed.exports) {
    if (auto exp = exports_.find(id); exp != exports_.end()) exp->second.failed = status;
    auto p = parked_.find(id);
    if (p == parked_.end()) continue;
    for (Parked& parked : p->second) peeks_->error(parked.peek.uuid, status);
    parked_.erase(p);
  }
}

void Worker::report_sinks() {
  std::vector<Update> scratch;
  auto collect = [&](std::vector<BatchPtr>& batches, bool errors, std::vector<SinkUpdate>* out) {
    for (const BatchPtr& b : batches) {
      scratch.clear();
      append_batch_updates(b, &scratch);
      // Exported data is (key, row); exported errors are (error row, empty).
      for (Update& u : scratch) out->push_back(SinkUpdate{errors ? std::move(u.key) : std::move(u.val), u.time, u.diff});
    }
    batches.clear();
  };
  for (auto& [sink_id, sink] : sink_exports_) {
    auto exp = exports_.find(sink.index_id);
    if (exp == exports_.end()) continue;
    const Timestamp upper = exp->second.op->trace().upper();
    if (upper <= sink.reported && sink.feed->oks.empty() && sink.feed->errs.empty()) continue;
    std::vector<SinkUpdate> oks;
    std::vector<SinkUpdate> errs;
    collect(sink.feed->oks, false, &oks);
    collect(sink.feed->errs, true, &errs);
    sink.reported = std::max(sink.reported, upper);
    sinks_->report(sink_id, index_, upper, std::move(oks), std::move(errs));
  }
}

void Worker::after_step() {
  report_sinks();
  for (auto& [id, exp] : exports_) {
    // Merged once every hold has caught up with the AllowCompaction (the
    // interactive runtime moves its standing hold in its own command
    // order), so the merges compact to the new since.
    const auto least = exp.op->trace().publication()->least_hold();
    if (exp.compacted && (!least || *least >= exp.oks_hold.since())) {
      exp.compacted = false;
      std::int64_t fuel = kCompactionMergeFuel;
      exp.op->trace().exert(fuel);
      if (const auto& errs = exp.op->shared_errs_trace()) {
        fuel = kCompactionMergeFuel;
        errs->exert(fuel);
      }
    }
    const Timestamp upper = exp.op->trace().upper();
    if (upper <= exp.reported) continue;
    exp.reported = upper;
    if (!logging::log_variant_of(id)) frontiers_->report(id, index_, upper);
    auto p = parked_.find(id);
    if (p == parked_.end()) continue;
    auto& list = p->second;
    auto& exported = exp;  // clang before 16 cannot capture a structured binding
    std::erase_if(list, [&](Parked& parked) { return try_answer(parked, exported); });
    if (list.empty()) parked_.erase(p);
  }
}

logging::LoggedDataflow Worker::describe(const Installed& installed) const {
  logging::LoggedDataflow df;
  const Dataflow& dataflow = *installed.dataflow;
  df.id = installed.id;
  df.name = dataflow.name();
  const auto& elapsed = dataflow.elapsed_ns();
  for (std::size_t i = 0; i < dataflow.operator_count(); ++i) {
    const Operator& op = dataflow.operator_at(i);
    logging::LoggedOperator logged;
    logged.id = installed.first_operator_id + static_cast<std::int64_t>(i);
    logged.name = op.name();
    logged.elapsed_ns = i < elapsed.size() ? elapsed[i] : 0;
    if (const auto* arrange = dynamic_cast<const ArrangeOp*>(&op)) {
      const Trace& trace = *arrange->shared_trace();
      std::vector<BatchPtr> batches = trace.spine().batches();
      logging::ArrangementSize size;
      size.records = static_cast<std::int64_t>(trace.spine().update_count());
      size.batches = static_cast<std::int64_t>(batches.size());
      size.resident_bytes = static_cast<std::int64_t>(trace.spine().memory_bytes());
      size.spilled_bytes = static_cast<std::int64_t>(trace.spine().spilled_bytes());
      size.size = size.resident_bytes + size.spilled_bytes;
      size.capacity = size.size;
      size.allocations = size.batches;
      logged.arrangement = size;
    }
    df.operators.push_back(std::move(logged));
  }
  for (const GlobalId id : installed.exports) {
    auto it = exports_.find(id);
    if (it == exports_.end()) continue;
    ArrangeOp* op = it->second.op;
    const auto& errs = op->shared_errs_trace();
    df.exports.push_back(logging::LoggedExport{
        id, op->trace().upper(), errs ? static_cast<std::int64_t>(errs->spine().update_count()) : 0});
  }
  for (const auto& [id, op] : installed.imports) df.imports.push_back(logging::LoggedImport{id, op->frontier()});
  return df;
}

void Worker::flush_logs() {
  logging::LogState state;
  for (const Installed& d : dataflows_) {
    if (!d.is_logging) state.dataflows.push_back(describe(d));
  }
  if (index_ == 0 && peek_log_ != nullptr) state.peeks = peek_log_->snapshot();
  if (peer_steps_ != nullptr) state.peer_steps.emplace(peer_steps_->runtime(), peer_steps_->read(index_));
  const Timestamp at = logger_->flush(std::move(state));
  const Timestamp since = at > kLogRetention ? at - kLogRetention : kMinTimestamp;
  for (const Installed& d : dataflows_) {
    if (!d.is_logging) continue;
    for (const GlobalId id : d.exports) {
      auto it = exports_.find(id);
      if (it == exports_.end()) continue;
      it->second.oks_hold.set_logical_compaction(since);
      it->second.errs_hold.set_logical_compaction(since);
    }
  }
}

}  // namespace tandem::compute
