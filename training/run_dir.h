#pragma once
// The run folder's protocol: RunFolder spells every path of a run folder and
// is the one reader and writer of each of its record files (the train
// target, the promoted model, the trainer's record, the generation in
// progress, metrics.csv, gating.csv); text files are replaced whole and
// durably, and FolderLock keeps a second process out (both from
// util/files.h). RunContext is what every step of a run works with: its
// config, its folder, its game, its log. training/README.md says what is
// written when. No LibTorch.
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "game/game.h"
#include "training/run_config.h"
#include "util/files.h"

namespace vzero {

// The name of generation g's model in file names, records and ratings: "gen-NNN".
std::string generation_name(int g);

// The training that models/train-target.txt fixes: for which generation (0: `vzero train`) and up
// to which step.
struct TrainTarget {
  int generation = -1;  // -1: no target yet
  int64_t step = 0;
};

// The trainer role's record (models/trainer.txt): its last candidate and the samples there were
// then.
struct TrainerRecord {
  int generation = 0;
  int64_t positions = 0;
};

// One row of metrics.csv, a field per column of kMetricsColumns. A match not
// played has empty score and Elo cells (nullopt).
struct MetricsRow {
  int generation = 0;
  int64_t games = 0, positions = 0;
  double selfplay_pos_per_s = 0, selfplay_evals_per_s = 0, mean_batch = 0, cache_hit_rate = 0;
  int64_t train_steps = 0;
  double train_samples_per_s = 0, policy_loss = 0, value_loss = 0, val_policy_top1 = 0,
         val_value_mse = 0;
  std::optional<double> score_vs_prev, elo_vs_prev, score_vs_gen0, elo_vs_gen0, score_vs_baseline,
      elo_vs_baseline;
  bool promoted = false;
  int current_model = 0;
  double seconds = 0;
  // Diagnostics of the generation's self-play (training/diagnostics.h), empty
  // in rows of older versions: shares of games by end reason, draws, the mean
  // |root value| and |value target| of its positions, and self-play's share
  // of the generation's seconds (self-play against matches).
  std::optional<double> end_mate, end_repetition, end_cap, end_resign, end_other, draw_share;
  std::optional<double> mean_abs_root_value, mean_abs_value_target, selfplay_time_share;
  // The CPU seconds the generation's steps took (all threads, engines
  // included): its compute on a machine shared with other work. Empty in
  // rows of older versions.
  std::optional<double> cpu_seconds;
};

// The header of metrics.csv: the names of MetricsRow's fields, in order.
extern const char* const kMetricsColumns;
// The 1-based column of metrics.csv named name (gnuplot's numbering); throws Error for another
// name.
int metrics_column(const std::string& name);

// One row of gating.csv: the gate's match of a candidate and its verdict.
struct GatingRow {
  int generation = 0;
  int games = 0, wins = 0, draws = 0, losses = 0;
  double score = 0, elo = 0, margin = 0;
  bool promoted = false;
  int current_model = 0;
  double seconds = 0;
};

// The gate's record (gating.csv): the generations gated, in order, and the promoted model after the
// last.
struct GatingRecord {
  std::vector<int> gated;
  int current = 0;
};

// A run folder: every path in it, and the readers and writers of its records.
class RunFolder {
 public:
  // The run folder dir (nothing is read or written until asked).
  explicit RunFolder(std::string dir);
  // The folder itself, as given.
  const std::string& dir() const { return dir_; }

  // Paths. The loop's and `vzero train`'s:
  std::string config_path() const;  // config.toml: the resolved config
  std::string shards_dir() const;   // shards/
  std::string models_dir() const;   // models/
  std::string model_path(
      int generation) const;              // models/gen-NNN.pt: the checkpoint of a generation
  std::string train_model_path() const;   // models/train.pt: the continuous trainer
  std::string train_target_path() const;  // models/train-target.txt
  std::string progress_path() const;      // progress.txt
  std::string openings_path() const;      // openings.txt
  std::string records_dir() const;        // records/
  std::string records_path(
      int generation) const;         // records/gen-NNN.jsonl: the games of a generation's matches
  std::string metrics_path() const;  // metrics.csv
  std::string ratings_path() const;  // ratings.csv
  std::string curve_path() const;    // curve.png
  std::string curve_script_path() const;  // curve.gp
  std::string rendezvous_dir() const;     // rendezvous/: the file stores of distributed trainings
  // The roles' (training/roles.h):
  std::string current_path() const;         // models/current.txt
  std::string trainer_record_path() const;  // models/trainer.txt
  std::string gating_path() const;          // gating.csv
  std::string stop_path() const;            // stop
  std::string game_ids_dir() const;         // game-ids/
  std::string role_dir(
      const std::string& role) const;  // roles/<role>: the folder a role's lock lives in

  // The lock of the folder's one owner (`vzero loop`, `vzero train`); throws Error when another
  // process holds it.
  FolderLock lock() const;

  // Creates shards/ and models/, removes temporary files a killed run left
  // there (in shards/, only the loop's own: gen*) and writes config.toml;
  // throws Error when the folder holds a run of another config (the number of
  // generations may differ). Call under the lock.
  void prepare(const RunConfig& config) const;

  // The generations of the checkpoints models/gen-NNN.pt, ascending.
  std::vector<int> model_generations() const;

  // The train target; generation -1 when absent (throws Error when malformed).
  TrainTarget read_train_target() const;
  // Replaces the train target.
  void write_train_target(const TrainTarget& target) const;

  // The promoted model of a roles run (models/current.txt); 0 when absent (throws Error when
  // malformed).
  int read_current() const;
  // Replaces the promoted model of a roles run.
  void write_current(int generation) const;

  // The trainer role's record; generation 0 when absent (throws Error when malformed).
  TrainerRecord read_trainer_record() const;
  // Replaces the trainer role's record.
  void write_trainer_record(const TrainerRecord& record) const;

  // The completed generations' rows of metrics.csv; throws Error naming the
  // file and line when the file is absent or empty, or the header or a row
  // does not fit (another column set, a wrong number of cells, a cell not a
  // number, generations out of sequence).
  std::vector<MetricsRow> read_metrics() const;
  // Writes metrics.csv with its header alone when the folder has none.
  void start_metrics() const;
  // Appends one row to metrics.csv (rewriting it whole), with the header first when the file is
  // absent.
  void append_metrics(const MetricsRow& row) const;

  // The gate's record; empty when gating.csv is absent (throws Error when malformed).
  GatingRecord read_gating() const;
  // Appends one row to gating.csv (rewriting it whole), with the header first when the file is
  // absent.
  void append_gating(const GatingRow& row) const;

 private:
  std::string path(const std::string& name) const;
  std::string dir_;
};

// What the loop has finished of the generation in progress (progress.txt):
// named values, each step's written once it is done, so a restart skips it.
class GenerationProgress {
 public:
  // The record of generation g in the folder; empty when the file holds another generation or is
  // absent.
  GenerationProgress(const RunFolder& folder, int generation);
  // Whether key is recorded.
  bool has(const std::string& key) const { return values_.count(key) > 0; }
  // The value of key (throws Error when absent or not a number).
  double number(const std::string& key) const;
  // The space-separated numbers of key (throws Error when absent or malformed).
  std::vector<double> numbers(const std::string& key) const;
  // Records key = value (or several numbers) and writes the file.
  void set(const std::string& key, double value);
  void set(const std::string& key, const std::vector<double>& values);

 private:
  void save() const;
  std::string path_;
  int generation_;
  std::map<std::string, std::string> values_;
};

// What every step of a run works with: its config, its folder, the game of
// config.variant and the log its progress goes to. The log must outlive it
// (it keeps its own copy of the config).
// The run a resolved config describes: its lines without the number of generations (a restart
// may raise it), the [inference] keys that set only speed (a run resumes under another form,
// batching or thread layout), and the "table/key" entries of also_without.
std::string run_identity(const std::string& resolved,
                         const std::set<std::string>& also_without = {});

struct RunContext {
  // The run of config in the folder dir, logging to log. Where [model] encoding is 0 (the
  // variant's newest) and the folder holds shards, the run goes on in their encoding version, so
  // that a run begun before a newer version was added keeps its own.
  RunContext(const RunConfig& config, const std::string& dir, std::ostream& log);
  const RunConfig config;
  RunFolder folder;
  const Game& game;
  std::ostream& log;
};

}  // namespace vzero
