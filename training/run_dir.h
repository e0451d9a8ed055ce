#pragma once
// The run folder's protocol: where each file lives, the run's config
// identity, the record of the generation in progress and the metrics table;
// text files are replaced whole and durably, and FolderLock keeps a second
// process out (both from util/files.h). training/README.md says what is
// written when. No LibTorch.
#include <map>
#include <string>
#include <vector>

#include "util/files.h"
#include "training/run_config.h"

namespace vzero {

// The checkpoint of generation g: <dir>/models/gen-NNN.pt.
std::string model_path(const std::string& dir, int generation);

// Creates shards/ and models/ in dir, removes temporary files a killed run
// left there (in shards/, only the loop's own: gen*) and writes config.toml; throws Error when dir holds a run of
// another config (the number of generations may differ). Call under the lock.
void prepare_run_dir(const RunConfig& config, const std::string& dir);

// What the loop has finished of the generation in progress (<dir>/progress.txt):
// named values, each step's written once it is done, so a restart skips it.
class GenerationProgress {
 public:
  // The record of generation g in dir; empty when the file holds another generation or is absent.
  GenerationProgress(const std::string& dir, int generation);
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

// The header of metrics.csv.
extern const char* const kMetricsColumns;
// The completed generations' rows of a metrics file, split into cells; throws
// Error naming the file and line when the header or a row does not fit
// (another column set, a wrong number of cells, generations out of sequence).
std::vector<std::vector<std::string>> read_metrics(const std::string& path);
// Appends one row to a metrics file (rewriting it whole with write_text_file).
void append_metrics_row(const std::string& path, const std::string& row);

}  // namespace vzero
