#pragma once
// The games built into vzero: the rules core of every variant hook (chess-like,
// fairy, attrition) behind the Game interface, and the built-in variants by id.
#include <memory>
#include <string>
#include <vector>

#include "game/game.h"

namespace vzero {

// The game of a variant, its core chosen by the hook; it refers to v, which must outlive it.
std::unique_ptr<Game> make_game(const Variant& v);

// The games built into vzero, by variant id (throws Error when unknown).
const Game& game_by_id(const std::string& id);
std::vector<std::string> game_ids();

}  // namespace vzero
