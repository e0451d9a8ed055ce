// The network input of attrition (layout in docs/encoding.md).
#include <algorithm>
#include <cstring>

#include "game/attrition/attrition_state.h"

namespace vzero {

EncodingSpec attrition_encoding(int players) {
  EncodingSpec e;
  e.height = e.width = 8;
  e.add_plane("marked");
  const auto seat = [](int r) {
    return r == 0 ? std::string("player to act") : "seat +" + std::to_string(r);
  };
  for (int r = 0; r < players; ++r) e.add_plane("knights of " + seat(r));
  for (int r = 0; r < players; ++r) e.add_scalar("knights to place, " + seat(r));
  for (int r = 0; r < players; ++r) e.add_scalar("out, " + seat(r));
  e.add_scalar("plies / length cap");
  return e;
}

void AttritionState::encode(uint8_t* planes, float* scalars, int plies_scale) const {
  const int cap = plies_scale > 0 ? plies_scale : max_plies_;
  const int n = rules_.players();
  std::memset(planes, 0, size_t(1 + n) * 64);
  const int me = pos_.to_act >= 0 ? pos_.to_act : 0;
  for (uint64_t b = pos_.marked; b; b &= b - 1) planes[__builtin_ctzll(b)] = 1;
  for (int r = 0; r < n; ++r) {
    const int s = (me + r) % n;
    for (uint64_t b = pos_.knights[s]; b; b &= b - 1) planes[(1 + r) * 64 + __builtin_ctzll(b)] = 1;
    scalars[r] = pos_.to_place[s];
    scalars[n + r] = pos_.is_out(s);
  }
  scalars[2 * n] = cap > 0 ? std::min(1.0f, float(pos_.ply) / float(cap)) : 0.0f;
}

}  // namespace vzero
