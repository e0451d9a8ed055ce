#pragma once
// `vzero web`: an HTTP server on 127.0.0.1 for the browser page: the
// dashboards of run folders, their recorded games, and games played through
// JSON sessions (frontend/json_session.h, one per game). Every request needs
// the launch's token; Host and Origin must be this server's own (against DNS
// rebinding); players are limited to random, mcts: and net: with models under
// the run folders or the model folders (uci: only when engines are allowed).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vzero {

struct WebOptions {
  std::vector<std::string> run_dirs;  // the run folders shown, one dashboard each
  std::vector<std::string>
      model_dirs;  // folders whose models net: players may load (besides the run folders)
  int port = 0;    // 0: a free port
  bool allow_engines = false;   // uci: players allowed
  std::string token;            // "": a random one
  int max_sessions = 8;         // games played at once
  int max_streams = 4;          // live-update streams (/api/events) open at once
  int stream_check_ms = 500;    // how often a live-update stream looks at its run folders
  size_t max_body = 64 * 1024;  // bytes of one request
};

class WebServer {
 public:
  // A server of options (throws Error when a run folder is not a folder); nothing listens yet.
  explicit WebServer(WebOptions options);
  ~WebServer();

  // Binds 127.0.0.1:port (throws Error when it cannot); returns the port bound.
  int bind();
  // Serves until stop() (call after bind()).
  void serve();
  // Makes serve() return promptly: open live-update streams end, then the server closes.
  void stop();
  // The page's address with the token.
  std::string url() const;
  // The launch's token.
  const std::string& token() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Whether a player spec (or "auto") may be played in the browser; otherwise why not, in reason.
bool web_player_allowed(const std::string& spec, const std::vector<std::string>& model_roots,
                        bool allow_engines, std::string& reason);

}  // namespace vzero
