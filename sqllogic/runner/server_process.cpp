#include "sqllogic/runner/server_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <thread>

namespace tandem::slt {
namespace {

// Asks the kernel for a free loopback port. Another process could take it
// before tandemd binds it; the readiness check would then fail visibly.
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  close(fd);
  return port;
}

}  // namespace

std::unique_ptr<ServerProcess> ServerProcess::start(const Config& config, std::string* error) {
  std::unique_ptr<ServerProcess> server(new ServerProcess());
  std::string pattern = (std::filesystem::temp_directory_path() / "tandem-slt-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    *error = "cannot create a temporary directory";
    return nullptr;
  }
  server->directory_ = pattern;
  server->log_path_ = pattern + "/tandemd.log";
  const int port = free_port();
  if (port < 0) {
    *error = "cannot find a free port";
    return nullptr;
  }
  const std::string listen = "127.0.0.1:" + std::to_string(port);
  server->url_ = "postgresql://materialize@127.0.0.1:" + std::to_string(port) + "/materialize";

  std::vector<std::string> args{config.tandemd_path, "--listen", listen, "--data-dir",
                                pattern + "/data"};
  args.insert(args.end(), config.extra_args.begin(), config.extra_args.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const int log_fd = open(server->log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    *error = "cannot create " + server->log_path_;
    return nullptr;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(log_fd);
    *error = "fork failed";
    return nullptr;
  }
  if (pid == 0) {
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    execv(argv[0], argv.data());
    dprintf(STDERR_FILENO, "tandem-slt: cannot execute %s\n", argv[0]);
    _exit(127);
  }
  close(log_fd);
  server->pid_ = pid;

  const auto deadline = std::chrono::steady_clock::now() + kReadyTimeout;
  while (true) {
    if (!server->is_running()) {
      *error = "tandemd exited during startup; log tail:\n" + server->log_tail(30);
      return nullptr;
    }
    if (PQping(server->url_.c_str()) == PQPING_OK) return server;
    if (std::chrono::steady_clock::now() >= deadline) {
      *error = "tandemd did not accept connections within " +
               std::to_string(kReadyTimeout.count()) + " s; log tail:\n" + server->log_tail(30);
      return nullptr;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

ServerProcess::~ServerProcess() { stop(); }

bool ServerProcess::is_running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

std::string ServerProcess::log_tail(int lines) const {
  std::ifstream log(log_path_);
  std::deque<std::string> tail;
  std::string line;
  while (std::getline(log, line)) {
    tail.push_back(line);
    if (static_cast<int>(tail.size()) > lines) tail.pop_front();
  }
  std::string out;
  for (const std::string& kept : tail) out += "  | " + kept + "\n";
  return out.empty() ? "  | (empty log)\n" : out;
}

void ServerProcess::stop() {
  if (is_running()) {
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + kStopTimeout;
    while (is_running() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (is_running()) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }
  if (!directory_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
    directory_.clear();
  }
}

}  // namespace tandem::slt
