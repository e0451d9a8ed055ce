#pragma once
// UCI engines as players: the spec
//   uci:cmd=PATH[,arg=A]...[,variant=NAME][,depth=D|nodes=N|movetime=MS]
//       [,threads=T][,hash=MB][,opt.NAME=VALUE]...[,timeout=S]
// starts the engine once per game (a child process; uci_process.h) and plays
// the move of its `bestmove`. An engine that dies, stays silent past the
// timeout or plays an illegal move forfeits the game (PlayerForfeit).
// Move and position texts pass through a small per-variant table
// (docs/uci-players.md).
#include <memory>
#include <string>
#include <vector>

#include "match/players.h"

namespace vzero {

// How one vzero variant is spoken of to a UCI engine (Fairy-Stockfish).
struct UciVariantMap {
  std::string vzero_id;
  std::string engine_variant;  // the UCI_Variant value
  // Move texts both ways, and vzero's FEN as the engine reads it.
  std::string (*move_to_engine)(const std::string& vzero_text);
  std::string (*move_from_engine)(const std::string& engine_text);
  std::string (*fen_to_engine)(const std::string& vzero_fen);
};
// The mapping of a variant, or null when vzero has none for it.
const UciVariantMap* uci_variant_map(const std::string& vzero_id);

// The options of a uci: spec.
struct UciSpec {
  std::string command;
  std::vector<std::string> args;
  std::string variant;  // the engine's variant name
  std::string go;       // "depth 2", "nodes 1000" or "movetime 100"
  std::vector<std::pair<std::string, std::string>> options;  // setoption name/value, in order
  double timeout_s = 30.0;                                   // for each answer the engine owes
};
// Reads the options after "uci:" (throws Error when one is unknown, missing or out of range).
UciSpec parse_uci_spec(SpecOptions& options, const Game& game);

// The player of a uci: spec (the engine starts with each new game).
std::unique_ptr<Player> make_uci_player(SpecOptions& options, const PlayerContext& ctx);
// The "uci" kind, which the player registry (players.cpp) adds on first use.
PlayerKind uci_player_kind();

}  // namespace vzero
