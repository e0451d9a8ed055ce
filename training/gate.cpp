// The gate's rules.
#include "training/gate.h"

#include "training/arenas.h"
#include "training/run_dir.h"

namespace vzero {

std::optional<SprtConfig> gate_sprt(const LoopConfig& loop) {
  if (loop.gate != "sprt") return std::nullopt;
  SprtConfig s;
  s.elo0 = loop.sprt_elo0;
  s.elo1 = loop.sprt_elo1;
  s.alpha = loop.sprt_alpha;
  s.beta = loop.sprt_beta;
  return s;
}

bool gate_promotes(const LoopConfig& loop, const ArenaResult& result) {
  if (loop.gate == "score") return result.games > 0 && result.score >= loop.gate_threshold;
  if (loop.gate == "sprt") return result.sprt && result.sprt_result == SprtResult::kH1;
  return true;
}

GateOutcome gate_candidate(const RunContext& run, int candidate, int current, MatchGroup* group,
                           bool measure) {
  const RunConfig& config = run.config;
  GateOutcome out;
  if (config.loop.arena_games > 0 && (measure || config.loop.gate != "always")) {
    LoopMatch m;
    m.key = "arena_prev";
    m.opponent = net_spec(run.folder.model_path(current), config.loop.arena_visits);
    m.opponent_name = generation_name(current);
    m.games = config.loop.arena_games;
    m.salt = 1;
    m.sprt = gate_sprt(config.loop);
    out.result = play_loop_match(run, candidate, m, group);
  }
  out.promote = gate_promotes(config.loop, out.result);
  return out;
}

}  // namespace vzero
