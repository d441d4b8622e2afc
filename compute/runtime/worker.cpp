#include "compute/runtime/worker.hpp"

#include <cstdio>
#include <string>

#include "compute/dataflow/render.hpp"
#include "compute/runtime/peek_reader.hpp"

namespace tandem::compute {

Worker::Worker(std::size_t index, PeekTracker* peeks, FrontierTracker* frontiers, SinkTracker* sinks)
    : index_(index), peeks_(peeks), frontiers_(frontiers), sinks_(sinks) {}

Worker::~Worker() { shutdown(); }

void Worker::start() { thread_ = std::thread([this] { run(); }); }

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

void Worker::run() {
  std::deque<WorkerCommand> commands;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stop_ || woken_ || !inbox_.empty(); });
      if (stop_ && inbox_.empty()) return;
      commands.swap(inbox_);
      woken_ = false;
    }
    for (WorkerCommand& c : commands) handle(c);
    commands.clear();
    for (Installed& d : dataflows_) d.dataflow->step();
    after_step();
  }
}

void Worker::handle(WorkerCommand& command) {
  std::visit(
      [&](auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, CreateDataflow>) {
          create(c, *command.shared);
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
      command.command);
}

void Worker::create(const CreateDataflow& create, DataflowShared& shared) {
  RenderContext ctx;
  ctx.worker = index_;
  ctx.channel = [&](std::size_t seq) { return shared.channel(seq); };
  ctx.source = [&](GlobalId id) { return shared.feed(id, index_); };
  ctx.index = [&](GlobalId id) -> ArrangeOp* {
    auto it = exports_.find(id);
    return it == exports_.end() ? nullptr : it->second.op;
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
  for (const RenderedExport& e : rendered->exports) {
    Export exp;
    exp.op = e.arrangement;
    exp.oks_hold = e.arrangement->trace().handle();
    exp.errs_hold = e.arrangement->shared_errs_trace()->handle();
    exp.oks_hold.set_logical_compaction(create.desc.as_of);
    exp.errs_hold.set_logical_compaction(create.desc.as_of);
    if (shared.publications != nullptr) {
      shared.publications->publish(e.index_id, index_,
                                   {e.arrangement->trace().publication(), e.arrangement->shared_errs_trace()->publication()});
    }
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
  auto it = exports_.find(allow.id);
  if (it == exports_.end()) return;
  it->second.oks_hold.set_logical_compaction(allow.since);
  it->second.errs_hold.set_logical_compaction(allow.since);
}

void Worker::peek(Peek peek) {
  auto it = exports_.find(peek.target);
  if (it == exports_.end()) {
    peeks_->error(peek.uuid, Status::error(sqlstate::kUndefinedObject,
                                           "index " + std::to_string(peek.target) + " does not exist"));
    return;
  }
  Export& exp = it->second;
  if (peek.time < exp.oks_hold.since()) {
    peeks_->error(peek.uuid, Status::error(sqlstate::kSnapshotTooOld,
                                           "Arrangement compaction frontier (" + std::to_string(exp.oks_hold.since()) +
                                               ") is beyond the time of the attempted read (" +
                                               std::to_string(peek.time) + ")"));
    return;
  }
  Parked parked{std::move(peek), exp.oks_hold, exp.errs_hold};
  parked.oks_hold.set_logical_compaction(parked.peek.time);
  parked.errs_hold.set_logical_compaction(parked.peek.time);
  if (!try_answer(parked, exp)) parked_[parked.peek.target].push_back(std::move(parked));
}

bool Worker::try_answer(Parked& parked, const Export& exp) {
  if (exp.op->trace().upper() <= parked.peek.time) return false;
  if (parked.peek.stream && !parked.peek.literal_keys) {
    // Handed over, not walked: the reader walks the sealed batches at the
    // client's pace, and the snapshots keep them alive past this hold.
    peeks_->snapshots(parked.peek.uuid, {parked.oks_hold.snapshot(), parked.errs_hold.snapshot()});
    return true;
  }
  auto rows = read_peek(parked.peek, *parked.oks_hold.snapshot(), *parked.errs_hold.snapshot());
  if (rows.ok()) {
    peeks_->rows(parked.peek.uuid, std::move(rows).value());
  } else {
    peeks_->error(parked.peek.uuid, rows.status());
  }
  return true;
}

void Worker::cancel(PeekId id) {
  for (auto& [target, list] : parked_) {
    for (auto it = list.begin(); it != list.end(); ++it) {
      if (it->peek.uuid != id) continue;
      list.erase(it);
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
    dataflows_.erase(d);
    return;
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
    const Timestamp upper = exp.op->trace().upper();
    if (upper <= exp.reported) continue;
    exp.reported = upper;
    frontiers_->report(id, index_, upper);
    auto p = parked_.find(id);
    if (p == parked_.end()) continue;
    auto& list = p->second;
    std::erase_if(list, [&](Parked& parked) { return try_answer(parked, exp); });
    if (list.empty()) parked_.erase(p);
  }
}

}  // namespace tandem::compute
