#pragma once
// The network sees each position from the seat to act: its value output k
// belongs to the seat k places after the one to act. The trainer (value
// targets) and the inference server (values it answers) both map through
// here, so the two cannot disagree. No LibTorch.

namespace vzero {

// The absolute seat of value output k of a position where seat `player` acts.
inline int value_output_seat(int player, int k, int players) { return (player + k) % players; }

}  // namespace vzero
