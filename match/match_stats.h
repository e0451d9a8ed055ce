#pragma once
// Match statistics for player A against player B: win/draw/loss counts,
// pentanomial counts over game pairs (the two games of one opening with the
// seats swapped), the score with a 95% interval turned into Elo, the
// likelihood of superiority, and a generalised sequential probability ratio
// test (GSPRT) under a logistic or a normalised Elo model.
#include <array>
#include <string>

namespace vzero {

// Outcomes of single games, for A.
struct Trinomial {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  // Adds one game scored 1, 0.5 or 0 for A.
  void add(double score);
};

// Game pairs by A's summed score over the pair: index k holds the pairs
// that scored k/2 (0 = two losses, 1 = a loss and a draw, 2 = two draws or
// a win and a loss, 3 = a win and a draw, 4 = two wins).
struct Pentanomial {
  std::array<int, 5> pairs{};
  int count() const;
  // Adds one pair from the two games' scores (each 1, 0.5 or 0).
  void add(double first, double second);
};

// A's score, Elo and their 95% intervals.
struct EloEstimate {
  double score = 0.5;                     // mean score per game
  double score_lo = 0.0, score_hi = 1.0;  // 95% interval on the score
  double elo = 0.0;                       // logistic Elo difference A - B
  double margin = 0.0;                    // half the width of the 95% interval on elo
  double los = 0.5;                       // likelihood of superiority, P(A stronger)
  double sd = 0.0;      // standard deviation of one game's score (from pairs: sqrt 2 x a pair's)
  double nelo = 0.0;    // normalised Elo: (score - 1/2) / sd * 800 / ln 10 (0 when sd is 0)
  bool paired = false;  // from the pentanomial model
};

// The estimate of a trinomial sample (games treated as independent).
EloEstimate estimate_trinomial(const Trinomial& t);
// The estimate of a pentanomial sample (pairs treated as independent).
EloEstimate estimate_pentanomial(const Pentanomial& p);

// Logistic Elo difference of a score in (0, 1), clamped to +-1200.
double elo_of_score(double score);
// The score expected at a logistic Elo difference.
double score_of_elo(double elo);

// The options of a sequential test: H0 "elo = elo0" against H1 "elo = elo1".
struct SprtConfig {
  double elo0 = 0.0, elo1 = 5.0;
  double alpha = 0.05, beta = 0.05;  // false positive and false negative rates
  bool normalized = true;            // elo0/elo1 in normalised Elo (as fishtest); else logistic
  double lower() const;              // log(beta / (1 - alpha)): at or below, accept H0
  double upper() const;              // log((1 - beta) / alpha): at or above, accept H1
};
// Reads "elo0=A,elo1=B[,alpha=X][,beta=Y][,model=normalized|logistic]" (throws Error).
SprtConfig parse_sprt(const std::string& text);

enum class SprtResult { kH0, kH1, kInconclusive };
const char* sprt_result_name(SprtResult r);  // "H0", "H1", "inconclusive"

// The generalised log-likelihood ratio of H1 over H0 for a pentanomial or a
// trinomial sample (empty categories count as 1e-3 of an outcome).
double sprt_llr(const SprtConfig& c, const Pentanomial& p);
double sprt_llr(const SprtConfig& c, const Trinomial& t);
// H1 when llr reached the upper bound, H0 the lower one, else inconclusive.
SprtResult sprt_decide(const SprtConfig& c, double llr);
// "sprt llr X lower L upper U result R".
std::string sprt_line(const SprtConfig& c, double llr, SprtResult r);

}  // namespace vzero
