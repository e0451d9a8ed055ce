// The HTTP server of `vzero web` (cpp-httplib): security checks before any
// route, the run folders' JSON, the embedded assets and the JSON sessions.
#include "web/server.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "frontend/analysis.h"
#include "frontend/json_session.h"
#include "util/error.h"
#include "web/run_view.h"

namespace vzero {

const std::vector<std::pair<std::string, std::string>>& web_assets();  // web_assets.cpp (generated)

namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

// n random bytes as hex, from the system's random device.
std::string random_hex(int bytes) {
  std::random_device device;
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < bytes; ++i) {
    const unsigned b = device() & 0xff;
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// Equal texts, compared in time independent of where they differ.
bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= unsigned(a[i] ^ b[i]);
  return diff == 0;
}

// The canonical absolute form of a path (as far as it exists).
fs::path canonical_path(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}

// Whether path lies inside root (both canonical).
bool inside(const fs::path& path, const fs::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

// The content type of an asset by its name's ending.
std::string content_type(const std::string& name) {
  const auto ends = [&](const std::string& tail) {
    return name.size() >= tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  return "text/plain; charset=utf-8";
}

// A reply of JSON with status.
void send_json(httplib::Response& res, const nlohmann::json& body, int status = 200) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

// An error reply {"error": why}.
void send_error(httplib::Response& res, int status, const std::string& why) {
  send_json(res, {{"error", why}}, status);
}

// A whole non-negative number parameter of a request (throws Error when absent or malformed).
int int_param(const httplib::Request& req, const std::string& name, int max) {
  check(req.has_param(name.c_str()), "missing parameter '" + name + "'");
  const std::string text = req.get_param_value(name.c_str());
  check(!text.empty() && text.size() <= 9 &&
            text.find_first_not_of("0123456789") == std::string::npos,
        "parameter '" + name + "' is not a number: '" + text + "'");
  const int value = std::stoi(text);
  check(value <= max, "parameter '" + name + "' out of range");
  return value;
}

}  // namespace

bool web_player_allowed(const std::string& spec, const std::vector<std::string>& model_roots,
                        bool allow_engines, std::string& reason) {
  if (spec == "auto" || spec == "random") return true;
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  if (kind == "uci") {
    if (allow_engines) return true;
    reason = "uci: players need vzero web --allow-engines";
    return false;
  }
  if (colon == std::string::npos || (kind != "mcts" && kind != "net")) {
    reason = "player '" + spec + "' is not allowed here (random, mcts:..., net:model=...)";
    return false;
  }
  std::istringstream options(spec.substr(colon + 1));
  for (std::string option; std::getline(options, option, ',');) {
    const size_t eq = option.find('=');
    if (eq == std::string::npos || option.substr(0, eq) != "model") continue;
    if (kind != "net") {
      reason = "a model is only for net: players";
      return false;
    }
    const fs::path model = canonical_path(option.substr(eq + 1));
    bool ok = false;
    for (const std::string& root : model_roots) ok = ok || inside(model, canonical_path(root));
    if (!ok) {
      reason = "model '" + option.substr(eq + 1) + "' is outside the run folders and model folders";
      return false;
    }
  }
  return true;
}

struct WebServer::Impl {
  WebOptions options;
  std::vector<std::string> model_roots;  // run folders and model folders
  httplib::Server server;
  int port = -1;

  // One game in the browser: its session, used by one request at a time.
  struct Game {
    std::mutex mutex;
    JsonSession session;
    Clock::time_point used = Clock::now();
  };
  std::mutex games_mutex;
  std::map<std::string, std::shared_ptr<Game>> games;

  // Live updates: the streams open now, and the stop signal that ends them.
  std::atomic<int> streams{0};
  std::mutex stop_mutex;
  std::condition_variable stop_wake;
  bool stopping = false;

  // One live-update stream: what it has sent of each run folder.
  struct Stream {
    std::vector<std::string> stamps;  // per run: the stamp last sent ("" none yet)
    bool started = false;
    Clock::time_point written = Clock::now();
  };

  // Sends the runs whose folders changed since the stream last looked (all of them first), or a
  // comment now and then to learn whether the page is still there; waits up to stream_check_ms
  // first (but not after stop()). False ends the stream.
  bool stream_step(Stream& s, httplib::DataSink& sink) {
    if (s.started) {
      std::unique_lock<std::mutex> lock(stop_mutex);
      stop_wake.wait_for(lock, std::chrono::milliseconds(options.stream_check_ms),
                         [this] { return stopping; });
      if (stopping) {
        sink.done();
        return true;
      }
    }
    if (!sink.is_writable()) return false;
    std::string out;
    if (!s.started) {
      out = "retry: 2000\n\n";
      s.stamps.assign(options.run_dirs.size(), "");
      s.started = true;
    }
    for (size_t i = 0; i < options.run_dirs.size(); ++i) {
      const std::string stamp = run_stamp(options.run_dirs[i]);
      if (stamp == s.stamps[i]) continue;
      // One data line: JSON's dump has no newline in it.
      out +=
          "event: run\ndata: " +
          nlohmann::json{{"run", i}, {"stamp", stamp}, {"data", run_summary(options.run_dirs[i])}}
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
          "\n\n";
      s.stamps[i] = stamp;
    }
    if (out.empty() && Clock::now() - s.written > std::chrono::seconds(5)) out = ": alive\n\n";
    if (out.empty()) return true;
    s.written = Clock::now();
    return sink.write(out.data(), out.size());
  }

  // Streams the run folders' changes as Server-Sent Events (event "run": {run, stamp, data: the
  // run's summary}); 429 when max_streams are open (the page then polls).
  void open_stream(httplib::Response& res) {
    if (streams.fetch_add(1) >= options.max_streams) {
      --streams;
      return send_error(res, 429,
                        "too many live streams at once (" + std::to_string(options.max_streams) +
                            "); the page polls instead");
    }
    auto stream = std::make_shared<Stream>();
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, stream](size_t, httplib::DataSink& sink) { return stream_step(*stream, sink); },
        [this](bool) { --streams; });
  }

  // Refuses a request without the token, or of a foreign Host or Origin; true when it may go on.
  bool admitted(const httplib::Request& req, httplib::Response& res) const {
    const std::string host = req.get_header_value("Host");
    const std::string own = std::to_string(port);
    if (host != "127.0.0.1:" + own && host != "localhost:" + own) {
      send_error(res, 403, "forbidden: Host '" + host + "' is not this server");
      return false;
    }
    if (req.has_header("Origin")) {
      const std::string origin = req.get_header_value("Origin");
      if (origin != "http://127.0.0.1:" + own && origin != "http://localhost:" + own) {
        send_error(res, 403, "forbidden: foreign Origin '" + origin + "'");
        return false;
      }
    }
    const std::string token = req.has_header("X-Vzero-Token")
                                  ? req.get_header_value("X-Vzero-Token")
                                  : req.get_param_value("t");
    if (!same_secret(token, options.token)) {
      send_error(res, 403, "forbidden: missing or wrong token (use the URL vzero web printed)");
      return false;
    }
    return true;
  }

  // The run folder of the request's `run` parameter (throws Error when out of range).
  const std::string& run_dir(const httplib::Request& req) const {
    const int run = int_param(req, "run", 1 << 20);
    check(run < int(options.run_dirs.size()), "no run " + std::to_string(run));
    return options.run_dirs[run];
  }

  // A new game session's id, or "" when there are as many as allowed (idle ones over 30 minutes are
  // dropped first).
  std::string new_game() {
    std::lock_guard<std::mutex> lock(games_mutex);
    for (auto it = games.begin(); it != games.end();)
      it = Clock::now() - it->second->used > std::chrono::minutes(30) && it->second.use_count() == 1
               ? games.erase(it)
               : std::next(it);
    if (int(games.size()) >= options.max_sessions) return "";
    std::string id = random_hex(12);
    games[id] = std::make_shared<Game>();
    return id;
  }

  // The session of id; null when there is none.
  std::shared_ptr<Game> find_game(const std::string& id) {
    std::lock_guard<std::mutex> lock(games_mutex);
    auto it = games.find(id);
    return it == games.end() ? nullptr : it->second;
  }

  // Passes one request line to a session, after checking its player; the reply's status is 400 on
  // an error.
  void session_request(const httplib::Request& req, httplib::Response& res) {
    std::shared_ptr<Game> game = find_game(req.get_param_value("s"));
    if (!game)
      return send_error(res, 404, "no such game session (it ended, or the server restarted)");
    const std::string& line = req.body;
    if (line.find('\n') != std::string::npos)
      return send_error(res, 400, "one request line per call (docs/protocol.md)");
    const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
    if (request.is_object() && request.value("cmd", nlohmann::json()) == "start") {
      std::string reason;
      const auto player = request.find("player");
      if (player != request.end() && player->is_string() &&
          !web_player_allowed(player->get<std::string>(), model_roots, options.allow_engines,
                              reason))
        return send_error(res, 400, reason);
      const auto model = request.find("model");
      if (model != request.end() && model->is_string() &&
          !web_player_allowed("net:model=" + model->get<std::string>(), model_roots,
                              options.allow_engines, reason))
        return send_error(res, 400, reason);
    }
    std::string reply;
    bool finished = false;
    {
      std::lock_guard<std::mutex> lock(game->mutex);
      reply = game->session.handle_line(line);
      finished = game->session.finished();
      game->used = Clock::now();
    }
    if (finished) {
      std::lock_guard<std::mutex> lock(games_mutex);
      games.erase(req.get_param_value("s"));
    }
    const nlohmann::json parsed = nlohmann::json::parse(reply, nullptr, false);
    res.status = parsed.is_object() && parsed.contains("error") ? 400 : 200;
    res.set_content(reply, "application/json");
  }

  // Registers every route.
  void routes() {
    // SO_REUSEADDR only: httplib's default SO_REUSEPORT would let a second server share a taken
    // port.
    server.set_socket_options([](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<void*>(&yes), sizeof(yes));
    });
    server.set_payload_max_length(options.max_body);
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      res.set_header("Cache-Control", "no-store");
      res.set_header("Referrer-Policy", "no-referrer");
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_header("X-Frame-Options", "DENY");
      return admitted(req, res) ? httplib::Server::HandlerResponse::Unhandled
                                : httplib::Server::HandlerResponse::Handled;
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
          try {
            std::rethrow_exception(ep);
          } catch (const Error& e) {
            send_error(res, 400, e.what());
          } catch (const std::exception& e) {
            send_error(res, 500, std::string("internal error: ") + e.what());
          } catch (...) {
            send_error(res, 500, "internal error");
          }
        });
    for (const auto& [name, text] : web_assets()) {
      const std::string path = name == "index.html" ? "/" : "/" + name;
      const std::string& body = text;
      const std::string type = content_type(name);
      server.Get(path, [this, body, type](const httplib::Request&, httplib::Response& res) {
        std::string page = body;
        for (size_t at; (at = page.find("{{TOKEN}}")) != std::string::npos;)
          page.replace(at, 9, options.token);
        res.set_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'");
        res.set_content(page, type.c_str());
      });
    }
    server.Get("/api/runs", [this](const httplib::Request&, httplib::Response& res) {
      nlohmann::json runs = nlohmann::json::array();
      for (size_t i = 0; i < options.run_dirs.size(); ++i)
        runs.push_back({{"run", i}, {"dir", options.run_dirs[i]}});
      std::lock_guard<std::mutex> lock(games_mutex);
      send_json(res, {{"runs", runs},
                      {"allow_engines", options.allow_engines},
                      {"sessions", games.size()},
                      {"streams", streams.load()}});
    });
    server.Get("/api/stamps", [this](const httplib::Request&, httplib::Response& res) {
      nlohmann::json stamps = nlohmann::json::array();
      for (const std::string& dir : options.run_dirs) stamps.push_back(run_stamp(dir));
      send_json(res, stamps);
    });
    server.Get("/api/events",
               [this](const httplib::Request&, httplib::Response& res) { open_stream(res); });
    server.Get("/api/run", [this](const httplib::Request& req, httplib::Response& res) {
      send_json(res, run_summary(run_dir(req)));
    });
    server.Get("/api/games", [this](const httplib::Request& req, httplib::Response& res) {
      send_json(res, run_games(run_dir(req), int_param(req, "gen", 999999)));
    });
    server.Get("/api/game", [this](const httplib::Request& req, httplib::Response& res) {
      send_json(
          res, run_game(run_dir(req), int_param(req, "gen", 999999), int_param(req, "i", 1 << 30)));
    });
    server.Get("/api/game.pgn", [this](const httplib::Request& req, httplib::Response& res) {
      const int gen = int_param(req, "gen", 999999), i = int_param(req, "i", 1 << 30);
      res.set_header("Content-Disposition", "attachment; filename=\"gen-" + std::to_string(gen) +
                                                "-game-" + std::to_string(i) + ".pgn\"");
      res.set_content(run_game_pgn(run_dir(req), gen, i), "application/x-chess-pgn");
    });
    server.Post("/api/pgn", [](const httplib::Request& req, httplib::Response& res) {
      const nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
      check(body.is_object() && body.value("variant", nlohmann::json()).is_string() &&
                body.value("moves", nlohmann::json()).is_array(),
            "expected {\"variant\": ID, \"fen\": FEN, \"moves\": [...]}");
      std::vector<std::string> moves;
      for (const auto& m : body["moves"]) {
        check(m.is_string(), "moves must be texts");
        moves.push_back(m.get<std::string>());
      }
      const std::string fen =
          body.value("fen", nlohmann::json("")).is_string() ? body.value("fen", "") : "";
      res.set_content(play_pgn(body["variant"].get<std::string>(), fen, moves),
                      "application/x-chess-pgn");
    });
    server.Get("/api/variants", [](const httplib::Request&, httplib::Response& res) {
      JsonSession session;
      res.set_content(session.handle_line(R"({"cmd":"variants"})"), "application/json");
    });
    server.Post("/api/session/new", [this](const httplib::Request&, httplib::Response& res) {
      const std::string id = new_game();
      if (id.empty())
        return send_error(res, 429,
                          "too many games at once (" + std::to_string(options.max_sessions) +
                              "); close one first");
      send_json(res, {{"session", id}});
    });
    server.Post("/api/session", [this](const httplib::Request& req, httplib::Response& res) {
      session_request(req, res);
    });
    server.Post("/api/session/close", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(games_mutex);
      send_json(res, {{"closed", games.erase(req.get_param_value("s")) > 0}});
    });
  }
};

WebServer::WebServer(WebOptions options) : impl_(std::make_unique<Impl>()) {
  for (const std::string& dir : options.run_dirs)
    check(fs::is_directory(dir), "web: run folder '" + dir + "' is not a folder");
  if (options.token.empty()) options.token = random_hex(16);
  if (options.model_dirs.empty()) options.model_dirs = default_model_dirs();
  impl_->model_roots = options.run_dirs;
  impl_->model_roots.insert(impl_->model_roots.end(), options.model_dirs.begin(),
                            options.model_dirs.end());
  impl_->options = std::move(options);
  impl_->routes();
}

WebServer::~WebServer() = default;

int WebServer::bind() {
  const int requested = impl_->options.port;
  check(requested >= 0 && requested <= 65535, "web: port out of range");
  if (requested == 0) {
    impl_->port = impl_->server.bind_to_any_port("127.0.0.1");
  } else {
    impl_->port = impl_->server.bind_to_port("127.0.0.1", requested) ? requested : -1;
  }
  check(impl_->port > 0,
        "web: cannot listen on 127.0.0.1:" + std::to_string(requested) + " (in use?)");
  return impl_->port;
}

void WebServer::serve() { impl_->server.listen_after_bind(); }

void WebServer::stop() {
  impl_->server.stop();  // first, so that no stream's connection waits for a next request
  {
    std::lock_guard<std::mutex> lock(impl_->stop_mutex);
    impl_->stopping = true;
  }
  impl_->stop_wake.notify_all();
}

std::string WebServer::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + "/?t=" + impl_->options.token;
}

const std::string& WebServer::token() const { return impl_->options.token; }

}  // namespace vzero
