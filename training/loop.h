#pragma once
// The closed loop, generation after generation: self-play with the current
// model -> train -> arena of the new model against the current one (gated
// or always promoted), against generation 0 and against a fixed search
// baseline -> the promoted model plays the next self-play. The run folder
// holds config.toml (resolved), shards/, models/, metrics.csv and curve.png;
// started again on the same folder, it goes on where it stopped.
#include <iosfwd>
#include <string>

#include "training/run_config.h"

namespace vzero {

// Runs config.loop.generations generations (0: until killed) in run_dir; progress goes to log.
void run_loop(const RunConfig& config, const std::string& run_dir, std::ostream& log);

}  // namespace vzero
