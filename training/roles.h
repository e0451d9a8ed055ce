#pragma once
// The loop's three roles as separate processes over one shared run folder,
// on any number of hosts: self-play workers, a trainer (one process, or the
// ranks of a distributed training) and a gate. They meet only through files
// (training/README.md, "Roles over a shared run folder"; RunFolder in
// training/run_dir.h spells each path):
//   config.toml            the resolved config; every role checks it is its own
//   game-ids/<n>           block n of game ids, reserved by one worker (exclusive create)
//   shards/w-<host>-<random>-<pid>-<counter>.h5   the workers' shards (renamed when complete)
//   models/gen-NNN.pt      candidates from the trainer (gen-000: the fresh model)
//   models/current.txt     "generation N": the promoted model the workers play with
//   models/trainer.txt     "generation G positions P": the trainer's last candidate
//   gating.csv             the gate's decisions, one row per candidate
//   stop                   present: every role stops (the gate writes it after the last generation)
// No LibTorch.
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "training/run_config.h"
#include "training/run_dir.h"

namespace vzero {

class MatchGroup;
class ProcessGroup;

// How a role runs and when it stops.
struct RoleOptions {
  const std::atomic<bool>* signal = nullptr;  // set (by SIGTERM or SIGINT): stop soon
  bool follow =
      true;  // keep going; false: one round (a worker's max_games, the gate's next candidate)
  int64_t max_games = 0;              // a worker stops after about this many games (0: no limit)
  double poll_seconds = 1.0;          // how often a waiting role looks at the folder
  ProcessGroup* group = nullptr;      // the trainer's ranks (null: one process)
  MatchGroup* match_group = nullptr;  // the gate's ranks (MPI; null: one process)
};

// Makes the run's folder a shared run folder of its config: creates its folders, writes
// config.toml (under a name of this process, then renamed) or checks that it
// holds config's run (throws Error otherwise; the settings of where and how
// fast a role runs may differ: device, [selfplay] parallel_games, [inference]
// batching, workers, threads and cache, [train] threads), and removes
// workers' temporary shards left for more than ten minutes (by killed workers).
void prepare_shared_run_dir(const RunContext& run);

// Whether the role should stop: its signal is set, or the folder's stop file exists.
bool stop_requested(const RunFolder& folder, const RoleOptions& options);

// Reserves the lowest free block of game ids (block n: ids kWorkerGameIds + n * size
// up to size of them) by creating game-ids/<n> in the folder exclusively, with owner
// written in it; returns n. Two processes never get the same block, on any
// file system whose exclusive create is atomic (local, NFSv3+, Lustre, GPFS).
int64_t reserve_game_block(const RunFolder& folder, const std::string& owner);
// The first game id of workers' blocks (above the loop's generation * 1e8 + index ids).
constexpr int64_t kWorkerGameIds = 1000000000000;

// A name unique to this process among every host: "<host>-<8 hex digits>" (the digits from the
// system's entropy, which names files only and never touches a game).
std::string process_name();

// Self-play worker: plays with the promoted model (the network-free
// bootstrap evaluator while generation 0 is current), a block of
// selfplay.games_per_shard games at a time into one shard, takes up a newly
// promoted model at once (games in play finish), until stopped. A kill loses
// at most the games of the shard in progress. Progress and each shard go to log.
void run_worker(const RunContext& run, const RoleOptions& options);

// Trainer: writes gen-000 when absent, then trains candidate g once the
// shards hold the games of g generations (loop.bootstrap_games or
// selfplay.games for the first, selfplay.games for each further one), at
// train.sample_reuse (or train.steps), and writes it as gen-g; stops after
// loop.generations candidates (0: never) or when stopped. Resumes exactly
// when restarted. With ranks, rank 0 decides and writes, and every rank trains.
void run_trainer(const RunContext& run, const RoleOptions& options);

// Gate: judges each candidate in turn (the oldest not yet gated) against the
// promoted model with gate_candidate (training/gate.h: loop.gate, the run's
// openings, its games in records/, resumed from there after a kill), records
// the match in gating.csv, promotes the candidate when the gate says so and
// refits ratings.csv; after loop.generations, writes the stop file. With
// ranks (options.match_group), rank 0 reads and writes the folder and
// decides, and every rank plays its share of each match.
void run_gate(const RunContext& run, const RoleOptions& options);

}  // namespace vzero
