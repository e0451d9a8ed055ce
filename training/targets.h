#pragma once
// The training targets of a sample, seen from the player to act: the value
// per seat (the result, the search's root value, or a mix of them), the
// win/draw/loss classes, the plies left. No LibTorch.
#include <array>
#include <cstdint>
#include <vector>

#include "selfplay/sample.h"
#include "training/run_config.h"

namespace vzero {

struct SampleTargets {
  std::vector<float> value;    // per seat, index 0 the player to act, then the seats after him
  std::array<float, 3> wdl{};  // win, draw, loss of the player to act (sums to 1)
  float moves_left = -1.0f;    // plies to the end; negative when unknown
};

// The share of the root value in a sample's value target under config's value_target.
double root_value_share(const Sample& s, const TrainConfig& config);
// The targets of a sample; results_only takes the value from the game's result alone (validation).
SampleTargets sample_targets(const Sample& s, const TrainConfig& config, bool results_only = false);

// The learning rate of step t: warm-up, then train.lr_schedule.
double scheduled_lr(const TrainConfig& config, int64_t t);

// The replay window's size in positions after total positions were generated (window_growth).
int64_t window_size(const TrainConfig& config, int64_t total_positions);

}  // namespace vzero
