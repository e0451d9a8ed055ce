// The static value of an attrition position: seats out keep their final
// return, the others share the rest by knight mobility; in [-1, 1], summing to zero.
#include <algorithm>
#include <cmath>

#include "game/attrition/attrition_state.h"
#include "game/attrition/attrition_tables.h"

namespace vzero {

std::vector<double> AttritionState::heuristic_values() const {
  const attrition::Tables& leaps = attrition::tables();
  const int n = rules_.players();
  uint64_t all_knights = 0;
  for (int s = 0; s < n; ++s) all_knights |= pos_.knights[s];
  // Mobility: the squares each seat's knights can move to (an unplaced
  // knight counts as an average square's four).
  std::vector<double> mobility(n, 0.0);
  for (int s = 0; s < n; ++s) {
    if (pos_.is_out(s)) continue;
    mobility[s] = 4.0 * pos_.to_place[s];
    for (uint64_t k = pos_.knights[s]; k; k &= k - 1) {
      const uint64_t targets = leaps.attacks[__builtin_ctzll(k)];
      mobility[s] += __builtin_popcountll(targets & ~pos_.marked) +
                     __builtin_popcountll(targets & all_knights & ~pos_.knights[s]);
    }
  }
  // Seats already out have their final return (by the order they went out,
  // as returns() ranks them); the others share the rest by mobility.
  std::vector<double> values(n, 0.0);
  double taken = 0.0, mean = 0.0;
  for (int i = 0; i < pos_.n_out; ++i) {
    const int seat = pos_.out_seat[i];
    values[seat] = n == 2 ? -1.0 : double(2 * i - (n - 1)) / (n - 1);
    taken += values[seat];
  }
  const int alive = n - pos_.n_out;
  if (alive == 0) return values;
  for (int s = 0; s < n; ++s)
    if (!pos_.is_out(s)) mean += mobility[s] / alive;
  // Alive seats: a common share of what the seats out left, plus centred
  // mobility deviations scaled down just enough to stay within [-1, 1].
  const double share = -taken / alive;
  std::vector<double> dev(n, 0.0);
  double centre = 0.0;
  for (int s = 0; s < n; ++s)
    if (!pos_.is_out(s)) centre += (dev[s] = std::tanh((mobility[s] - mean) / 3.0)) / alive;
  double scale = 1.0;
  for (int s = 0; s < n; ++s) {
    if (pos_.is_out(s)) continue;
    dev[s] -= centre;
    if (dev[s] > 0) scale = std::min(scale, (1.0 - share) / dev[s]);
    if (dev[s] < 0) scale = std::min(scale, (-1.0 - share) / dev[s]);
  }
  for (int s = 0; s < n; ++s)
    if (!pos_.is_out(s)) values[s] = share + scale * dev[s];
  return values;
}

}  // namespace vzero
