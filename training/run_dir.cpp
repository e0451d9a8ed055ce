// The run folder: paths, text files, config identity, metrics.
#include "training/run_dir.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "game/error.h"

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

}  // namespace

std::string model_path(const std::string& dir, int generation) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%03d.pt", generation);
  return (fs::path(dir) / "models" / name).string();
}

std::string read_text_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_text_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    f << text;
    if (!f) throw Error("cannot write '" + path + "'");
  }
  fs::rename(tmp, path);
}

void prepare_run_dir(const RunConfig& config, const std::string& dir) {
  const fs::path d(dir);
  fs::create_directories(d / "shards");
  fs::create_directories(d / "models");
  const std::string cfg = (d / "config.toml").string();
  if (fs::exists(cfg) && identity_of(read_text_file(cfg)) != identity_of(config.resolved))
    throw Error("run folder '" + dir + "' holds a run of another config (" + cfg +
                "); use a new folder or the same config");
  write_text_file(cfg, config.resolved);
}

const char* const kMetricsColumns =
    "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_rate,"
    "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
    "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,promoted,"
    "current_model,seconds";

std::vector<std::vector<std::string>> read_metrics(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream f(path);
  std::string line;
  bool header = true;
  while (std::getline(f, line)) {
    if (header) {
      header = false;
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

void append_metrics_row(const std::string& path, const std::string& row) {
  std::ofstream(path, std::ios::app) << row << "\n";
}

}  // namespace vzero
