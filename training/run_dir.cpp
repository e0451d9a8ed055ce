// The run folder: paths, durable text files, the folder lock, config identity,
// the generation in progress, metrics.
#include "training/run_dir.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "util/error.h"
#include "util/files.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

// The resolved config without the number of generations, which a restart may raise.
std::string identity_of(const std::string& resolved) {
  std::istringstream in(resolved);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind("generations = ", 0) != 0) out += line + "\n";
  return out;
}

// Splits a CSV line (no quoting: metrics cells hold numbers only).
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
  if (cell.empty() || cell.size() > 9 || cell.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stol(cell);
}

// A double written so that it reads back exactly.
std::string exact(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

std::string model_path(const std::string& dir, int generation) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%03d.pt", generation);
  return (fs::path(dir) / "models" / name).string();
}

void prepare_run_dir(const RunConfig& config, const std::string& dir) {
  const fs::path d(dir);
  fs::create_directories(d / "shards");
  fs::create_directories(d / "models");
  // Temporary files of the folder's owner only: `vzero selfplay` may be writing other shards.
  for (const fs::path& sub : {d, d / "shards", d / "models"})
    for (const auto& entry : fs::directory_iterator(sub)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && entry.path().extension() == ".tmp" &&
          (sub != d / "shards" || name.rfind("gen", 0) == 0))
        fs::remove(entry.path());
    }
  const std::string cfg = (d / "config.toml").string();
  // The stored config is read again by this build, so that keys added since take their
  // defaults and a run goes on across versions.
  if (fs::exists(cfg) && identity_of(parse_run_config(read_text_file(cfg), cfg).resolved) != identity_of(config.resolved))
    throw Error("run folder '" + dir + "' holds a run of another config (" + cfg +
                "); use a new folder or the same config");
  write_text_file(cfg, config.resolved);
}

GenerationProgress::GenerationProgress(const std::string& dir, int generation)
    : path_((fs::path(dir) / "progress.txt").string()), generation_(generation) {
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
    if (end == word.c_str() || *end != '\0') throw Error("'" + path_ + "': '" + key + "' is not a number");
    out.push_back(x);
  }
  return out;
}

double GenerationProgress::number(const std::string& key) const {
  const std::vector<double> v = numbers(key);
  if (v.size() != 1) throw Error("'" + path_ + "': '" + key + "' is not one number");
  return v[0];
}

void GenerationProgress::set(const std::string& key, double value) { set(key, std::vector<double>{value}); }

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

const char* const kMetricsColumns =
    "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_rate,"
    "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
    "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,promoted,"
    "current_model,seconds";

std::vector<std::vector<std::string>> read_metrics(const std::string& path) {
  const std::string text = read_text_file(path);
  if (text.empty()) throw Error("'" + path + "' is empty (no metrics header)");
  std::istringstream in(text);
  const size_t columns = split_cells(kMetricsColumns).size();
  const size_t current_model = columns - 2;  // the column "current_model"
  std::vector<std::vector<std::string>> rows;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = "'" + path + "' line " + std::to_string(n) + ": ";
    if (n == 1) {
      if (line != kMetricsColumns) throw Error(where + "not the metrics header of this version of vzero");
      continue;
    }
    if (in.eof()) throw Error(where + "the last row has no line end (an incomplete write)");
    std::vector<std::string> cells = split_cells(line);
    if (cells.size() != columns)
      throw Error(where + "expected " + std::to_string(columns) + " cells, found " + std::to_string(cells.size()));
    const long generation = whole_number(cells[0]), current = whole_number(cells[current_model]);
    if (generation != long(rows.size()) + 1)
      throw Error(where + "generation '" + cells[0] + "' where " + std::to_string(rows.size() + 1) + " was due");
    if (current < 0 || current > generation)
      throw Error(where + "current_model '" + cells[current_model] + "' is not a generation up to this one");
    rows.push_back(std::move(cells));
  }
  return rows;
}

void append_metrics_row(const std::string& path, const std::string& row) {
  std::string text = fs::exists(path) ? read_text_file(path) : std::string(kMetricsColumns) + "\n";
  write_text_file(path, text + row + "\n");
}

}  // namespace vzero
