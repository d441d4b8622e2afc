#include "compute/runtime/multiplexer.hpp"

namespace tandem::compute {

Multiplexer::Multiplexer(MultiplexerOptions options)
    : responses_(std::make_shared<ResponseQueue>()), interactive_dataflows_(options.interactive_dataflows) {
  RuntimeOptions m = std::move(options.maintenance);
  m.responses = responses_;
  if (!m.peek_log) m.peek_log = std::make_shared<logging::PeekLog>();
  peek_log_ = m.peek_log;
  std::shared_ptr<logging::SharedSteps> steps;
  if (options.interactive_runtime) {
    steps = std::make_shared<logging::SharedSteps>("interactive", std::max<std::size_t>(1, m.workers));
    m.peer_steps = steps;
    m.reads_name = "interactive";
    if (options.background_maintenance) m.thread_class = ThreadClass::Background;
  }
  RuntimeOptions i;
  i.workers = m.workers;
  i.logging = false;
  i.name = "interactive";
  i.format_id = m.format_id;
  i.responses = responses_;
  i.peek_log = m.peek_log;
  i.record_steps = steps;
  maintenance_ = std::make_unique<Runtime>(std::move(m));
  if (options.interactive_runtime) {
    i.publisher = maintenance_.get();
    interactive_ = std::make_unique<Runtime>(std::move(i));
  }
}

Multiplexer::~Multiplexer() {
  // The publisher first: then nothing wakes interactive workers that are
  // going away, and interactive reads of its objects see them alive.
  maintenance_->stop();
  interactive_.reset();
  maintenance_.reset();
}

std::shared_ptr<InputHandle> Multiplexer::create_input(GlobalId id) {
  auto input = maintenance_->create_input(id);
  if (interactive_) interactive_->share_input(id, input);
  return input;
}

bool Multiplexer::routes_to_interactive(const DataflowDescription& desc) const {
  return interactive_ != nullptr && interactive_dataflows_ && desc.until.has_value() && desc.sink_exports.empty();
}

void Multiplexer::send(ComputeCommand command) {
  std::lock_guard lock(mutex_);
  if (interactive_ == nullptr) {
    maintenance_->send(std::move(command));
    return;
  }
  if (auto* create = std::get_if<CreateDataflow>(&command)) {
    const DataflowDescription& desc = create->desc;
    std::vector<GlobalId> ids;
    for (const IndexExport& e : desc.index_exports) ids.push_back(e.index_id);
    for (const GlobalId id : ids) dataflow_of_[id] = ids;
    if (routes_to_interactive(desc)) {
      interactive_exports_.insert(ids.begin(), ids.end());
      interactive_->send(std::move(command));
      return;
    }
    for (const GlobalId id : ids) {
      maintenance_->publications().expect(id, maintenance_->workers());
      interactive_->hold_published(id, desc.as_of);
    }
    maintenance_->send(std::move(command));
  } else if (std::holds_alternative<Peek>(command)) {
    // Interactive reads its own exports and every published one.
    interactive_->send(std::move(command));
  } else if (auto* allow = std::get_if<AllowCompaction>(&command)) {
    if (interactive_exports_.count(allow->id) != 0) {
      interactive_->send(std::move(command));
      return;
    }
    interactive_->send(command);
    maintenance_->send(std::move(command));
  } else if (auto* drop = std::get_if<DropDataflow>(&command)) {
    auto it = dataflow_of_.find(drop->export_id);
    if (it == dataflow_of_.end()) return;  // unknown or dropped already
    const std::vector<GlobalId> ids = it->second;
    const bool on_interactive = interactive_exports_.count(drop->export_id) != 0;
    (on_interactive ? *interactive_ : *maintenance_).send(std::move(command));
    for (const GlobalId id : ids) {
      dataflow_of_.erase(id);
      interactive_exports_.erase(id);
      if (!on_interactive) interactive_->release_published(id);
    }
  } else {
    interactive_->send(command);
    maintenance_->send(std::move(command));
  }
}

}  // namespace tandem::compute
