#include "tests/difftest/servers.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tandem::difftest {

namespace {

std::atomic<pid_t> g_tandem_pid{-1};
std::atomic<pid_t> g_postmaster_pid{-1};

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

// Runs argv (prefixed with `runuser -u postgres --` when root), output to
// `log`; returns the exit status.
int run_as_postgres(std::vector<std::string> argv, const std::string& log) {
  if (::geteuid() == 0) argv.insert(argv.begin(), {"runuser", "-u", "postgres", "--"});
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0666);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool wait_accepting(const std::string& conninfo, int seconds, pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pid > 0) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) return false;
    }
    if (PQping(conninfo.c_str()) == PQPING_OK) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::string tail(const std::string& path, int lines) {
  std::ifstream in(path);
  std::deque<std::string> last;
  std::string line;
  while (std::getline(in, line)) {
    last.push_back(line);
    if (static_cast<int>(last.size()) > lines) last.pop_front();
  }
  std::string out;
  for (const auto& l : last) out += l + "\n";
  return out;
}

}  // namespace

void kill_servers_from_signal() {
  const pid_t td = g_tandem_pid.load();
  if (td > 0) ::kill(td, SIGKILL);
  const pid_t pm = g_postmaster_pid.load();
  if (pm > 0) ::kill(pm, SIGQUIT);
}

Servers::Servers(std::string tandemd_path, std::string pg_bindir)
    : tandemd_path_(std::move(tandemd_path)), pg_bindir_(std::move(pg_bindir)) {
  char tmpl[] = "/tmp/tandem-difftest-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  if (::geteuid() == 0) {
    if (passwd* pw = ::getpwnam("postgres")) {
      if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) throw std::runtime_error("chown " + dir_ + " failed");
    }
  }
  try {
    start_postgres();
    start_tandem();
  } catch (...) {
    stop_tandem();
    stop_postgres();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    throw;
  }
}

Servers::~Servers() {
  stop_tandem();
  stop_postgres();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void Servers::start_postgres() {
  const std::string log = dir_ + "/initdb.log";
  if (run_as_postgres({pg_bindir_ + "/initdb", "-D", dir_ + "/pg", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                       "--locale=C"},
                      log) != 0) {
    throw std::runtime_error("initdb failed:\n" + tail(log, 20));
  }
  for (int attempt = 0; attempt < 5; ++attempt) {
    pg_port_ = free_port();
    const std::string opts = "-p " + std::to_string(pg_port_) + " -c listen_addresses=127.0.0.1" +
                             " -c unix_socket_directories=" + dir_ +
                             " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
    if (run_as_postgres({pg_bindir_ + "/pg_ctl", "-D", dir_ + "/pg", "-l", dir_ + "/pg.log", "-w", "-o", opts, "start"},
                        dir_ + "/pg_ctl.log") == 0) {
      pg_started_ = true;
      std::ifstream pidfile(dir_ + "/pg/postmaster.pid");
      long pid = -1;
      pidfile >> pid;
      g_postmaster_pid = static_cast<pid_t>(pid);
      if (wait_accepting(pg_conninfo(), 30, -1)) return;
      throw std::runtime_error("PostgreSQL does not accept connections:\n" + tail(dir_ + "/pg.log", 20));
    }
  }
  throw std::runtime_error("pg_ctl start failed:\n" + tail(dir_ + "/pg.log", 20));
}

void Servers::stop_postgres() {
  if (!pg_started_) return;
  run_as_postgres({pg_bindir_ + "/pg_ctl", "-D", dir_ + "/pg", "-m", "immediate", "-w", "stop"}, dir_ + "/pg_ctl.log");
  pg_started_ = false;
  g_postmaster_pid = -1;
}

void Servers::start_tandem() {
  ++td_generation_;
  const std::string data = dir_ + "/td" + std::to_string(td_generation_);
  const std::string log = dir_ + "/tandemd.log";
  for (int attempt = 0; attempt < 5; ++attempt) {
    td_port_ = free_port();
    std::vector<std::string> argv = {tandemd_path_, "--listen", "127.0.0.1:" + std::to_string(td_port_),
                                     "--data-dir", data, "--log-level", "warn"};
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    td_pid_ = pid;
    g_tandem_pid = pid;
    if (wait_accepting(tandem_conninfo(), 60, pid)) return;
    stop_tandem();
  }
  throw std::runtime_error("tandemd did not start:\n" + tail(log, 20));
}

void Servers::stop_tandem() {
  if (td_pid_ <= 0) return;
  ::kill(td_pid_, SIGTERM);
  int status = 0;
  bool gone = false;
  for (int i = 0; i < 250 && !gone; ++i) {
    const pid_t r = ::waitpid(td_pid_, &status, WNOHANG);
    gone = r == td_pid_ || r < 0;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!gone) {
    ::kill(td_pid_, SIGKILL);
    ::waitpid(td_pid_, &status, 0);
  }
  td_pid_ = -1;
  g_tandem_pid = -1;
  std::error_code ec;
  std::filesystem::remove_all(dir_ + "/td" + std::to_string(td_generation_), ec);
}

bool Servers::tandem_alive(std::string* how) {
  if (td_pid_ <= 0) return false;
  int status = 0;
  const pid_t r = ::waitpid(td_pid_, &status, WNOHANG);
  if (r == 0) return true;
  if (how) {
    if (r == td_pid_ && WIFSIGNALED(status)) {
      *how = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
    } else if (r == td_pid_ && WIFEXITED(status)) {
      *how = "exited with status " + std::to_string(WEXITSTATUS(status));
    } else {
      *how = "gone";
    }
  }
  td_pid_ = -1;
  g_tandem_pid = -1;
  return false;
}

void Servers::restart_tandem() {
  stop_tandem();
  start_tandem();
}

std::string Servers::tandem_log_tail(int lines) const { return tail(dir_ + "/tandemd.log", lines); }

std::string Servers::pg_conninfo() const {
  return "host=127.0.0.1 port=" + std::to_string(pg_port_) + " user=postgres dbname=postgres connect_timeout=10";
}

std::string Servers::tandem_conninfo() const {
  return "host=127.0.0.1 port=" + std::to_string(td_port_) + " user=materialize dbname=materialize connect_timeout=10";
}

}  // namespace tandem::difftest
