#pragma once
// Board symmetries a variant declares (variant file key `symmetries`): each
// maps squares and, through the action texts, actions. The trainer augments
// samples with them; the conformance test checks that a declared symmetry
// really maps legal actions, network inputs and results onto each other.
#include <cstdint>
#include <string>
#include <vector>

#include "game/encoding.h"

namespace vzero {

class Game;

// One symmetry of the board and of the action space.
struct BoardSymmetry {
  std::string name;
  std::vector<int> square;  // plane index (rank * files + file) -> plane index of its image
  std::vector<int> action;  // action -> its image (a permutation)
};

// The names a variant file may list: mirror-files, mirror-ranks, rotate-180,
// and on square boards transpose, anti-transpose, rotate-90, rotate-270.
const std::vector<std::string>& symmetry_names();
// Throws Error unless name is a symmetry of a files x ranks board.
void check_symmetry_name(const std::string& name, int files, int ranks);
// The image of square (file, rank), 0-based, under the named symmetry.
void map_square(const std::string& name, int files, int ranks, int& file, int& rank);
// The symmetries game's variant declares, identity excluded; throws Error
// when an action's image is not an action of the game.
std::vector<BoardSymmetry> board_symmetries(const Game& game);
// The same for the given names (each checked against the board first).
std::vector<BoardSymmetry> board_symmetries(const Game& game,
                                            const std::vector<std::string>& names);
// Writes the planes of an encoding seen through s: plane c's square q moves to
// s.square[q] (scalars stay as they are).
void map_planes(const BoardSymmetry& s, const EncodingSpec& spec, const uint8_t* in, uint8_t* out);

}  // namespace vzero
