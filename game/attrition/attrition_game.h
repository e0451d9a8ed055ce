#pragma once
// Chivalrous Attrition (rules/attrition.md): knights and markers for 2-4
// players, a game of its own behind the common Game interface.
#include <memory>

#include "game/game.h"

namespace vzero {

// The Game of an attrition variant file (hook "attrition").
std::unique_ptr<Game> make_attrition_game(const Variant& v);

}  // namespace vzero
