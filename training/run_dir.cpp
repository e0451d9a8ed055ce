// The run folder: paths, its records, config identity, the generation in
// progress, metrics and the gate's record.
#include "training/run_dir.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

#include "game/builtin/games.h"
#include "net/spec/server_config.h"
#include "selfplay/shard.h"
#include "util/error.h"
#include "util/files.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

// Splits a CSV line (no quoting: the folder's tables hold numbers only).
std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// The integer of a whole cell, or -1 when it is not one.
long whole_number(const std::string& cell) {
  if (cell.empty() || cell.size() > 9 || cell.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::stol(cell);
}

// A double written so that it reads back exactly.
std::string exact(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// A one-line record of words and whole numbers, "generation G target STEP" and the like.
using Record = std::vector<std::pair<std::string, int64_t>>;

// The numbers of the record at path with the given words, each at least 0 (and
// the first an int); an empty vector when the file is absent. Throws Error
// naming the expected form when it does not fit. Text after the record is ignored.
std::vector<int64_t> read_record(const std::string& path, const std::vector<std::string>& words,
                                 const std::string& form) {
  if (!fs::exists(path)) return {};
  std::istringstream in(read_text_file(path));
  std::vector<int64_t> out;
  for (const std::string& expected : words) {
    std::string word;
    int64_t n = -1;
    if (!(in >> word >> n) || word != expected || n < 0 ||
        (out.empty() && n > std::numeric_limits<int>::max()))
      throw Error("'" + path + "' is malformed (expected '" + form + "')");
    out.push_back(n);
  }
  return out;
}

// Replaces the file at path with the record, one line.
void write_record(const std::string& path, const Record& record) {
  std::string text;
  for (const auto& [word, n] : record)
    text += (text.empty() ? "" : " ") + word + " " + std::to_string(n);
  write_text_file(path, text + "\n");
}

// Appends a row to a table file, rewriting it whole, with its header first when the file is absent.
void append_row(const std::string& path, const char* header, const std::string& row) {
  const std::string text = fs::exists(path) ? read_text_file(path) : std::string(header) + "\n";
  write_text_file(path, text + row + "\n");
}

// Calls f(column name, field) for each field of a metrics row, in the order of its columns.
template <class Row, class F>
void for_each_metric(Row& r, F&& f) {
  f("generation", r.generation);
  f("games", r.games);
  f("positions", r.positions);
  f("selfplay_pos_per_s", r.selfplay_pos_per_s);
  f("selfplay_evals_per_s", r.selfplay_evals_per_s);
  f("mean_batch", r.mean_batch);
  f("cache_hit_rate", r.cache_hit_rate);
  f("train_steps", r.train_steps);
  f("train_samples_per_s", r.train_samples_per_s);
  f("policy_loss", r.policy_loss);
  f("value_loss", r.value_loss);
  f("val_policy_top1", r.val_policy_top1);
  f("val_value_mse", r.val_value_mse);
  f("score_vs_prev", r.score_vs_prev);
  f("elo_vs_prev", r.elo_vs_prev);
  f("score_vs_gen0", r.score_vs_gen0);
  f("elo_vs_gen0", r.elo_vs_gen0);
  f("score_vs_baseline", r.score_vs_baseline);
  f("elo_vs_baseline", r.elo_vs_baseline);
  f("promoted", r.promoted);
  f("current_model", r.current_model);
  f("seconds", r.seconds);
  f("end_mate", r.end_mate);
  f("end_repetition", r.end_repetition);
  f("end_cap", r.end_cap);
  f("end_resign", r.end_resign);
  f("end_other", r.end_other);
  f("draw_share", r.draw_share);
  f("mean_abs_root_value", r.mean_abs_root_value);
  f("mean_abs_value_target", r.mean_abs_value_target);
  f("selfplay_time_share", r.selfplay_time_share);
  f("cpu_seconds", r.cpu_seconds);
}

// The column names of MetricsRow, in order (checked against kMetricsColumns once).
const std::vector<std::string>& metrics_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    MetricsRow row;
    for_each_metric(row, [&](const char* name, const auto&) { out.push_back(name); });
    check(out == split_cells(kMetricsColumns), "MetricsRow does not match kMetricsColumns");
    return out;
  }();
  return names;
}

// The cell of a field as the metrics have always been written: numbers as an
// ostream writes them by default, a flag as 0 or 1, an absent value empty.
void write_cell(std::ostream& s, bool x) { s << (x ? 1 : 0); }
void write_cell(std::ostream& s, const std::optional<double>& x) {
  if (x) s << *x;
}
template <class T>
void write_cell(std::ostream& s, const T& x) {
  s << x;
}

// Reads a cell into a field; false when the cell does not hold one.
bool read_cell(const std::string& cell, double& x) {
  char* end = nullptr;
  x = std::strtod(cell.c_str(), &end);
  return !cell.empty() && *end == '\0';
}
bool read_cell(const std::string& cell, std::optional<double>& x) {
  if (cell.empty()) {
    x.reset();
    return true;
  }
  double v = 0;
  if (!read_cell(cell, v)) return false;
  x = v;
  return true;
}
bool read_cell(const std::string& cell, int64_t& x) {
  char* end = nullptr;
  x = std::strtoll(cell.c_str(), &end, 10);
  return !cell.empty() && *end == '\0';
}
bool read_cell(const std::string& cell, int& x) {
  int64_t v = 0;
  if (!read_cell(cell, v) || v < std::numeric_limits<int>::min() ||
      v > std::numeric_limits<int>::max())
    return false;
  x = int(v);
  return true;
}
bool read_cell(const std::string& cell, bool& x) {
  if (cell != "0" && cell != "1") return false;
  x = cell == "1";
  return true;
}

// The headers of metrics.csv of older versions (before the self-play
// diagnostics, before cpu_seconds): their rows lack the later columns (read
// as empty; the next row written rewrites the file in this version's columns).
constexpr const char* kOlderMetricsHeaders[] = {
    "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_rate,"
    "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
    "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,"
    "promoted,"
    "current_model,seconds",
    "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_rate,"
    "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
    "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,"
    "promoted,"
    "current_model,seconds,end_mate,end_repetition,end_cap,end_resign,end_other,draw_share,"
    "mean_abs_root_value,mean_abs_value_target,selfplay_time_share"};

// The older header that the text starts with (its first line), or nullptr.
const char* older_metrics_header(const std::string& text) {
  for (const char* header : kOlderMetricsHeaders)
    if (text.rfind(std::string(header) + "\n", 0) == 0) return header;
  return nullptr;
}

// The header of gating.csv.
constexpr const char* kGatingColumns =
    "generation,games,wins,draws,losses,score,elo,margin,promoted,current_model,seconds";

}  // namespace

std::string generation_name(int g) {
  char name[24];
  std::snprintf(name, sizeof name, "gen-%03d", g);
  return name;
}

const char* const kMetricsColumns =
    "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_rate,"
    "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
    "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,"
    "promoted,"
    "current_model,seconds,end_mate,end_repetition,end_cap,end_resign,end_other,draw_share,"
    "mean_abs_root_value,mean_abs_value_target,selfplay_time_share,cpu_seconds";

int metrics_column(const std::string& name) {
  const std::vector<std::string>& names = metrics_names();
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return int(k) + 1;
  throw Error("metrics.csv has no column '" + name + "'");
}

namespace {

// The path of the file name in the run folder's models/.
std::string models_file(const RunFolder& folder, const std::string& name) {
  return (fs::path(folder.models_dir()) / name).string();
}

}  // namespace

RunFolder::RunFolder(std::string dir) : dir_(std::move(dir)) {}

std::string RunFolder::path(const std::string& name) const {
  return (fs::path(dir_) / name).string();
}

std::string RunFolder::config_path() const { return path("config.toml"); }
std::string RunFolder::shards_dir() const { return path("shards"); }
std::string RunFolder::models_dir() const { return path("models"); }
std::string RunFolder::model_path(int generation) const {
  return models_file(*this, generation_name(generation) + ".pt");
}
std::string RunFolder::train_model_path() const { return models_file(*this, "train.pt"); }
std::string RunFolder::train_target_path() const { return models_file(*this, "train-target.txt"); }
std::string RunFolder::progress_path() const { return path("progress.txt"); }
std::string RunFolder::openings_path() const { return path("openings.txt"); }
std::string RunFolder::records_dir() const { return path("records"); }
std::string RunFolder::records_path(int generation) const {
  return (fs::path(records_dir()) / (generation_name(generation) + ".jsonl")).string();
}
std::string RunFolder::metrics_path() const { return path("metrics.csv"); }
std::string RunFolder::ratings_path() const { return path("ratings.csv"); }
std::string RunFolder::curve_path() const { return path("curve.png"); }
std::string RunFolder::curve_script_path() const { return path("curve.gp"); }
std::string RunFolder::rendezvous_dir() const { return path("rendezvous"); }
std::string RunFolder::current_path() const { return models_file(*this, "current.txt"); }
std::string RunFolder::trainer_record_path() const { return models_file(*this, "trainer.txt"); }
std::string RunFolder::gating_path() const { return path("gating.csv"); }
std::string RunFolder::stop_path() const { return path("stop"); }
std::string RunFolder::game_ids_dir() const { return path("game-ids"); }
std::string RunFolder::role_dir(const std::string& role) const {
  return (fs::path(dir_) / "roles" / role).string();
}

FolderLock RunFolder::lock() const { return FolderLock(dir_, "run folder"); }

std::string run_identity(const std::string& resolved, const std::set<std::string>& also_without) {
  std::istringstream in(resolved);
  std::string line, table, out;
  while (std::getline(in, line)) {
    if (!line.empty() && line.front() == '[') table = line.substr(1, line.find(']') - 1);
    const std::string key = line.substr(0, line.find(" = "));
    const bool speed = table == "inference" && inference_speed_key(key);
    if (!speed && table + "/" + key != "loop/generations" && !also_without.count(table + "/" + key))
      out += line + "\n";
  }
  return out;
}

void RunFolder::prepare(const RunConfig& config) const {
  const fs::path d(dir_), shards(shards_dir()), models(models_dir());
  fs::create_directories(shards);
  fs::create_directories(models);
  // Temporary files of the folder's owner only: `vzero selfplay` may be writing other shards.
  for (const fs::path& sub : {d, shards, models})
    for (const auto& entry : fs::directory_iterator(sub)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && entry.path().extension() == ".tmp" &&
          (sub != shards || name.rfind("gen", 0) == 0))
        fs::remove(entry.path());
    }
  const std::string cfg = config_path();
  // The stored config is read again by this build, so that keys added since take their
  // defaults and a run goes on across versions.
  // How many games run at once does not change them (each game's seed is its index): a run
  // resumes under another parallel_games, as under other inference speed keys.
  const std::set<std::string> speed = {"selfplay/parallel_games", "selfplay/fiber_threads"};
  if (fs::exists(cfg) && run_identity(parse_run_config(read_text_file(cfg), cfg).resolved, speed) !=
                             run_identity(config.resolved, speed))
    throw Error("run folder '" + dir_ + "' holds a run of another config (" + cfg +
                "); use a new folder or the same config");
  write_text_file(cfg, config.resolved);
}

std::vector<int> RunFolder::model_generations() const {
  std::vector<int> out;
  for (const auto& entry : fs::directory_iterator(models_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= 10 && name.rfind("gen-", 0) == 0 && name.substr(name.size() - 3) == ".pt" &&
        name.find_first_not_of("0123456789", 4) == name.size() - 3)
      out.push_back(std::stoi(name.substr(4, name.size() - 7)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TrainTarget RunFolder::read_train_target() const {
  const std::vector<int64_t> v =
      read_record(train_target_path(), {"generation", "target"}, "generation G target STEP");
  if (v.empty()) return {};
  return TrainTarget{int(v[0]), v[1]};
}

void RunFolder::write_train_target(const TrainTarget& target) const {
  write_record(train_target_path(), {{"generation", target.generation}, {"target", target.step}});
}

int RunFolder::read_current() const {
  const std::vector<int64_t> v = read_record(current_path(), {"generation"}, "generation N");
  return v.empty() ? 0 : int(v[0]);
}

void RunFolder::write_current(int generation) const {
  write_record(current_path(), {{"generation", generation}});
}

TrainerRecord RunFolder::read_trainer_record() const {
  const std::vector<int64_t> v =
      read_record(trainer_record_path(), {"generation", "positions"}, "generation G positions P");
  if (v.empty()) return {};
  return TrainerRecord{int(v[0]), v[1]};
}

void RunFolder::write_trainer_record(const TrainerRecord& record) const {
  write_record(trainer_record_path(),
               {{"generation", record.generation}, {"positions", record.positions}});
}

std::vector<MetricsRow> RunFolder::read_metrics() const {
  const std::string file = metrics_path();
  const std::string text = read_text_file(file);
  if (text.empty()) throw Error("'" + file + "' is empty (no metrics header)");
  std::istringstream in(text);
  const std::vector<std::string>& names = metrics_names();
  const size_t current_model = size_t(metrics_column("current_model") - 1);
  std::vector<MetricsRow> rows;
  std::string line;
  size_t columns = names.size();  // of the file's header
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = "'" + file + "' line " + std::to_string(n) + ": ";
    if (n == 1) {
      if (const char* older = older_metrics_header(line + "\n"))
        columns = split_cells(older).size();
      else if (line != kMetricsColumns)
        throw Error(where + "not the metrics header of this version of vzero");
      continue;
    }
    if (in.eof()) throw Error(where + "the last row has no line end (an incomplete write)");
    std::vector<std::string> cells = split_cells(line);
    if (cells.size() != columns)
      throw Error(where + "expected " + std::to_string(columns) + " cells, found " +
                  std::to_string(cells.size()));
    cells.resize(names.size());  // an older row: the newer columns empty
    const long generation = whole_number(cells[0]), current = whole_number(cells[current_model]);
    if (generation != long(rows.size()) + 1)
      throw Error(where + "generation '" + cells[0] + "' where " + std::to_string(rows.size() + 1) +
                  " was due");
    if (current < 0 || current > generation)
      throw Error(where + "current_model '" + cells[current_model] +
                  "' is not a generation up to this one");
    MetricsRow row;
    size_t k = 0;
    for_each_metric(row, [&](const char* name, auto& field) {
      if (!read_cell(cells[k], field))
        throw Error(where + "'" + cells[k] + "' is not a value of " + name);
      ++k;
    });
    rows.push_back(row);
  }
  return rows;
}

void RunFolder::start_metrics() const {
  if (!fs::exists(metrics_path()))
    write_text_file(metrics_path(), std::string(kMetricsColumns) + "\n");
}

void RunFolder::append_metrics(const MetricsRow& row) const {
  std::ostringstream s;
  bool first = true;
  for_each_metric(row, [&](const char*, const auto& field) {
    if (!first) s << ",";
    first = false;
    write_cell(s, field);
  });
  const char* older =
      fs::exists(metrics_path()) ? older_metrics_header(read_text_file(metrics_path())) : nullptr;
  if (older) {
    // An older run folder: the rows read so far, in this version's columns (the new cells empty).
    std::istringstream old(read_text_file(metrics_path()));
    const size_t missing = split_cells(kMetricsColumns).size() - split_cells(older).size();
    std::string text = std::string(kMetricsColumns) + "\n", line;
    std::getline(old, line);
    while (std::getline(old, line)) text += line + std::string(missing, ',') + "\n";
    write_text_file(metrics_path(), text);
  }
  append_row(metrics_path(), kMetricsColumns, s.str());
}

GatingRecord RunFolder::read_gating() const {
  const std::string file = gating_path();
  GatingRecord r;
  if (!fs::exists(file)) return r;
  std::istringstream in(read_text_file(file));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = "'" + file + "' line " + std::to_string(n) + ": ";
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

void RunFolder::append_gating(const GatingRow& r) const {
  std::ostringstream row;
  row << r.generation << "," << r.games << "," << r.wins << "," << r.draws << "," << r.losses << ","
      << r.score << "," << r.elo << "," << r.margin << "," << (r.promoted ? 1 : 0) << ","
      << r.current_model << "," << r.seconds;
  append_row(gating_path(), kGatingColumns, row.str());
}

GenerationProgress::GenerationProgress(const RunFolder& folder, int generation)
    : path_(folder.progress_path()), generation_(generation) {
  if (!fs::exists(path_)) return;
  std::istringstream in(read_text_file(path_));
  std::string line;
  if (!std::getline(in, line) || line != "generation " + std::to_string(generation)) return;
  while (std::getline(in, line)) {
    const size_t eq = line.find(" = ");
    if (eq == std::string::npos) throw Error("'" + path_ + "': malformed line '" + line + "'");
    values_[line.substr(0, eq)] = line.substr(eq + 3);
  }
}

std::vector<double> GenerationProgress::numbers(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw Error("'" + path_ + "' has no '" + key + "'");
  std::vector<double> out;
  std::istringstream in(it->second);
  std::string word;
  while (in >> word) {
    char* end = nullptr;
    const double x = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != '\0')
      throw Error("'" + path_ + "': '" + key + "' is not a number");
    out.push_back(x);
  }
  return out;
}

double GenerationProgress::number(const std::string& key) const {
  const std::vector<double> v = numbers(key);
  if (v.size() != 1) throw Error("'" + path_ + "': '" + key + "' is not one number");
  return v[0];
}

void GenerationProgress::set(const std::string& key, double value) {
  set(key, std::vector<double>{value});
}

void GenerationProgress::set(const std::string& key, const std::vector<double>& values) {
  std::string text;
  for (double x : values) text += (text.empty() ? "" : " ") + exact(x);
  values_[key] = text;
  save();
}

void GenerationProgress::save() const {
  std::string text = "generation " + std::to_string(generation_) + "\n";
  for (const auto& [key, value] : values_) text += key + " = " + value + "\n";
  write_text_file(path_, text);
}

namespace {

// config with [model] encoding 0 replaced by the version of the newest readable shard in
// shards_dir, where there is one.
RunConfig in_shards_encoding(RunConfig config, const std::string& shards_dir) {
  std::error_code ec;
  if (config.model.encoding != 0 || !fs::is_directory(shards_dir, ec)) return config;
  const std::vector<std::string> shards = list_shards(shards_dir);
  for (auto it = shards.rbegin(); it != shards.rend(); ++it) {
    try {
      const ShardMeta meta = read_shard_meta(*it);
      config.model.encoding = encoding_version_of(game_by_id(config.variant), meta.encoding_hash);
      return config;
    } catch (const Error&) {
      // A damaged shard (the window skips it and says so) or one of no encoding of this variant
      // (the window refuses it): the next, or the newest version.
    }
  }
  return config;
}

}  // namespace

RunContext::RunContext(const RunConfig& config, const std::string& dir, std::ostream& log)
    : config(in_shards_encoding(config, RunFolder(dir).shards_dir())),
      folder(dir),
      game(game_by_id(config.variant)),
      log(log) {}

}  // namespace vzero
