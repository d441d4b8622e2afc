// With the interactive runtime on, a cluster's maintenance workers run as
// background work and its interactive workers do not (thread_class.hpp).
#include <catch2/catch.hpp>

#include <sched.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compute/testing/cluster.hpp"

namespace tandem::compute {
namespace {

struct ThreadInfo {
  int policy = -1;
  int nice = 0;
};

// The scheduling of this process's threads named `name`.
std::vector<ThreadInfo> threads_named(const std::string& name) {
  std::vector<ThreadInfo> out;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(entry.path() / "comm");
    std::string n;
    std::getline(comm, n);
    if (n != name) continue;
    const pid_t tid = std::stoi(entry.path().filename().string());
    errno = 0;
    out.push_back(ThreadInfo{sched_getscheduler(tid), getpriority(PRIO_PROCESS, static_cast<id_t>(tid))});
  }
  return out;
}

TEST_CASE("maintenance workers run as background work beside an interactive runtime", "[runtime]") {
  {
    testing::Cluster c(2);
    const auto maint = threads_named("maint-1");
    REQUIRE(maint.size() == 1);
    CHECK(maint[0].policy == SCHED_BATCH);
    CHECK(maint[0].nice == 10);
    const auto inter = threads_named("inter-1");
    REQUIRE(inter.size() == 1);
    CHECK(inter[0].policy == SCHED_OTHER);
    CHECK(inter[0].nice == 0);
  }
  {
    // One runtime serves reads too: it keeps the normal class.
    testing::Cluster c(1, /*interactive=*/false);
    const auto maint = threads_named("maint-0");
    REQUIRE(maint.size() == 1);
    CHECK(maint[0].policy == SCHED_OTHER);
    CHECK(maint[0].nice == 0);
  }
}

}  // namespace
}  // namespace tandem::compute
