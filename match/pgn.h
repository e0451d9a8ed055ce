#pragma once
// PGN for 2-player games: the Seven Tag Roster, [Variant "<id>"], [SetUp]
// and [FEN] when the game began from a FEN, and the moves in SAN (piece
// letter, disambiguation, 'x', '=' for promotions, O-O / O-O-O, '#' on
// mate; drops as "N@d4"). Attrition has no pieces to name: its moves keep
// the rules notation. Checks are not marked.
#include <string>

#include "game/game.h"
#include "match/game_record.h"

namespace vzero {

// The action in SAN in the given position (its rules text where SAN has no form).
std::string san(const GameState& state, int action);

// The game of a 2-player record as one PGN game, ending with an empty line
// (throws Error when the record's moves do not replay).
std::string to_pgn(const Game& game, const MatchRecord& record);

}  // namespace vzero
