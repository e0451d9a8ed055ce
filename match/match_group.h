#pragma once
// A match played by the processes of one job (the ranks of an MPI job, on
// any number of hosts): rank r plays share r of the games (ArenaConfig::part),
// the shares' records are exchanged, and every rank joins them into the
// result one process would have given (join_arena). The exchange itself is
// the job's (cli/mpi_job.h: Open MPI); this library knows only the interface.
#include <string>
#include <vector>

#include "match/arena.h"

namespace vzero {

// The ranks of a job, and the one collective a shared match needs.
class MatchGroup {
 public:
  virtual ~MatchGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's text, in rank order, on every rank (each rank must call it, in the same order).
  virtual std::vector<std::string> all_gather(const std::string& text) = 0;
};

// Rank 0's text on every rank (each rank must call it).
std::string broadcast_text(MatchGroup& group, const std::string& text);

// Plays the match across the group's ranks and returns the whole match's
// result on every rank (play_arena without a group, or with one rank). Each
// rank resumes its share from the games file; rank 0 alone writes the games
// file and the PGN: its own games as they end, the other ranks' when the
// shares are joined (a job killed before then keeps rank 0's games only).
// An SPRT judges the joined games: each rank plays its whole share, and the
// result counts the games up to the decision, as one process would.
ArenaResult play_arena_shared(const Game& game, const ArenaConfig& config,
                              const PlayerFactory& make, MatchGroup* group);

}  // namespace vzero
