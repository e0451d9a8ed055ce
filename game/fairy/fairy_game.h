#pragma once
// World and Parachute chess (hook "fairy") behind the Game interface: the
// rules of fairy_rules.h, a fixed action space and the game's history.
#include <memory>

#include "game/game.h"

namespace vzero {

// The Game of a variant file with hook "fairy".
std::unique_ptr<Game> make_fairy_game(const Variant& v);

}  // namespace vzero
