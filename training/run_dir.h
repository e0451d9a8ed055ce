#pragma once
// The run folder's protocol: where each file lives, whole-file text writes
// that a kill never leaves half done, the run's config identity and the
// metrics table. training/README.md says what is written when. No LibTorch.
#include <string>
#include <vector>

#include "training/run_config.h"

namespace vzero {

// The checkpoint of generation g: <dir>/models/gen-NNN.pt.
std::string model_path(const std::string& dir, int generation);

// The whole text of a file; throws Error when it cannot be read.
std::string read_text_file(const std::string& path);
// Replaces path with text: written to path.tmp, synced, renamed over path; throws Error on failure.
void write_text_file(const std::string& path, const std::string& text);

// Creates shards/ and models/ in dir and writes config.toml; throws Error when
// dir holds a run of another config (the number of generations may differ).
void prepare_run_dir(const RunConfig& config, const std::string& dir);

// The header of metrics.csv.
extern const char* const kMetricsColumns;
// The completed generations' rows of a metrics file, split into cells.
std::vector<std::vector<std::string>> read_metrics(const std::string& path);
// Appends one row to a metrics file.
void append_metrics_row(const std::string& path, const std::string& row);

}  // namespace vzero
