// A generation's self-play diagnostics from its shards.
#include "training/diagnostics.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "selfplay/shard.h"
#include "training/targets.h"

namespace vzero {

std::string end_reason_class(const GameRecord& game) {
  const std::string& r = game.end_reason;
  if (game.resigned || r == "resign") return "resign";
  // A win by the rules: mate, a captured king, attrition's capture, no move or last seat standing.
  if (r == "checkmate" || r == "king-captured" || r == "capture" || r == "no-move" ||
      r == "last-standing")
    return "mate";
  if (r == "repetition" || r == "perpetual-check") return "repetition";
  if (game.stopped_at_cap()) return "cap";
  return "other";
}

GenerationDiagnostics generation_diagnostics(const std::string& dir, const std::string& prefix,
                                             const RunConfig& config) {
  GenerationDiagnostics d;
  std::set<int64_t> seen;
  std::map<std::string, int64_t> ends;
  int64_t draws = 0;
  double root = 0, target = 0;
  for (const std::string& path : list_shards(dir)) {
    if (!prefix.empty() &&
        std::filesystem::path(path).filename().string().rfind(prefix + "-", 0) != 0)
      continue;
    ShardData shard = read_shard(path);
    std::map<int64_t, const GameRecord*> fresh;
    for (const GameRecord& g : shard.games) {
      if (!seen.insert(g.game_id).second) continue;  // a game written twice counts once
      fresh[g.game_id] = &g;
      ++ends[end_reason_class(g)];
      draws += g.drawn();
    }
    for (Sample& s : shard.samples) {
      const auto game = fresh.find(s.game_id);
      if (game == fresh.end()) continue;
      annotate_from_record(s, *game->second);  // the targets as the trainer's window sees them
      ++d.positions;
      root += std::fabs(s.root_value[size_t(s.player)]);
      target += std::fabs(sample_targets(s, config.train).value[0]);
    }
  }
  d.games = int64_t(seen.size());
  if (d.games > 0) {
    const double n = double(d.games);
    d.end_mate = ends["mate"] / n, d.end_repetition = ends["repetition"] / n,
    d.end_cap = ends["cap"] / n;
    d.end_resign = ends["resign"] / n, d.end_other = ends["other"] / n;
    d.draws = draws / n;
  }
  if (d.positions > 0)
    d.mean_abs_root_value = root / d.positions, d.mean_abs_value_target = target / d.positions;
  return d;
}

}  // namespace vzero
