#include "bench/tandem_bench/load_driver.hpp"

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cstring>
#include <deque>
#include <memory>
#include <stdexcept>

#include "bench/tandem_bench/sql_session.hpp"

namespace tandem::bench {
namespace {

constexpr uint64_t kTimerTag = UINT64_MAX;

double micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

struct Pending {
  uint64_t index;
  Clock::time_point due;
};

// One pooled connection and the iteration it is running.
struct Conn {
  PGconn* pg = nullptr;
  uint64_t tag = 0;  // its index in the pool, the epoll tag
  std::size_t stream = 0;
  bool busy = false;
  bool writing = false;  // waiting for the socket to take the rest of a query
  Iteration script;
  std::size_t step = 0;
  bool failed = false;
  std::string error;
  std::optional<double> observed;
  Clock::time_point due, sent;
};

struct StreamState {
  const StreamSpec* spec;
  StreamOutcome out;
  uint64_t next_arrival = 0;
  uint64_t started = 0;  // closed loop: iterations begun
  std::optional<Clock::time_point> next_due;
  std::deque<Pending> queue;
  std::vector<Conn*> idle;
};

class Loop {
 public:
  Loop(const std::string& conninfo, const std::vector<StreamSpec>& specs, Duration duration)
      : duration_(duration) {
    epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
    timer_ = ::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (epoll_ < 0 || timer_ < 0) throw std::runtime_error(std::string("epoll/timerfd: ") + std::strerror(errno));
    watch(timer_, EPOLLIN, kTimerTag);
    for (std::size_t s = 0; s < specs.size(); ++s) {
      streams_.push_back(StreamState{&specs[s], {}, 0, 0, std::nullopt, {}, {}});
      for (int c = 0; c < specs[s].connections; ++c) open(s, conninfo);
    }
  }
  ~Loop() {
    for (auto& c : conns_)
      if (c->pg) PQfinish(c->pg);
    ::close(timer_);
    ::close(epoll_);
  }

  std::vector<StreamOutcome> run(Duration drain_limit) {
    start_ = Clock::now();
    end_ = start_ + duration_;
    for (std::size_t s = 0; s < streams_.size(); ++s) {
      auto& st = streams_[s];
      st.idle.clear();
      for (auto& c : conns_)
        if (c->stream == s) st.idle.push_back(c.get());
      if (st.spec->schedule) {
        schedule_next(st);
      } else {
        while (!st.idle.empty()) {
          Conn* c = st.idle.back();
          st.idle.pop_back();
          begin(*c, st.started++, Clock::now());
        }
      }
    }
    Clock::time_point drain_deadline = end_ + drain_limit;
    epoll_event events[64];
    for (;;) {
      auto now = Clock::now();
      release_arrivals(now);
      bool over = now >= end_;
      if (over && quiescent()) break;
      if (now >= drain_deadline) {
        abandon();
        break;
      }
      arm_timer(over ? drain_deadline : next_wakeup());
      int n = ::epoll_wait(epoll_, events, 64, -1);
      if (n < 0 && errno != EINTR) throw std::runtime_error(std::string("epoll_wait: ") + std::strerror(errno));
      for (int i = 0; i < n; ++i) {
        if (events[i].data.u64 == kTimerTag) {
          uint64_t expirations;
          (void)::read(timer_, &expirations, sizeof expirations);
          continue;
        }
        on_ready(*conns_[events[i].data.u64], events[i].events);
      }
    }
    std::vector<StreamOutcome> out;
    for (auto& st : streams_) out.push_back(std::move(st.out));
    return out;
  }

 private:
  void watch(int fd, uint32_t events, uint64_t tag, int op = EPOLL_CTL_ADD) {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = tag;
    if (::epoll_ctl(epoll_, op, fd, &ev) != 0) throw std::runtime_error(std::string("epoll_ctl: ") + std::strerror(errno));
  }

  void open(std::size_t stream, const std::string& conninfo) {
    const StreamSpec& spec = *streams_[stream].spec;
    SqlSession session(conninfo);  // set up blocking, then handed over non-blocking
    for (const auto& sql : spec.session_setup) session.exec(sql);
    for (const auto& [name, sql] : spec.prepares) session.prepare(name, sql);
    auto conn = std::make_unique<Conn>();
    conn->pg = session.release();
    conn->stream = stream;
    conn->tag = conns_.size();
    if (PQsetnonblocking(conn->pg, 1) != 0) throw std::runtime_error("PQsetnonblocking failed");
    watch(PQsocket(conn->pg), EPOLLIN, conns_.size());
    conns_.push_back(std::move(conn));
  }

  void schedule_next(StreamState& st) {
    auto offset = st.spec->schedule->arrival(st.next_arrival, duration_);
    st.next_due = offset ? std::optional(start_ + *offset) : std::nullopt;
  }

  // Every arrival due by `now` goes to an idle connection or the queue.
  void release_arrivals(Clock::time_point now) {
    for (auto& st : streams_) {
      while (st.next_due && *st.next_due <= now) {
        st.queue.push_back({st.next_arrival++, *st.next_due});
        schedule_next(st);
      }
      while (!st.queue.empty() && !st.idle.empty()) {
        Conn* c = st.idle.back();
        st.idle.pop_back();
        Pending p = st.queue.front();
        st.queue.pop_front();
        begin(*c, p.index, p.due);
      }
    }
  }

  Clock::time_point next_wakeup() const {
    Clock::time_point t = end_;
    for (const auto& st : streams_)
      if (st.next_due && *st.next_due < t) t = *st.next_due;
    return t;
  }

  void arm_timer(Clock::time_point at) {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
    if (ns <= 0) ns = 1;
    itimerspec spec{};
    spec.it_value.tv_sec = ns / 1'000'000'000;
    spec.it_value.tv_nsec = ns % 1'000'000'000;
    ::timerfd_settime(timer_, TFD_TIMER_ABSTIME, &spec, nullptr);
  }

  bool quiescent() const {
    for (const auto& st : streams_)
      if (!st.queue.empty()) return false;
    for (const auto& c : conns_)
      if (c->busy) return false;
    return true;
  }

  void begin(Conn& c, uint64_t index, Clock::time_point due) {
    StreamState& st = streams_[c.stream];
    c.busy = true;
    c.script = st.spec->iteration(index);
    c.step = 0;
    c.failed = false;
    c.error.clear();
    c.observed.reset();
    c.due = due;
    c.sent = Clock::now();
    if (st.spec->schedule) st.out.queue_us.push_back(micros(c.sent - due));
    send_step(c);
  }

  // Sends the next statement that should run, or completes the iteration.
  void send_step(Conn& c) {
    while (c.step < c.script.size() && c.failed && !c.script[c.step].always) ++c.step;
    if (c.step == c.script.size()) return complete(c);
    const Statement& s = c.script[c.step];
    std::vector<const char*> values;
    for (const auto& p : s.params) values.push_back(p.c_str());
    int n = static_cast<int>(values.size());
    int sent = s.prepared ? PQsendQueryPrepared(c.pg, s.sql.c_str(), n, values.data(), nullptr, nullptr, 0)
                          : PQsendQueryParams(c.pg, s.sql.c_str(), n, nullptr, values.data(), nullptr, nullptr, 0);
    if (!sent) return broken(c);
    flush(c);
  }

  void flush(Conn& c) {
    int r = PQflush(c.pg);
    if (r < 0) return broken(c);
    bool want = r == 1;
    if (want != c.writing) {
      c.writing = want;
      watch(PQsocket(c.pg), uint32_t{EPOLLIN} | (want ? uint32_t{EPOLLOUT} : 0u), c.tag, EPOLL_CTL_MOD);
    }
  }

  void on_ready(Conn& c, uint32_t events) {
    if (!c.busy || !c.pg) {
      if (c.pg) PQconsumeInput(c.pg);  // a notice between queries
      return;
    }
    if (c.writing && (events & EPOLLOUT)) flush(c);
    if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP))) return;
    if (!PQconsumeInput(c.pg)) return broken(c);
    if (c.writing) flush(c);
    while (c.busy && !PQisBusy(c.pg)) {
      PGresult* res = PQgetResult(c.pg);
      if (res == nullptr) {  // the statement is done
        ++c.step;
        send_step(c);
        continue;
      }
      ExecStatusType status = PQresultStatus(res);
      if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        if (!c.failed) c.error = PQresultErrorMessage(res);
        c.failed = true;
      } else if (!c.failed && c.step + 1 == c.script.size() && streams_[c.stream].spec->observe) {
        c.observed = streams_[c.stream].spec->observe(res);
      }
      PQclear(res);
    }
  }

  // The connection failed: the iteration is an error and the connection is
  // closed (which also removes its socket from the epoll set).
  void broken(Conn& c) {
    if (!c.failed) c.error = PQerrorMessage(c.pg);
    c.failed = true;
    c.step = c.script.size();
    PQfinish(c.pg);
    c.pg = nullptr;
    c.writing = false;
    complete(c);
  }

  void record_error(StreamOutcome& out, const std::string& error) {
    ++out.errors;
    if (out.first_error.empty()) out.first_error = error;
  }

  void complete(Conn& c) {
    StreamState& st = streams_[c.stream];
    auto now = Clock::now();
    bool open_loop = st.spec->schedule.has_value();
    double latency = micros(now - (open_loop ? c.due : c.sent));
    if (c.failed) {
      record_error(st.out, c.error);
    } else {
      st.out.latency_us.push_back(latency);
      if (st.spec->observe) {
        if (c.observed) st.out.observed.push_back(*c.observed);
        else ++st.out.observe_missing;
      }
    }
    if (st.spec->timeline)
      st.out.timeline.push_back({std::chrono::duration<double>(c.due - start_).count(), c.failed ? 0 : latency,
                                 !c.failed});
    c.busy = false;
    if (c.pg == nullptr) return;
    if (!open_loop) {
      if (now < end_) begin(c, st.started++, now);
      return;
    }
    if (!st.queue.empty()) {
      Pending p = st.queue.front();
      st.queue.pop_front();
      return begin(c, p.index, p.due);
    }
    st.idle.push_back(&c);
  }

  // The drain limit passed: what is still queued or running counts as errors.
  void abandon() {
    for (auto& st : streams_) {
      for (std::size_t i = 0; i < st.queue.size(); ++i) record_error(st.out, "not sent before the drain limit");
      st.queue.clear();
    }
    for (auto& c : conns_) {
      if (!c->busy || !c->pg) continue;
      if (PGcancel* cancel = PQgetCancel(c->pg)) {
        char buf[256];
        PQcancel(cancel, buf, sizeof buf);
        PQfreeCancel(cancel);
      }
      record_error(streams_[c->stream].out, "unanswered at the drain limit (cancelled)");
      c->busy = false;
    }
  }

  Duration duration_;
  int epoll_ = -1, timer_ = -1;
  Clock::time_point start_, end_;
  std::vector<StreamState> streams_;
  std::vector<std::unique_ptr<Conn>> conns_;
};

}  // namespace

std::vector<StreamOutcome> LoadDriver::run(const std::vector<StreamSpec>& streams, Duration duration,
                                           Duration drain_limit) {
  Loop loop(conninfo_, streams, duration);
  return loop.run(drain_limit);
}

}  // namespace tandem::bench
