#include "frontend/coord/coordinator.hpp"

#include <boost/asio/post.hpp>

#include "storage/durable_store.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;

Result<std::unique_ptr<Coordinator>> Coordinator::open(storage::DurableStore& durable, CoordinatorOptions options) {
  std::unique_ptr<Coordinator> c(new Coordinator(options));
  TANDEM_ASSIGN_OR_RETURN(c->shards_, storage::ShardStore::open(durable));
  TANDEM_ASSIGN_OR_RETURN(c->oracle_, storage::TimestampOracle::open(durable));
  c->compute_ = std::make_unique<compute::Runtime>(compute::RuntimeOptions{options.compute_workers});
  // A fresh timestamp above everything before the restart: every table is
  // advanced to just past it, and reads start there.
  TANDEM_ASSIGN_OR_RETURN(Timestamp boot, c->oracle_->write_ts());
  TANDEM_RETURN_IF_ERROR(c->shards_->advance_uppers(boot + 1));
  c->oracle_->apply_write(boot);
  c->upper_ = boot + 1;
  c->ticker_ = std::make_unique<asio::steady_timer>(c->io_);
  c->schedule_upper_tick();
  c->thread_ = std::thread([io = &c->io_] { io->run(); });
  return c;
}

Coordinator::~Coordinator() {
  asio::post(io_, [this] {
    stopping_ = true;
    ticker_->cancel();
  });
  thread_.join();
  // The committer may still complete appends; they post to the stopped
  // io_context, which outlives the shard store.
  shards_.reset();
  compute_.reset();
}

void Coordinator::schedule_upper_tick() {
  ticker_->expires_after(options_.upper_interval);
  ticker_->async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    auto ts = oracle_->write_ts();
    if (ts.ok()) advance_all(*ts + 1);
    schedule_upper_tick();
  });
}

void Coordinator::advance_all(Timestamp upper) {
  std::vector<storage::ShardAppend> appends;
  for (const auto& [id, table] : tables_) {
    appends.push_back(storage::ShardAppend{id, {}, upper_, upper});
  }
  upper_ = upper;
  shards_->append_async(std::move(appends), [this, upper](Status s) {
    asio::post(io_, [this, upper, s] {
      if (!s.is_ok()) return;  // the next write or tick retries from the shards' state
      oracle_->apply_write(upper - 1);
      for (auto& [id, table] : tables_) table.input->advance_to(upper);
    });
  });
}

Status Coordinator::open_table(compute::GlobalId table) {
  if (tables_.count(table) != 0) return Status::ok();
  auto shards = shards_->list_shards();
  bool exists = std::find(shards.begin(), shards.end(), table) != shards.end();
  if (!exists) {
    TANDEM_RETURN_IF_ERROR(shards_->create_shard(table, upper_));
  } else {
    TANDEM_ASSIGN_OR_RETURN(Timestamp shard_upper, shards_->upper(table));
    if (shard_upper < upper_) {
      TANDEM_RETURN_IF_ERROR(shards_->append({storage::ShardAppend{table, {}, shard_upper, upper_}}));
    }
  }
  Table t;
  t.input = compute_->create_input(table);
  if (exists) {
    // The history before the boot timestamp arrives consolidated at it.
    TANDEM_ASSIGN_OR_RETURN(auto rows, shards_->snapshot(table, upper_ - 1));
    for (auto& [row, diff] : rows) t.input->send(Row(std::move(row)), upper_ - 1, diff);
  }
  t.input->advance_to(upper_);
  tables_.emplace(table, std::move(t));
  return Status::ok();
}

Status Coordinator::drop_table(compute::GlobalId table) {
  if (tables_.erase(table) == 0) return Status::ok();
  return shards_->drop_shard(table);
}

Result<std::vector<std::pair<std::string, Diff>>> Coordinator::snapshot(compute::GlobalId table, Timestamp as_of) {
  return shards_->snapshot(table, as_of);
}

void Coordinator::write(std::vector<TableWrite> writes, std::function<void(Result<Timestamp>)> done) {
  auto ts = oracle_->write_ts();
  if (!ts.ok()) {
    done(ts.status());
    return;
  }
  Timestamp time = *ts;
  std::vector<storage::ShardAppend> appends;
  std::map<compute::GlobalId, size_t> index;
  for (const auto& [id, table] : tables_) {
    index[id] = appends.size();
    appends.push_back(storage::ShardAppend{id, {}, upper_, time + 1});
  }
  for (const auto& w : writes) {
    auto it = index.find(w.table);
    if (it == index.end()) {
      done(Status::error(sqlstate::kUndefinedTable, "table u" + std::to_string(w.table) + " has no storage"));
      return;
    }
    for (const auto& [row, diff] : w.updates) {
      appends[it->second].updates.push_back(storage::Update{std::string(row.bytes()), time, diff});
    }
  }
  upper_ = time + 1;
  auto shared_writes = std::make_shared<std::vector<TableWrite>>(std::move(writes));
  shards_->append_async(std::move(appends), [this, time, shared_writes, done = std::move(done)](Status s) mutable {
    asio::post(io_, [this, time, s, shared_writes, done = std::move(done)] {
      if (!s.is_ok()) {
        done(s);
        return;
      }
      oracle_->apply_write(time);
      for (const auto& w : *shared_writes) {
        auto it = tables_.find(w.table);
        if (it == tables_.end()) continue;  // dropped while the write committed
        for (const auto& [row, diff] : w.updates) it->second.input->send(row, time, diff);
      }
      for (auto& [id, table] : tables_) table.input->advance_to(time + 1);
      done(time);
    });
  });
}

}  // namespace tandem::frontend
