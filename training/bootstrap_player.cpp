// The bootstrap generation played by a player spec.
#include "training/bootstrap_player.h"

#include <chrono>

#include "game/zobrist.h"
#include "match/players.h"
#include "selfplay/shard.h"
#include "util/error.h"

namespace vzero {

SelfplayStats play_bootstrap_games(const SelfplayJob& job, const std::string& spec,
                                   int random_plies, const SearchConfig& search) {
  check(job.game != nullptr, "bootstrap player: no game");
  const Game& game = *job.game;
  const int version = encoding_version_of(game, job.meta.encoding_hash);
  const EncodingSpec& enc = game.encoding(version);
  std::vector<int64_t> indices;
  if (job.indices)
    indices = *job.indices;
  else
    for (int i = 0; i < job.selfplay.games; ++i) indices.push_back(i);
  PlayerContext ctx;
  ctx.game = &game;
  ctx.seed = job.seed;
  ctx.search = search;
  std::unique_ptr<Player> player = make_player(spec, ctx);
  AsyncShardWriter writer(job.out_dir, job.file_prefix, job.meta, job.selfplay.games_per_shard);
  SelfplayStats stats;
  const auto start = std::chrono::steady_clock::now();
  for (int64_t index : indices) {
    if (job.stop && job.stop->load()) break;
    GameRecord record;
    record.game_id = job.first_game_id + index;
    uint64_t rng = job.seed ^ (0x9E3779B97F4A7C15ull * uint64_t(record.game_id + 1));
    record.seed = splitmix64(rng);
    std::unique_ptr<GameState> state = game.new_state();
    for (int ply = 0; ply < random_plies && !state->is_terminal(); ++ply) {
      const std::vector<int>& legal = state->legal_actions();
      state->apply(legal[size_t(splitmix64(rng) % legal.size())]);
    }
    if (state->is_terminal()) state = game.new_state();  // an opening that ended the game: none
    if (state->plies() > 0) state = game.new_state(state->fen());
    if (job.selfplay.max_plies > 0) state->set_max_plies(job.selfplay.max_plies);
    record.start_fen = state->fen();
    player->new_game(*state);
    std::vector<Sample> samples;
    const auto dead = [&] { return job.selfplay.end_dead_positions && state->dead_draw(); };
    while (!state->is_terminal() && !dead()) {
      const int action = player->choose(*state);
      const std::vector<int>& legal = state->legal_actions();
      check(std::binary_search(legal.begin(), legal.end(), action),
            "bootstrap player '" + spec + "' chose an illegal action");
      Sample s;
      s.planes.resize(size_t(enc.planes) * enc.plane_size());
      s.scalars.resize(enc.scalars);
      state->encode(s.planes.data(), s.scalars.data(), 0, version);
      s.policy_index = {action};
      s.policy_weight = {1.0f};
      s.player = state->current_player();
      s.ply = state->plies();
      s.game_id = record.game_id;
      s.generation = job.meta.generation;
      s.full_search = true;
      samples.push_back(std::move(s));
      state->apply(action);
      player->observe(action);
      record.actions.push_back(action);
    }
    const GameEnd end = game_end(*state);
    record.result.assign(end.returns.begin(), end.returns.end());
    record.end_reason = end.reason;
    for (Sample& s : samples) s.result = s.root_value = record.result;
    stats.add_game(record);
    stats.positions += int64_t(samples.size());
    stats.full_positions += int64_t(samples.size());
    writer.add_game(std::move(record), std::move(samples));
  }
  writer.close();
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace vzero
