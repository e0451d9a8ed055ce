// Bradley-Terry ratings by Newton's method on the pairwise outcomes.
#include "match/ratings.h"

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "util/error.h"

namespace vzero {

namespace {

const double kScale = std::log(10.0) / 400.0;  // logistic units per Elo
constexpr double kZ95 = 1.959963984540054;

// The weighted outcomes between two players i < j.
struct Meeting {
  int i = 0, j = 0;
  double weight = 0.0;  // pairwise games (with the prior's draws)
  double points = 0.0;  // i's points among them
};

double log_sigmoid(double x) {
  return x >= 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
}

// Log-likelihood of ratings r (Elo) under the meetings of one group; `at` maps a player to its
// place in r.
double log_likelihood(const std::vector<Meeting>& meetings, const std::vector<int>& at,
                      const Eigen::VectorXd& r) {
  double sum = 0.0;
  for (const Meeting& m : meetings) {
    const double d = kScale * (r[at[m.i]] - r[at[m.j]]);
    sum += m.points * log_sigmoid(d) + (m.weight - m.points) * log_sigmoid(-d);
  }
  return sum;
}

using SparseMatrix = Eigen::SparseMatrix<double>;

// Gradient and information matrix (the negative Hessian) in Elo units, the
// matrix without row and column `ref` (the player held fixed). Sparse: a
// player has entries only for the opponents he met, so that a loop's ladder
// of thousands of generations fits in memory that grows with its games, not
// with the square of its players.
void derivatives(const std::vector<Meeting>& meetings, const std::vector<int>& at,
                 const Eigen::VectorXd& r, int ref, Eigen::VectorXd& gradient,
                 SparseMatrix& information) {
  const int n = int(r.size());
  gradient.setZero(n);
  // Row or column of player a in the reduced matrix; -1 for ref.
  const auto reduced = [ref](int a) { return a == ref ? -1 : a < ref ? a : a - 1; };
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(meetings.size() * 4);
  for (const Meeting& m : meetings) {
    const int a = at[m.i], b = at[m.j];
    const double p = 1.0 / (1.0 + std::exp(-kScale * (r[a] - r[b])));
    const double g = kScale * (m.points - m.weight * p),
                 h = kScale * kScale * m.weight * p * (1.0 - p);
    gradient[a] += g;
    gradient[b] -= g;
    const int ra = reduced(a), rb = reduced(b);
    if (ra >= 0) entries.emplace_back(ra, ra, h);
    if (rb >= 0) entries.emplace_back(rb, rb, h);
    if (ra >= 0 && rb >= 0) {
      entries.emplace_back(ra, rb, -h);
      entries.emplace_back(rb, ra, -h);
    }
  }
  information.resize(n - 1, n - 1);
  information.setFromTriplets(entries.begin(), entries.end());  // sums duplicates
}

// v without entry k.
Eigen::VectorXd without(const Eigen::VectorXd& v, int k) {
  Eigen::VectorXd out(v.size() - 1);
  for (int a = 0, ra = 0; a < v.size(); ++a)
    if (a != k) out[ra++] = v[a];
  return out;
}

// v with a 0 put in at place k.
Eigen::VectorXd with_zero(const Eigen::VectorXd& v, int k) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(v.size() + 1);
  for (int a = 0, ra = 0; a < out.size(); ++a)
    if (a != k) out[a] = v[ra++];
  return out;
}

// Factors a reduced information matrix; throws Error when it is not positive definite.
void factor(Eigen::SimplicialLDLT<SparseMatrix>& ldlt, const SparseMatrix& information) {
  ldlt.compute(information);
  check(ldlt.info() == Eigen::Success, "ratings: the information matrix is singular");
}

// Maximum-likelihood ratings of one group with player `ref` held at 0.
Eigen::VectorXd newton(const std::vector<Meeting>& meetings, const std::vector<int>& at, int size,
                       int ref) {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(size), g;
  SparseMatrix info;
  Eigen::SimplicialLDLT<SparseMatrix> ldlt;
  double current = log_likelihood(meetings, at, r);
  for (int it = 0; it < 200; ++it) {
    derivatives(meetings, at, r, ref, g, info);
    factor(ldlt, info);
    const Eigen::VectorXd step = with_zero(ldlt.solve(without(g, ref)), ref);
    double t = 1.0, next = log_likelihood(meetings, at, r + step);
    while (next < current - 1e-12 && t > 1e-6) {  // halve until the likelihood does not fall
      t /= 2;
      next = log_likelihood(meetings, at, r + t * step);
    }
    r += t * step;
    current = next;
    if ((t * step).cwiseAbs().maxCoeff() < 1e-7) break;
  }
  return r;
}

// Variances of the ratings r (fitted with `ref` held at 0): relative to ref
// where `anchored`, else relative to the group's mean (the diagonal of the
// information matrix's pseudo-inverse, P C P with C the inverse of the matrix
// without ref, padded with zeros, and P = I - 11'/n). One solve per player:
// memory grows with the games, not with the square of the players.
Eigen::VectorXd variances(const std::vector<Meeting>& meetings, const std::vector<int>& at,
                          const Eigen::VectorXd& r, int ref, bool anchored) {
  const int n = int(r.size());
  Eigen::VectorXd g;
  SparseMatrix info;
  derivatives(meetings, at, r, ref, g, info);
  Eigen::SimplicialLDLT<SparseMatrix> ldlt;
  factor(ldlt, info);
  Eigen::VectorXd diagonal = Eigen::VectorXd::Zero(n - 1), unit = Eigen::VectorXd::Zero(n - 1);
  for (int k = 0; k < n - 1; ++k) {
    unit[k] = 1.0;
    diagonal[k] = ldlt.solve(unit)[k];
    unit[k] = 0.0;
  }
  Eigen::VectorXd var = with_zero(diagonal, ref);
  if (anchored) return var;
  const Eigen::VectorXd c1 = with_zero(ldlt.solve(Eigen::VectorXd::Ones(n - 1)), ref);  // C 1
  const double total = c1.sum();                                                        // 1' C 1
  for (int k = 0; k < n; ++k) var[k] += -2.0 * c1[k] / n + total / (double(n) * n);
  return var;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::pair<std::string, double> parse_anchor(const std::string& text) {
  const size_t eq = text.rfind('=');
  check(eq != std::string::npos && eq > 0 && eq + 1 < text.size(),
        "anchor '" + text + "' is not PLAYER=ELO");
  const std::string value = text.substr(eq + 1);
  try {
    size_t used = 0;
    const double elo = std::stod(value, &used);
    if (used == value.size() && std::isfinite(elo) && std::abs(elo) <= 100000)
      return {text.substr(0, eq), elo};
  } catch (const std::exception&) {
  }
  throw Error("anchor '" + text + "': the Elo is not a number in [-100000, 100000]");
}

int PairwiseResults::id_of(const std::string& name) {
  auto [it, fresh] = id_.emplace(name, int(names_.size()));
  if (fresh) {
    names_.push_back(name);
    played_.push_back(0);
    points_.push_back(0.0);
    weight_.push_back(0.0);
  }
  return it->second;
}

void PairwiseResults::add(const MatchRecord& g) {
  const int n = int(g.players.size());
  std::set<int> in_game;
  for (const std::string& p : g.players) in_game.insert(id_of(p));
  for (int p : in_game) ++played_[p];
  for (int s = 0; s < n; ++s)
    for (int t = s + 1; t < n; ++t) {
      int a = id_of(g.players[s]), b = id_of(g.players[t]);
      if (a == b) continue;
      double score = g.result[s] > g.result[t] ? 1.0 : g.result[s] < g.result[t] ? 0.0 : 0.5;
      if (a > b) std::swap(a, b), score = 1.0 - score;
      const double w = 1.0 / (n - 1);
      Pair& m = meetings_[{a, b}];
      m.weight += w;
      m.points += w * score;
      points_[a] += w * score, weight_[a] += w;
      points_[b] += w * (1.0 - score), weight_[b] += w;
    }
}

RatingsTable fit_ratings(const std::vector<MatchRecord>& games, const RatingsOptions& options) {
  PairwiseResults results;
  for (const MatchRecord& g : games) results.add(g);
  return results.fit(options);
}

RatingsTable PairwiseResults::fit(const RatingsOptions& options) const {
  check(options.prior_draws > 0 && options.prior_draws <= 1000,
        "ratings: the prior must be in (0, 1000] draws");
  check(
      !options.anchor || id_.count(options.anchor->first),
      "ratings: the anchor '" + (options.anchor ? options.anchor->first : "") + "' played no game");

  // Groups of players linked by games (union-find).
  const int players = int(names_.size());
  std::vector<int> parent(players);
  std::iota(parent.begin(), parent.end(), 0);
  const std::function<int(int)> root = [&](int x) {
    return parent[x] == x ? x : parent[x] = root(parent[x]);
  };
  std::vector<Meeting> meetings;
  for (const auto& [key, pair] : meetings_) {
    Meeting m;
    m.i = key.first, m.j = key.second;
    m.weight = pair.weight + options.prior_draws;
    m.points = pair.points + options.prior_draws / 2.0;
    meetings.push_back(m);
    parent[root(m.i)] = root(m.j);
  }
  std::map<int, std::vector<int>> groups;  // by root, players in first-seen order
  for (int p = 0; p < players; ++p) groups[root(p)].push_back(p);

  const size_t rated_groups = std::count_if(groups.begin(), groups.end(),
                                            [](const auto& g) { return g.second.size() > 1; });
  RatingsTable table;
  char buf[300];
  const int anchor = options.anchor ? id_.at(options.anchor->first) : -1;
  int group_number = 0;
  for (const auto& [group_root, members] : groups) {
    if (members.size() == 1) {
      table.notes.push_back("player " + names_[members[0]] +
                            " played no game against another player: not rated");
      continue;
    }
    const int m = int(members.size());
    std::vector<int> at(players, -1);
    for (int k = 0; k < m; ++k) at[members[k]] = k;
    std::vector<Meeting> mine;
    for (const Meeting& x : meetings)
      if (at[x.i] >= 0) mine.push_back(x);
    const bool anchored = anchor >= 0 && at[anchor] >= 0;
    const int ref = anchored ? at[anchor] : 0;
    Eigen::VectorXd r = newton(mine, at, m, ref);
    const Eigen::VectorXd var = variances(mine, at, r, ref, anchored);
    if (anchored)
      r.array() += options.anchor->second - r[ref];
    else
      r.array() -= r.mean();
    if (rated_groups > 1 || (anchor >= 0 && !anchored)) {
      std::vector<std::string> who;
      for (int p : members) who.push_back(names_[p]);
      table.notes.push_back("group " + std::to_string(group_number) + " (" + join(who) +
                            ") never met the other players: " +
                            (anchored ? "anchored" : "Elo relative to its own mean") +
                            ", comparable only within it");
    }
    for (int k = 0; k < m; ++k) {
      const int p = members[k];
      Rating row;
      row.player = names_[p];
      row.games = played_[p];
      row.score = weight_[p] > 0 ? points_[p] / weight_[p] : 0.0;
      row.elo = r[k];
      row.margin = kZ95 * std::sqrt(std::max(0.0, var[k]));
      row.group = group_number;
      table.rows.push_back(row);
      if (points_[p] == 0.0 || points_[p] == weight_[p]) {
        std::snprintf(
            buf, sizeof buf,
            "player %s %s every game: its Elo rests on the prior (%g virtual draws per opponent)",
            names_[p].c_str(), points_[p] == 0.0 ? "lost" : "won", options.prior_draws);
        table.notes.push_back(buf);
      }
    }
    ++group_number;
  }
  std::stable_sort(table.rows.begin(), table.rows.end(),
                   [](const Rating& a, const Rating& b) { return a.elo > b.elo; });
  return table;
}

std::string RatingsTable::text() const {
  size_t width = 6;
  for (const Rating& r : rows) width = std::max(width, r.player.size());
  std::string out;
  char buf[400];
  std::snprintf(buf, sizeof buf, "%4s  %-*s %6s %6s %8s %6s\n", "rank", int(width), "player",
                "games", "score", "elo", "+-");
  out += buf;
  for (size_t k = 0; k < rows.size(); ++k) {
    const Rating& r = rows[k];
    std::snprintf(buf, sizeof buf, "%4zu  %-*s %6d %6.3f %8.1f %6.1f\n", k + 1, int(width),
                  r.player.c_str(), r.games, r.score, r.elo, r.margin);
    out += buf;
  }
  return out;
}

std::string RatingsTable::csv() const {
  std::string out = "rank,player,games,score,elo,margin\n";
  char buf[100];
  for (size_t k = 0; k < rows.size(); ++k) {
    const Rating& r = rows[k];
    std::string name = r.player;
    if (name.find_first_of(",\"") != std::string::npos) {
      std::string quoted = "\"";
      for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      name = quoted + "\"";
    }
    std::snprintf(buf, sizeof buf, ",%d,%.4f,%.2f,%.2f\n", r.games, r.score, r.elo, r.margin);
    out += std::to_string(k + 1) + "," + name + buf;
  }
  return out;
}

}  // namespace vzero
