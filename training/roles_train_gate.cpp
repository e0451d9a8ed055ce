// The trainer and the gate of a shared run folder.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <thread>

#include "match/match_group.h"
#include "net/server.h"
#include "selfplay/shard.h"
#include "training/arenas.h"
#include "training/distributed.h"
#include "training/gate.h"
#include "training/loop.h"
#include "training/roles.h"
#include "training/run_dir.h"
#include "training/train_run.h"
#include "training/trainer.h"
#include "training/window.h"
#include "util/error.h"
#include "util/files.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

void pause(const RoleOptions& options) {
  std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_seconds));
}

// Games and samples of the complete shards of a folder, each shard read once (shards never change).
class ShardTally {
 public:
  void update(const std::string& dir) {
    for (const std::string& path : list_shards(dir))
      if (!seen_.count(path)) {
        const ShardCounts c = readable_shard_counts(path);
        seen_[path] = c;
        games += c.games;
        samples += c.samples;
      }
  }
  int64_t games = 0, samples = 0;

 private:
  std::map<std::string, ShardCounts> seen_;
};

// The games the shards must hold before candidate g is trained: the first generation's, then
// selfplay.games more each.
int64_t games_before(const RunConfig& config, int g) {
  const int64_t first =
      config.loop.bootstrap_games > 0 ? config.loop.bootstrap_games : config.selfplay.games;
  return first + int64_t(g - 1) * config.selfplay.games;
}

// Prepares the shared run folder and takes the lock of a role ("trainer", "gate") in it.
std::unique_ptr<FolderLock> take_role(const RunContext& run, const std::string& role) {
  prepare_shared_run_dir(run);
  return std::make_unique<FolderLock>(run.folder.role_dir(role), "the " + role + " of");
}

}  // namespace

void run_trainer(const RunContext& run, const RoleOptions& options) {
  const RunConfig& config = run.config;
  const RunFolder& folder = run.folder;
  std::ostream& log = run.log;
  ProcessGroup* group = options.group;
  const bool lead = !group || group->rank() == 0;
  std::unique_ptr<FolderLock> lock;
  if (lead) {
    lock = take_role(run, "trainer");
    save_fresh_model(run);
    log << "trainer in " << folder.dir() << std::endl;
  }
  ShardTally tally;
  for (;;) {
    // Rank 0 decides: "stop", "wait", or "train G NEW TOTAL" (new and total samples).
    std::string decision = "wait";
    if (lead) {
      const TrainerRecord last = folder.read_trainer_record();
      const int g = last.generation + 1;
      if (stop_requested(folder, options) ||
          (config.loop.generations > 0 && g > config.loop.generations)) {
        decision = "stop";
      } else {
        tally.update(folder.shards_dir());
        if (tally.games >= games_before(config, g))
          decision = "train " + std::to_string(g) + " " +
                     std::to_string(tally.samples - last.positions) + " " +
                     std::to_string(tally.samples);
      }
    }
    if (group) decision = group->broadcast_text(decision);
    if (decision == "stop") break;
    if (decision == "wait") {
      pause(options);
      continue;
    }
    std::istringstream in(decision);
    std::string word;
    TrainRequest request;
    int64_t total = 0;
    in >> word >> request.generation >> request.new_positions >> total;
    request.group = group;
    request.prepared = true;
    const auto start = std::chrono::steady_clock::now();
    run_training(run, request);
    if (!lead) continue;
    const int g = request.generation;
    save_candidate(run, g);
    folder.write_trainer_record(TrainerRecord{g, total});
    log << "trainer candidate gen-" << g << " after " << tally.games << " games, "
        << request.new_positions << " new samples, "
        << int(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
        << " s" << std::endl;
  }
  if (lead) log << "trainer stops" << std::endl;
}

namespace {

// Plays (or resumes from the records) the matches that measure generation g
// after its gate: generation 0, the baseline, the anchors; then refits
// ratings.csv and draws curve.png. Every rank of the group calls it; rank 0
// logs and writes.
void measure_generation(const RunContext& run, int g, MatchGroup* group) {
  std::string line;
  for (const LoopMatch& m : measuring_matches(run)) {
    if (m.games <= 0) continue;
    const ArenaResult r = play_loop_match(run, g, m, group);
    line += (line.empty() ? "gate gen-" + std::to_string(g) + " vs " : std::string(" | vs ")) +
            m.opponent_name + " " + r.summary();
  }
  if (group && group->rank() != 0) return;
  if (!line.empty()) run.log << line << std::endl;
  draw_curve(run, g, refit_ratings(run));
}

}  // namespace

void run_gate(const RunContext& run, const RoleOptions& options) {
  const RunConfig& config = run.config;
  const RunFolder& folder = run.folder;
  std::ostream& log = run.log;
  MatchGroup* group = options.match_group;
  const bool lead = !group || group->rank() == 0;
  prepare_loop_matches(run);
  std::unique_ptr<FolderLock> lock;
  GatingRecord record;
  if (lead) {
    lock = take_role(run, "gate");
    record = folder.read_gating();
    // The record decides: a gate killed after its row but before current.txt catches up here.
    if (folder.read_current() != record.current) folder.write_current(record.current);
    log << "gate in " << folder.dir() << ": " << record.gated.size()
        << " candidates gated, current model gen-" << record.current
        << (group ? ", " + std::to_string(group->size()) + " ranks" : std::string()) << std::endl;
  }
  // Rank 0 keeps the run's openings (openings.txt) before any rank reads them.
  if (lead) loop_openings(run);
  // A gate killed during the last candidate's measuring matches finishes them first.
  std::string last_gated =
      lead && !record.gated.empty() ? std::to_string(record.gated.back()) : "0";
  if (group) last_gated = broadcast_text(*group, last_gated);
  register_net_players(config.inference);
  if (last_gated != "0") measure_generation(run, std::stoi(last_gated), group);
  for (bool first = true;; first = false) {
    // Rank 0 decides: "stop", "wait", or "gate G CURRENT".
    std::string decision = "stop";
    if (lead && !stop_requested(folder, options) && (first || options.follow)) {
      const int last = record.gated.empty() ? 0 : record.gated.back();
      const std::vector<int> all = folder.model_generations();
      const auto next = std::upper_bound(all.begin(), all.end(), last);
      if (next != all.end())
        decision = "gate " + std::to_string(*next) + " " + std::to_string(record.current);
      else if (options.follow)
        decision = "wait";
      else
        log << "gate: no candidate after gen-" << last << std::endl;
    }
    if (group) decision = broadcast_text(*group, decision);
    if (decision == "stop") break;
    if (decision == "wait") {
      pause(options);
      continue;
    }
    std::istringstream in(decision);
    std::string word;
    int g = 0, current = 0;
    in >> word >> g >> current;
    const auto start = std::chrono::steady_clock::now();
    const GateOutcome outcome = gate_candidate(run, g, current, group);  // resumes from the records
    if (!lead) {
      measure_generation(run, g, group);
      continue;
    }
    const ArenaResult& r = outcome.result;
    const bool promote = outcome.promote;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    folder.append_gating(GatingRow{g, r.games, r.wins, r.draws, r.losses, r.score, r.elo, r.margin,
                                   promote, promote ? g : current, seconds});
    log << "gate gen-" << g << " vs gen-" << current << " "
        << (r.games > 0 ? r.summary() : std::string("not played"));
    if (r.sprt && r.games > 0) log << " " << sprt_line(*r.sprt, r.llr, r.sprt_result);
    log << " | " << (promote ? "promoted" : "kept gen-" + std::to_string(current)) << std::endl;
    record.gated.push_back(g);
    if (promote) {
      record.current = g;
      folder.write_current(g);
    }
    if (config.loop.generations > 0 && g >= config.loop.generations) {
      write_text_file(folder.stop_path(), "finished: generation " + std::to_string(g) +
                                              " gated (remove this file to go on)\n");
      log << "gate: generation " << g << " was the last; wrote " << folder.stop_path() << std::endl;
    }
    // After the verdict, so that the workers take up a promoted model at once.
    measure_generation(run, g, group);
  }
  if (lead) log << "gate stops" << std::endl;
}

}  // namespace vzero
