#include "tests/support/tandemd_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace tandem::testing {

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

TandemdProcess::TandemdProcess(std::vector<std::string> extra_args) {
  char tmpl[] = "/tmp/tandem-test-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  data_dir_ = dir_ + "/data";
  start(std::move(extra_args));
}

TandemdProcess::TandemdProcess(std::vector<std::string> extra_args, std::string data_dir) {
  char tmpl[] = "/tmp/tandem-test-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  data_dir_ = std::move(data_dir);
  owns_data_dir_ = false;
  start(std::move(extra_args));
}

void TandemdProcess::start(std::vector<std::string> extra_args) {
  log_path_ = dir_ + "/tandemd.log";
  for (int attempt = 0; attempt < 5; ++attempt) {
    port_ = free_port();
    std::vector<std::string> args = {TANDEMD_PATH, "--listen", "127.0.0.1:" + std::to_string(port_), "--data-dir",
                                     data_dir_, "--log-level", "debug"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      int fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    // Ready once a connection succeeds; a process that exited lost the port
    // race. Generous: a restart re-reads every table before it listens.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      // PQping counts a server that rejects our credentials as up.
      if (PQping(conninfo().c_str()) == PQPING_OK) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (pid_ > 0) break;
  }
  throw std::runtime_error("tandemd did not start:\n" + log());
}

TandemdProcess::~TandemdProcess() {
  stop();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);  // the data directory too, when it is ours
}

int TandemdProcess::stop() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  for (int i = 0; i < 500; ++i) {
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return -1;
}

std::string TandemdProcess::conninfo(const std::string& user) const {
  return "host=127.0.0.1 port=" + std::to_string(port_) + " user=" + user +
         " dbname=materialize connect_timeout=5";
}

std::string TandemdProcess::url(const std::string& user) const {
  return "postgresql://" + user + "@127.0.0.1:" + std::to_string(port_) + "/materialize";
}

std::string TandemdProcess::log() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace tandem::testing
