#pragma once
// What the web page shows of a run folder (training/run_dir.h), as JSON: its
// config, metrics, ratings and generation in progress, its recorded games and
// their positions move by move, and PGN. Files are read as they are at the
// moment of the request, so a loop may be writing the folder meanwhile.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vzero {

// A change stamp of the folder's record files (metrics, ratings, gating, progress, config, the
// game records): it differs after any of them was rewritten.
std::string run_stamp(const std::string& dir);
// The dashboard data: dir, config (text), metrics, ratings and gating ({header, rows}), progress
// (lines), generations with records.
nlohmann::json run_summary(const std::string& dir);
// The games recorded for generation gen: one entry per line (i, match, players, result, reason,
// plies).
nlohmann::json run_games(const std::string& dir, int gen);
// Game i of generation gen: its record, the actions from the start and the FEN after each (fens[0]:
// the start).
nlohmann::json run_game(const std::string& dir, int gen, int i);
// Game i of generation gen as PGN (throws Error for a game of 3-4 seats).
std::string run_game_pgn(const std::string& dir, int gen, int i);
// A game played in the browser as PGN: the variant, its start FEN ("" the variant's) and the
// actions.
std::string play_pgn(const std::string& variant, const std::string& fen,
                     const std::vector<std::string>& moves);

}  // namespace vzero
