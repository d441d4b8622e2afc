#include "compute/runtime/runtime.hpp"

#include <string>

namespace tandem::compute {

Runtime::Runtime(RuntimeOptions options)
    : name_(options.name),
      reads_name_(options.reads_name.empty() ? options.name : options.reads_name),
      peek_log_(options.peek_log ? options.peek_log : std::make_shared<logging::PeekLog>()),
      responses_(options.responses ? options.responses : std::make_shared<ResponseQueue>()),
      record_steps_(options.record_steps),
      peer_steps_(options.peer_steps),
      publisher_(options.publisher),
      peeks_(std::max<std::size_t>(1, options.workers), responses_.get()),
      frontiers_(std::max<std::size_t>(1, options.workers), responses_.get()),
      sinks_(std::max<std::size_t>(1, options.workers), responses_.get()),
      offload_pool_(options.offload_pool) {
  const std::size_t n = std::max<std::size_t>(1, options.workers);
  const bool logging = options.logging && publisher_ == nullptr;
  // Log indexes are named by their relation; the rest as the owner prints them.
  logging::IdFormatter format_id = [user = options.format_id](GlobalId id) {
    if (auto v = logging::log_variant_of(id)) return std::string(logging::log_variants()[*v].name);
    return user ? user(id) : std::to_string(id);
  };
  if (publisher_ != nullptr) {
    peer_.registry = &publisher_->publications();
    peer_.request_logs = [publisher = publisher_](std::size_t w, Timestamp t) { return publisher->request_logs(w, t); };
  }
  offloaded_answers_ = std::make_shared<OffloadedAnswers>(&peeks_);
  for (std::size_t i = 0; i < n; ++i) {
    Worker::Options w;
    w.publications = &publications_;
    w.offload_pool = offload_pool_;
    w.offloaded_answers = offloaded_answers_;
    if (logging) w.logger = std::make_unique<logging::WorkerLogger>(i, name_, format_id);
    w.peek_log = peek_log_.get();
    w.peer = publisher_ != nullptr ? &peer_ : nullptr;
    w.record_steps = record_steps_.get();
    w.peer_steps = peer_steps_.get();
    w.thread_name = name_.substr(0, 5) + "-" + std::to_string(i);
    w.thread_class = options.thread_class;
    workers_.push_back(std::make_unique<Worker>(i, &peeks_, &frontiers_, &sinks_, std::move(w)));
  }
  peeks_.set_on_answered([log = peek_log_.get()](PeekId id) { log->finish(id); });
  for (auto& w : workers_) w->start();
  if (publisher_ != nullptr) {
    gate_ = std::make_shared<WakeGate>();
    gate_->runtime = this;
    peer_.registry->set_watcher([gate = gate_](std::size_t worker, GlobalId id) {
      std::lock_guard lock(gate->mutex);
      if (gate->runtime != nullptr && worker < gate->runtime->workers_.size())
        gate->runtime->workers_[worker]->mark_dirty(id);
    });
  }
  if (logging) {
    for (std::size_t s = 0; s < logging::kLogSourceCount; ++s) {
      send(CreateDataflow{logging::log_dataflow(static_cast<logging::LogSource>(s))});
    }
  }
}

Runtime::~Runtime() { stop(); }

void Runtime::stop() {
  if (gate_) {
    std::lock_guard lock(gate_->mutex);
    gate_->runtime = nullptr;
  }
  for (auto& w : workers_) w->shutdown();
  offloaded_answers_->close();
}

StepStart Runtime::request_logs(std::size_t worker, Timestamp time) {
  if (worker >= workers_.size()) return std::nullopt;
  return workers_[worker]->request_logs(time);
}

std::shared_ptr<InputHandle> Runtime::create_input(GlobalId id) {
  std::lock_guard lock(mutex_);
  auto input = std::make_shared<InputHandle>(workers_.size(), [this](std::size_t w) { wake(w); });
  inputs_[id] = input;
  return input;
}

void Runtime::share_input(GlobalId id, std::shared_ptr<InputHandle> input) {
  std::lock_guard lock(mutex_);
  inputs_[id] = std::move(input);
  shared_inputs_.insert(id);
}

void Runtime::hold_published(GlobalId id, Timestamp as_of) {
  std::lock_guard lock(mutex_);
  auto parts = peer_.registry != nullptr ? peer_.registry->placeholders(id) : std::nullopt;
  if (!parts || parts->size() != workers_.size()) return;
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    HoldPublished hold{id, TraceHandle::try_acquire((*parts)[w].oks, as_of),
                       TraceHandle::try_acquire((*parts)[w].errs, as_of)};
    workers_[w]->enqueue(WorkerCommand{std::move(hold), nullptr});
  }
}

void Runtime::release_published(GlobalId id) {
  std::lock_guard lock(mutex_);
  for (auto& w : workers_) w->enqueue(WorkerCommand{ReleasePublished{id}, nullptr});
}

void Runtime::send(ComputeCommand command) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<DataflowShared> shared;
  if (auto* create = std::get_if<CreateDataflow>(&command)) {
    shared = std::make_shared<DataflowShared>(
        workers_.size(), [this](std::size_t w) { wake(w); },
        [this](GlobalId id) -> std::shared_ptr<InputHandle> {
          // Called by workers while rendering, without mutex_ (send does not wait for them).
          std::lock_guard inner(mutex_);
          auto it = inputs_.find(id);
          return it == inputs_.end() ? nullptr : it->second;
        },
        /*own_inputs=*/publisher_ == nullptr);
    std::vector<GlobalId> ids;
    for (const IndexExport& e : create->desc.index_exports) ids.push_back(e.index_id);
    if (create->desc.until) one_shot_exports_.insert(ids.begin(), ids.end());
    for (const GlobalId id : ids) dataflow_of_export_[id] = ids;
    for (const GlobalId id : ids) publications_.expect(id, workers_.size());
  } else if (auto* peek = std::get_if<Peek>(&command)) {
    peeks_.begin(peek->uuid);
    const bool published = publisher_ != nullptr && dataflow_of_export_.count(peek->target) == 0 &&
                           peer_.registry->placeholders(peek->target).has_value();
    if (dataflow_of_export_.count(peek->target) == 0 && !published) {
      peeks_.fail(peek->uuid, Status::error(sqlstate::kUndefinedObject,
                                            "index " + std::to_string(peek->target) + " does not exist"));
      return;
    }
    const auto path = one_shot_exports_.count(peek->target) ? logging::ReadPath::kDataflow : logging::ReadPath::kFastPath;
    peek_log_->begin(peek->uuid, peek->target, peek->time, path, name_);
  } else if (auto* drop = std::get_if<DropDataflow>(&command)) {
    auto it = dataflow_of_export_.find(drop->export_id);
    if (it == dataflow_of_export_.end()) return;
    const std::vector<GlobalId> ids = it->second;
    for (const GlobalId id : ids) dataflow_of_export_.erase(id);
    for (const GlobalId id : ids) one_shot_exports_.erase(id);
    for (const GlobalId id : ids) publications_.retract(id);
  }
  for (std::size_t i = 0; i + 1 < workers_.size(); ++i) workers_[i]->enqueue(WorkerCommand{command, shared});
  workers_.back()->enqueue(WorkerCommand{std::move(command), shared});
}

}  // namespace tandem::compute
