// Training targets and the window's size.
#include "training/targets.h"

#include <algorithm>
#include <cmath>

#include "net/spec/value_seats.h"

namespace vzero {

double root_value_share(const Sample& s, const TrainConfig& c) {
  if (s.capped && c.capped_value == "root") return 1.0;
  if (c.value_target == "result") return 0.0;
  if (c.value_target == "root") return 1.0;
  if (c.value_target == "phase" && s.moves_left >= 0) {
    const double length = double(s.ply + s.moves_left);
    return length > 0 ? c.root_value_weight * double(s.moves_left) / length : 0.0;
  }
  return c.root_value_weight;
}

SampleTargets sample_targets(const Sample& s, const TrainConfig& c, bool results_only) {
  const size_t players = s.result.size();
  const double share =
      results_only || s.root_value.size() != players ? 0.0 : root_value_share(s, c);
  SampleTargets t;
  t.value.resize(players);
  for (size_t r = 0; r < players; ++r) {
    const size_t seat = size_t(value_output_seat(s.player, int(r), int(players)));
    const double q = share > 0.0 ? s.root_value[seat] : 0.0;
    t.value[r] = float((1.0 - share) * s.result[seat] + share * q);
  }
  // Win/draw/loss of the player to act: the result's class, with the root value's share as
  // a win or loss in proportion to its sign (a search value says nothing of draws).
  const double result = s.result[size_t(s.player)];
  const double wdl_share = c.wdl_target == "result" ? 0.0 : share;
  const double qw = wdl_share > 0.0 ? s.root_value[size_t(s.player)] : 0.0;
  const bool decisive = c.wdl_target == "decisive";
  const double win = (1.0 - wdl_share) * (result > 0.0 ? 1.0 : 0.0) +
                     wdl_share * (decisive ? (1.0 + qw) / 2.0 : std::max(qw, 0.0));
  const double loss = (1.0 - wdl_share) * (result < 0.0 ? 1.0 : 0.0) +
                      wdl_share * (decisive ? (1.0 - qw) / 2.0 : std::max(-qw, 0.0));
  t.wdl = {float(win), float(std::max(0.0, 1.0 - win - loss)), float(loss)};
  t.moves_left = s.moves_left >= 0 ? float(s.moves_left) : -1.0f;
  return t;
}

double scheduled_lr(const TrainConfig& tc, int64_t t) {
  double lr = tc.lr;
  if (tc.lr_warmup_steps > 0 && t < tc.lr_warmup_steps) lr *= double(t + 1) / tc.lr_warmup_steps;
  if (tc.lr_schedule == "cosine" && tc.lr_decay_steps > 0) {
    const double x = std::min(1.0, double(t) / tc.lr_decay_steps);
    const double floor = std::min(tc.lr_min, tc.lr);
    return floor + (lr - floor) * 0.5 * (1.0 + std::cos(M_PI * x));
  }
  if (tc.lr_schedule == "piecewise") {
    for (size_t i = 0; i < tc.lr_boundaries.size() && t >= tc.lr_boundaries[i]; ++i)
      lr = tc.lr_values[i];
    return lr;
  }
  if (tc.lr_decay_steps > 0) lr *= std::pow(0.5, double(t / tc.lr_decay_steps));
  return lr;
}

int64_t window_size(const TrainConfig& c, int64_t total) {
  if (!c.window_growth) return c.window_positions;
  const double min = c.window_min;
  if (double(total) <= min) return std::min<int64_t>(c.window_positions, c.window_min);
  const double a = c.window_exponent;
  const double grown = min * (1.0 + c.window_slope * (std::pow(double(total) / min, a) - 1.0) / a);
  return std::min<int64_t>(c.window_positions, int64_t(grown));
}

}  // namespace vzero
