// The trainer and the gate of a shared run folder.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <thread>

#include "game/builtin/games.h"
#include "util/error.h"
#include "util/files.h"
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
        const ShardCounts c = read_shard_counts(path);
        seen_[path] = c;
        games += c.games;
        samples += c.samples;
      }
  }
  int64_t games = 0, samples = 0;

 private:
  std::map<std::string, ShardCounts> seen_;
};

// The trainer's record (models/trainer.txt): its last candidate and the samples there were then.
struct TrainerRecord {
  int generation = 0;
  int64_t positions = 0;
};

TrainerRecord read_trainer_record(const std::string& path) {
  TrainerRecord r;
  if (!fs::exists(path)) return r;
  std::istringstream in(read_text_file(path));
  std::string g, p;
  if (!(in >> g >> r.generation >> p >> r.positions) || g != "generation" || p != "positions" || r.generation < 0)
    throw Error("'" + path + "' is malformed (expected 'generation G positions P')");
  return r;
}

// The games the shards must hold before candidate g is trained: the first generation's, then selfplay.games more each.
int64_t games_before(const RunConfig& config, int g) {
  const int64_t first = config.loop.bootstrap_games > 0 ? config.loop.bootstrap_games : config.selfplay.games;
  return first + int64_t(g - 1) * config.selfplay.games;
}

// The generations of the checkpoints gen-NNN.pt in dir/models, ascending.
std::vector<int> candidates(const std::string& dir) {
  std::vector<int> out;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "models")) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= 10 && name.rfind("gen-", 0) == 0 && name.substr(name.size() - 3) == ".pt" &&
        name.find_first_not_of("0123456789", 4) == name.size() - 3)
      out.push_back(std::stoi(name.substr(4, name.size() - 7)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The header of gating.csv.
constexpr const char* kGatingColumns = "generation,games,wins,draws,losses,score,elo,margin,promoted,current_model,seconds";

// The gate's record: the generations gated, in order, and the promoted model after each.
struct GatingRecord {
  std::vector<int> gated;
  int current = 0;
};

GatingRecord read_gating(const std::string& path) {
  GatingRecord r;
  if (!fs::exists(path)) return r;
  std::istringstream in(read_text_file(path));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = "'" + path + "' line " + std::to_string(n) + ": ";
    if (n == 1) {
      check(line == kGatingColumns, where + "not the gating header of this version of vzero");
      continue;
    }
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
    check(cells.size() == 11 && !cells[0].empty() && !cells[9].empty() &&
              cells[0].find_first_not_of("0123456789") == std::string::npos &&
              cells[9].find_first_not_of("0123456789") == std::string::npos,
          where + "malformed row");
    r.gated.push_back(std::stoi(cells[0]));
    r.current = std::stoi(cells[9]);
  }
  return r;
}

void write_current(const std::string& dir, int generation) {
  write_text_file((fs::path(dir) / "models" / "current.txt").string(),
                  "generation " + std::to_string(generation) + "\n");
}

}  // namespace

void run_trainer(const RunConfig& config, const std::string& dir, std::ostream& log, const RoleOptions& options) {
  const Game& game = game_by_id(config.variant);
  ProcessGroup* group = options.group;
  const bool lead = !group || group->rank() == 0;
  const std::string record_path = (fs::path(dir) / "models" / "trainer.txt").string();
  const std::string shards = (fs::path(dir) / "shards").string();
  std::unique_ptr<FolderLock> lock;
  if (lead) {
    prepare_shared_run_dir(config, dir);
    lock = std::make_unique<FolderLock>((fs::path(dir) / "roles" / "trainer").string(), "the trainer of");
    if (!fs::exists(model_path(dir, 0))) Trainer(game, config, "").save(model_path(dir, 0), 0);
    log << "trainer in " << dir << std::endl;
  }
  ShardTally tally;
  for (;;) {
    // Rank 0 decides: "stop", "wait", or "train G NEW TOTAL" (new and total samples).
    std::string decision = "wait";
    if (lead) {
      const TrainerRecord last = read_trainer_record(record_path);
      const int g = last.generation + 1;
      if (stop_requested(dir, options) || (config.loop.generations > 0 && g > config.loop.generations)) {
        decision = "stop";
      } else {
        tally.update(shards);
        if (tally.games >= games_before(config, g))
          decision = "train " + std::to_string(g) + " " + std::to_string(tally.samples - last.positions) + " " +
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
    run_training(config, dir, log, request);
    if (!lead) continue;
    const int g = request.generation;
    Trainer(game, config, (fs::path(dir) / "models" / "train.pt").string()).save(model_path(dir, g), g);
    write_text_file(record_path, "generation " + std::to_string(g) + " positions " + std::to_string(total) + "\n");
    log << "trainer candidate gen-" << g << " after " << tally.games << " games, " << request.new_positions
        << " new samples, "
        << int(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()) << " s" << std::endl;
  }
  if (lead) log << "trainer stops" << std::endl;
}

namespace {

// Plays (or resumes from the records) the matches that measure generation g
// after its gate: generation 0, the baseline, the anchors; then refits
// ratings.csv and draws curve.png. Every rank of the group calls it; rank 0
// logs and writes.
void measure_generation(const Game& game, const RunConfig& config, const std::string& dir, int g,
                        MatchGroup* group, std::ostream& log) {
  std::string line;
  for (const LoopMatch& m : measuring_matches(config, dir)) {
    if (m.games <= 0) continue;
    const ArenaResult r = play_loop_match(game, config, dir, g, m, group);
    line += (line.empty() ? "gate gen-" + std::to_string(g) + " vs " : std::string(" | vs ")) +
            m.opponent_name + " " + r.summary();
  }
  if (group && group->rank() != 0) return;
  if (!line.empty()) log << line << std::endl;
  draw_curve(dir, g, refit_ratings(config, dir, log), log);
}

}  // namespace

void run_gate(const RunConfig& config, const std::string& dir, std::ostream& log, const RoleOptions& options) {
  const Game& game = game_by_id(config.variant);
  MatchGroup* group = options.match_group;
  const bool lead = !group || group->rank() == 0;
  prepare_loop_matches(game, config, dir);
  const std::string path = (fs::path(dir) / "gating.csv").string();
  std::unique_ptr<FolderLock> lock;
  GatingRecord record;
  if (lead) {
    prepare_shared_run_dir(config, dir);
    lock = std::make_unique<FolderLock>((fs::path(dir) / "roles" / "gate").string(), "the gate of");
    record = read_gating(path);
    // The record decides: a gate killed after its row but before current.txt catches up here.
    if (current_generation(dir) != record.current) write_current(dir, record.current);
    log << "gate in " << dir << ": " << record.gated.size() << " candidates gated, current model gen-"
        << record.current << (group ? ", " + std::to_string(group->size()) + " ranks" : std::string()) << std::endl;
  }
  // Rank 0 keeps the run's openings (<dir>/openings.txt) before any rank reads them.
  if (lead) loop_openings(game, config, dir);
  // A gate killed during the last candidate's measuring matches finishes them first.
  std::string last_gated = lead && !record.gated.empty() ? std::to_string(record.gated.back()) : "0";
  if (group) last_gated = broadcast_text(*group, last_gated);
  register_net_players(config.inference);
  if (last_gated != "0") measure_generation(game, config, dir, std::stoi(last_gated), group, log);
  for (bool first = true;; first = false) {
    // Rank 0 decides: "stop", "wait", or "gate G CURRENT".
    std::string decision = "stop";
    if (lead && !stop_requested(dir, options) && (first || options.follow)) {
      const int last = record.gated.empty() ? 0 : record.gated.back();
      const std::vector<int> all = candidates(dir);
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
    const GateOutcome outcome = gate_candidate(game, config, dir, g, current, group);  // resumes from the records
    if (!lead) {
      measure_generation(game, config, dir, g, group, log);
      continue;
    }
    const ArenaResult& r = outcome.result;
    const bool promote = outcome.promote;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream row;
    row << g << "," << r.games << "," << r.wins << "," << r.draws << "," << r.losses << "," << r.score << "," << r.elo
        << "," << r.margin << "," << (promote ? 1 : 0) << "," << (promote ? g : current) << "," << seconds;
    write_text_file(path, (fs::exists(path) ? read_text_file(path) : std::string(kGatingColumns) + "\n") + row.str() + "\n");
    log << "gate gen-" << g << " vs gen-" << current << " "
        << (r.games > 0 ? r.summary() : std::string("not played"));
    if (r.sprt && r.games > 0) log << " " << sprt_line(*r.sprt, r.llr, r.sprt_result);
    log << " | " << (promote ? "promoted" : "kept gen-" + std::to_string(current)) << std::endl;
    record.gated.push_back(g);
    if (promote) {
      record.current = g;
      write_current(dir, g);
    }
    if (config.loop.generations > 0 && g >= config.loop.generations) {
      write_text_file((fs::path(dir) / "stop").string(),
                      "finished: generation " + std::to_string(g) + " gated (remove this file to go on)\n");
      log << "gate: generation " << g << " was the last; wrote " << dir << "/stop" << std::endl;
    }
    // After the verdict, so that the workers take up a promoted model at once.
    measure_generation(game, config, dir, g, group, log);
  }
  if (lead) log << "gate stops" << std::endl;
}

}  // namespace vzero
