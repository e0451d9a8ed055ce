// The "net:" player kind: a search whose evaluator is a shared inference server.
#include <map>
#include <mutex>

#include "mcts/players.h"
#include "net/server.h"

namespace vzero {

void register_net_players(const ServerConfig& config) {
  register_player_kind("net", [config](SpecOptions& options, const PlayerContext& ctx) {
    static std::mutex m;
    static std::map<std::string, std::shared_ptr<InferenceServer>> servers;  // by variant and model
    const std::string model = options.take("model", "");
    SearchConfig search = ctx.search;
    apply_search_options(options, search);
    std::shared_ptr<InferenceServer> server;
    {
      std::lock_guard<std::mutex> lock(m);
      std::shared_ptr<InferenceServer>& slot = servers[ctx.game->id() + "|" + model];
      if (!slot) slot = std::make_shared<InferenceServer>(*ctx.game, config, model);
      server = slot;
    }
    return std::make_unique<SearchPlayer>(server, search, ctx.seed);
  });
}

}  // namespace vzero
