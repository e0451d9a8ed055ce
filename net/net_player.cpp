// The "net:" player kind: a search whose evaluator is a shared inference server.
#include <algorithm>
#include <deque>
#include <map>
#include <mutex>

#include "match/players.h"
#include "net/server.h"
#include "util/error.h"

namespace vzero {

namespace {

// The servers of the net: players. A server lives while a player uses it or
// while it is one of the kKeep most recently asked for (so that the games of
// a match, made one after another, share it); then it is released.
class ServerRegistry {
 public:
  static constexpr size_t kKeep = 2;

  // The server of game and model, shared with every live player of the same pair.
  std::shared_ptr<InferenceServer> get(const Game& game, const ServerConfig& config,
                                       const std::string& model) {
    std::lock_guard<std::mutex> lock(m_);
    const std::string key =
        game.id() + "|" + model + "|" + config.form + (config.random_symmetry ? "|symmetry" : "");
    std::shared_ptr<InferenceServer> server = servers_[key].lock();
    if (!server) {
      server = std::make_shared<InferenceServer>(game, config, model);
      servers_[key] = server;
    }
    recent_.erase(std::remove(recent_.begin(), recent_.end(), server), recent_.end());
    recent_.push_front(server);
    if (recent_.size() > kKeep) recent_.pop_back();
    for (auto it = servers_.begin(); it != servers_.end();)
      it = it->second.expired() ? servers_.erase(it) : ++it;
    return server;
  }

 private:
  std::mutex m_;
  std::map<std::string, std::weak_ptr<InferenceServer>> servers_;
  std::deque<std::shared_ptr<InferenceServer>> recent_;
};

}  // namespace

void register_net_players(const ServerConfig& config) {
  static ServerRegistry registry;
  register_player_kind("net", [config](SpecOptions& options, const PlayerContext& ctx) {
    const std::string model = options.take("model", "");
    ServerConfig server = config;
    const std::string symmetry =
        options.take("symmetry", config.random_symmetry ? "true" : "false");
    if (symmetry != "true" && symmetry != "false")
      throw Error("net player: symmetry must be true or false");
    server.random_symmetry = symmetry == "true";
    server.form = options.take("form", config.form);  // checked when the server loads the model
    SearchConfig search = ctx.search;
    apply_search_options(options, search);
    return std::make_unique<SearchPlayer>(registry.get(*ctx.game, server, model), search, ctx.seed);
  });
}

}  // namespace vzero
