#include "compute/runtime/thread_class.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tandem::compute {

namespace {

constexpr int kBackgroundNice = 10;

void warn_once(const char* what) {
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  std::fprintf(stderr, "tandem: cannot run maintenance threads as background work (%s: %s); they run at normal priority\n",
               what, std::strerror(errno));
}

}  // namespace

void configure_current_thread(const std::string& name, ThreadClass cls) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
  if (cls != ThreadClass::Background) return;
#ifdef __linux__
  // On Linux both the policy and the nice value are per thread.
  const pid_t tid = static_cast<pid_t>(::syscall(SYS_gettid));
  sched_param param{};
  if (sched_setscheduler(tid, SCHED_BATCH, &param) != 0) warn_once("SCHED_BATCH");
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(tid), kBackgroundNice) != 0) warn_once("nice");
#endif
}

}  // namespace tandem::compute
