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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mcts/game_record.h"

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

// Fits the ratings of every player of the games (throws Error on an anchor
// that played no game or options out of range).
RatingsTable fit_ratings(const std::vector<MatchRecord>& games, const RatingsOptions& options);

}  // namespace vzero
