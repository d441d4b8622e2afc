#include "compute/runtime/runtime.hpp"

#include <string>

namespace tandem::compute {

Runtime::Runtime(RuntimeOptions options)
    : name_(options.name),
      peek_log_(std::make_shared<logging::PeekLog>()),
      peeks_(std::max<std::size_t>(1, options.workers), &responses_),
      frontiers_(std::max<std::size_t>(1, options.workers), &responses_),
      sinks_(std::max<std::size_t>(1, options.workers), &responses_),
      offload_pool_(options.offload_pool) {
  const std::size_t n = std::max<std::size_t>(1, options.workers);
  // Log indexes are named by their relation; the rest as the owner prints them.
  logging::IdFormatter format_id = [user = options.format_id](GlobalId id) {
    if (auto v = logging::log_variant_of(id)) return std::string(logging::log_variants()[*v].name);
    return user ? user(id) : std::to_string(id);
  };
  for (std::size_t i = 0; i < n; ++i) {
    std::unique_ptr<logging::WorkerLogger> logger;
    if (options.logging) logger = std::make_unique<logging::WorkerLogger>(i, name_, format_id);
    workers_.push_back(std::make_unique<Worker>(i, &peeks_, &frontiers_, &sinks_, std::move(logger), peek_log_.get()));
  }
  peeks_.set_on_answered([log = peek_log_.get()](PeekId id) { log->finish(id); });
  for (auto& w : workers_) w->start();
  if (options.logging) {
    for (std::size_t s = 0; s < logging::kLogSourceCount; ++s) {
      send(CreateDataflow{logging::log_dataflow(static_cast<logging::LogSource>(s))});
    }
  }
}

Runtime::~Runtime() {
  for (auto& w : workers_) w->shutdown();
}

std::shared_ptr<InputHandle> Runtime::create_input(GlobalId id) {
  std::lock_guard lock(mutex_);
  auto input = std::make_shared<InputHandle>(workers_.size(), [this](std::size_t w) { wake(w); });
  inputs_[id] = input;
  return input;
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
        });
    std::vector<GlobalId> ids;
    for (const IndexExport& e : create->desc.index_exports) ids.push_back(e.index_id);
    if (create->desc.until) one_shot_exports_.insert(ids.begin(), ids.end());
    for (const GlobalId id : ids) dataflow_of_export_[id] = ids;
    for (const GlobalId id : ids) publications_.expect(id, workers_.size());
    shared->publications = &publications_;
  } else if (auto* peek = std::get_if<Peek>(&command)) {
    peeks_.begin(peek->uuid);
    if (dataflow_of_export_.count(peek->target) == 0) {
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
