#pragma once
// One Elo scale over recorded games: a Bradley-Terry (logistic) model,
// P(i scores against j) = 1 / (1 + 10^((elo_j - elo_i) / 400)), fitted by
// maximum likelihood with Newton's method (Eigen). Draws count as half
// points; a 3-4-player game counts as its pairwise outcomes (the higher
// return wins the pair), each weighted 1/(seats - 1) so that every game
// weighs one game for each player. The prior: `prior_draws` virtual draws
// between every two players who met, so that a player who won or lost every
// game still gets a finite rating. Intervals: 95%, from the inverse of the
// fit's information matrix (relative to the anchor, or to the mean of all
// when none is given). Players who never met (groups of players without a
// game between them) are rated within their own group, and a note says so.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/game_record.h"

namespace vzero {

struct RatingsOptions {
  std::optional<std::pair<std::string, double>> anchor;  // this player has this Elo
  double prior_draws = 1.0;                              // > 0
};

struct Rating {
  std::string player;
  int games = 0;       // games played (a game with several seats of one player counts once)
  double score = 0.0;  // points per pairwise game against other players
  double elo = 0.0;
  double margin = 0.0;  // 95% half-width
  int group = 0;        // players who never met have different groups
};

struct RatingsTable {
  std::vector<Rating> rows;        // best first
  std::vector<std::string> notes;  // disconnected groups, perfect scores, players without opponents
  // "rank player games score elo +-" and a row per player (aligned columns).
  std::string text() const;
  // The same as CSV: "rank,player,games,score,elo,margin".
  std::string csv() const;
};

// Reads "PLAYER=ELO" (the last '=' splits; throws Error).
std::pair<std::string, double> parse_anchor(const std::string& text);

// The pairwise outcomes of games, gathered one game at a time: its memory
// grows with the players and the pairs of players who met, not with the
// games, so that a long run's refit need not hold its records.
class PairwiseResults {
 public:
  // Adds a game's players and result (its moves are not kept).
  void add(const MatchRecord& game);
  bool empty() const { return names_.empty(); }
  bool has_player(const std::string& name) const { return id_.count(name) > 0; }
  size_t players() const { return names_.size(); }
  size_t pairs() const { return meetings_.size(); }  // pairs of players who met
  // Fits the ratings of every player added (throws Error on an anchor that
  // played no game or options out of range).
  RatingsTable fit(const RatingsOptions& options) const;

 private:
  struct Pair {
    double weight = 0.0;  // pairwise games, without the prior
    double points = 0.0;  // the first player's points among them
  };
  int id_of(const std::string& name);
  std::map<std::string, int> id_;
  std::vector<std::string> names_;                // by id, in first-seen order
  std::vector<int> played_;                       // games per player
  std::vector<double> points_, weight_;           // pairwise, per player, without the prior
  std::map<std::pair<int, int>, Pair> meetings_;  // (i, j), i < j
};

// Fits the ratings of every player of the games (throws Error on an anchor
// that played no game or options out of range).
RatingsTable fit_ratings(const std::vector<MatchRecord>& games, const RatingsOptions& options);

}  // namespace vzero
