#pragma once
// Matches between two players, A and B. Game i has a fixed opening, seat
// order and seeds: with n seats it is game i % n of opening group i / n, and
// A sits at seat i % n (B takes every other seat), so each opening is played
// once in every seat order (pairs for 2 players, rotations for 3-4) and a
// seat bias cancels out. Games run on `threads` threads, started in index
// order; each may go to a games file (JSON lines, game_record.h) and a PGN
// file, and a match resumes from its games file: a game already recorded
// there is read back, not played again. With 2 players an SPRT stops the
// match as soon as it decides, judged on complete pairs in index order, so
// the outcome does not depend on the number of threads.
// A match may be played in shares (by several processes, MPI ranks or the
// tasks of a Slurm array): share k of n holds the opening groups g with
// g % n == k, and joining the shares' records gives the result of the whole
// match, the same as one process would have for deterministic players.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "game/game.h"
#include "match/game_record.h"
#include "match/match_stats.h"
#include "match/openings.h"
#include "match/players.h"

namespace vzero {

struct ArenaConfig {
  int games = 20;
  int threads = 1;
  uint64_t seed = 1;
  std::vector<Opening> openings;   // played in turn, each in every seat order; empty: random ones
  int opening_plies = 0;           // without openings: random plies, the same for each group
  bool progress = true;            // a progress line on stderr
  std::optional<SprtConfig> sprt;  // 2 players: stop when the test decides
  std::string record;              // games file to append to and resume from ("" none)
  std::string pgn;                 // PGN file to append to ("" none; 2 players)
  std::array<std::string, 2> names{"A", "B"};  // the players' names in records
  std::string match;  // the match's name in the games file ("" : "<A> vs <B>")
  int part = 0,
      parts = 1;  // play only share `part` (0-based) of `parts`; with parts > 1 no SPRT stops it
  bool write_files =
      true;  // false: read the games file to resume, write neither file (another process does)
  bool keep_records = false;  // return the games' records (ArenaResult::records)
};

struct ArenaResult {
  int games = 0, wins = 0, draws = 0, losses = 0;  // for player A, over the games counted
  double score = 0.0;                              // A's mean score
  double elo = 0.0, margin = 0.0;                  // Elo difference A - B and its 95% half-width
  double score_lo = 0.0, score_hi = 1.0;           // the 95% interval on score
  double mean_plies = 0.0;
  EloEstimate estimate;               // pentanomial when the games form pairs
  std::vector<double> score_by_seat;  // A's score when seated at each seat
  std::vector<Trinomial> by_seat;     // A's results at each seat
  Pentanomial pentanomial;            // 2 players: over complete pairs
  double average_rank = 0.0;          // A's mean rank (1 best; ties share)
  std::array<int, 2> forfeits{};      // games A and B lost by forfeit
  int resumed = 0;                    // games read back from the games file
  std::optional<SprtConfig> sprt;
  double llr = 0.0;
  SprtResult sprt_result = SprtResult::kInconclusive;
  std::vector<MatchRecord>
      records;  // the games counted, in index order (with keep_records; join_arena: always)
  std::set<int> read_back;  // the indices among them read from the games file
  // The line "score S wins W draws D losses L elo E +- M".
  std::string summary() const;
  // The statistics, one fact a line (seats, pairs, Elo and LOS, rank, SPRT), without the summary.
  std::vector<std::string> report() const;
};

// Makes player A (role 0) or B (role 1) for one game; seed differs per game.
using PlayerFactory = std::function<std::unique_ptr<Player>(int role, uint64_t seed)>;

// Plays (or resumes) the match. A's result is a win when A alone has the
// best return, a draw when A shares it, else a loss. A player that forfeits
// loses: return -1, the others +1/(seats - 1) each. Throws Error when a player cannot
// start at all, or when the games file holds a different game of this match.
ArenaResult play_arena(const Game& game, const ArenaConfig& config, const PlayerFactory& make);

// The result of a match played in shares, from the records of all of them
// (config as for play_arena, without part and parts): the records of
// config's match must have its variant, seed, seats and names, two records of
// one index must hold the same game, and games 0..games-1 must all be there
// (with an SPRT, those up to its decision); throws Error otherwise. Records
// of other matches and indices are ignored; read_back: the indices resumed
// from a games file. The result is the one play_arena gives over the same games.
ArenaResult join_arena(const Game& game, const ArenaConfig& config,
                       const std::vector<MatchRecord>& records,
                       const std::set<int>& read_back = {});

}  // namespace vzero
