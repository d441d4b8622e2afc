#pragma once
// Connection: one client connection, from the startup packet to Terminate.
// It drives the protocol state machine (Startup -> Authenticating -> Ready,
// and within Ready the extended protocol's Drain-until-Sync after an error)
// over the pure codec in frontend/pgwire (STYLE #10), and hands statements
// to the Adapter.
//
// Output is batched: messages are appended to one buffer and written when
// every complete message already received has been handled, so a pipelined
// Parse/Bind/Describe/Execute/Sync costs one write.
//
// Threading: the coroutine runs on its socket's io_context thread; a
// statement that may wait runs on the blocking pool while the coroutine is
// suspended. shutdown() may be called from any thread.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "frontend/pgwire/backend_writer.hpp"
#include "frontend/pgwire/codec.hpp"
#include "frontend/server/server_context.hpp"
#include "frontend/session/session.hpp"

namespace tandem::frontend {

class Connection final : public ClientConnection, public std::enable_shared_from_this<Connection> {
 public:
  Connection(boost::asio::ip::tcp::socket socket, ServerContext& context);
  ~Connection() override;

  boost::asio::awaitable<void> run();
  // Closes the connection with FATAL 57P01 (server shutdown).
  void shutdown() override;

 private:
  enum class Phase : uint8_t { kStartup, kReady, kDrainUntilSync, kDone };

  boost::asio::awaitable<bool> fill(size_t needed);
  boost::asio::awaitable<void> flush();
  size_t send_now(size_t offset);
  std::optional<bool> recv_now();
  void consume(size_t n);
  std::span<const uint8_t> pending() const;

  boost::asio::awaitable<bool> startup();
  boost::asio::awaitable<bool> authenticate();
  boost::asio::awaitable<std::optional<pgwire::PasswordMessage>> read_password_message();
  boost::asio::awaitable<void> serve();
  void fatal(const Status& status);

  // Handlers of the Ready phase.
  boost::asio::awaitable<void> on_query(std::string_view sql);
  void on_parse(const pgwire::Parse& m);
  void on_bind(const pgwire::Bind& m);
  void on_describe(const pgwire::Describe& m);
  boost::asio::awaitable<void> on_execute(const pgwire::Execute& m);
  void on_close(const pgwire::Close& m);
  // COPY TO STDOUT / FROM STDIN after the statement ran.
  boost::asio::awaitable<Status> run_copy(const PreparedStatement& statement, const ExecResult& result);
  boost::asio::awaitable<Status> read_copy_data(CopyInBuilder* builder);
  // Sends the rows of result.stream as DataRows in `formats` (or CopyData
  // lines for COPY TO) until it ends or `max_rows` (0: no bound) are sent;
  // flushes as batches arrive. A live stream ends when the client goes
  // away. Returns the count sent, or the error that ended the stream.
  boost::asio::awaitable<Result<size_t>> send_stream(const ExecResult& result, std::span<const int16_t> formats,
                                                     size_t max_rows);
  // While a live stream runs: abandons it when the client closes its socket
  // or sends Terminate (other input is kept for after the stream).
  void watch_client(std::shared_ptr<RowStream> stream);
  void on_sync();
  // At Sync, the end of the extended protocol's implicit transaction (the
  // Executes since the last Sync): commits its writes unless one failed.
  boost::asio::awaitable<void> end_extended_implicit(bool failed);
  void ready_for_query();

  // Runs a statement, on the blocking pool if it may wait.
  boost::asio::awaitable<Result<ExecResult>> execute(const PreparedStatement& statement, const Row& params);
  // While a statement waits on compute (CancelToken::set_on_wait): cancels
  // it when the client closes its socket (PostgreSQL's
  // client_connection_check_interval, always on for such waits).
  void watch_while_executing();
  // An error in the Ready phase: reported, the transaction marked failed,
  // and (in the extended protocol) messages skipped until Sync.
  void report_error(const Status& status, bool extended);
  void send_result_prefix(const ExecResult& result);
  void send_notices_and_parameters(const ExecResult& result);

  boost::asio::ip::tcp::socket socket_;
  ServerContext& context_;
  pgwire::MessageDecoder decoder_;
  std::vector<uint8_t> in_;  // [in_begin_, in_end_) holds unconsumed input
  size_t in_begin_ = 0;
  size_t in_end_ = 0;
  // Reads by recv_now since fill last went through the event loop.
  static constexpr uint32_t kEagerReads = 16;
  uint32_t eager_reads_ = 0;
  std::string out_;
  // A binary COPY TO's header until it goes out with the first tuple or
  // the trailer (write_copy_rows).
  std::string copy_binary_header_;
  pgwire::BackendWriter writer_{out_};
  Phase phase_ = Phase::kStartup;
  std::unique_ptr<Session> session_;
  std::optional<CancelRegistry::Key> cancel_key_;
  bool counted_ = false;
  bool startup_counted_ = false;  // in ConnectionCounter's startup count
  // Startup and authentication end by this deadline, or the socket closes.
  boost::asio::steady_timer startup_deadline_;
  std::vector<std::pair<std::string, std::string>> pending_parameters_;
  bool executing_ = false;  // inside execute()
  bool watching_ = false;   // watch_while_executing's wait is pending
};

}  // namespace tandem::frontend
