// Match statistics: intervals by the normal approximation (Wilson-style),
// and the GSPRT of Van den Bergh ("Comments on Normalized Elo"): the
// log-likelihood ratio of the two maximum-likelihood distributions of the
// observed outcome categories that satisfy H1 and H0.
#include "match/match_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "match/players.h"
#include "util/error.h"

namespace vzero {

namespace {

constexpr double kZ95 = 1.959963984540054;
const double kNeloScale = 800.0 / std::log(10.0);  // normalised Elo per unit of (score - 1/2) / sd

// Category scores and their observed frequencies (counts as given).
struct Sample {
  std::vector<double> score, count;
  double total() const {
    double n = 0;
    for (double c : count) n += c;
    return n;
  }
};

Sample sample_of(const Trinomial& t) {
  return {{0.0, 0.5, 1.0}, {double(t.losses), double(t.draws), double(t.wins)}};
}
Sample sample_of(const Pentanomial& p) {
  Sample s{{0.0, 0.25, 0.5, 0.75, 1.0}, {}};
  for (int k = 0; k < 5; ++k) s.count.push_back(p.pairs[k]);
  return s;
}

// Mean and variance of the scores under probabilities p.
std::pair<double, double> moments(const std::vector<double>& score, const std::vector<double>& p) {
  double mu = 0.0, var = 0.0;
  for (size_t i = 0; i < p.size(); ++i) mu += p[i] * score[i];
  for (size_t i = 0; i < p.size(); ++i) var += p[i] * (score[i] - mu) * (score[i] - mu);
  return {mu, var};
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The estimate of a sample of n independent units, each scoring in [0, 1]
// (a game, or a pair as its mean), over `games` games.
EloEstimate estimate(const Sample& s, int games, bool paired) {
  EloEstimate e;
  e.paired = paired;
  const double n = s.total();
  if (n <= 0) return e;
  std::vector<double> q;
  for (double c : s.count) q.push_back(c / n);
  const auto [mu, var] = moments(s.score, q);
  e.score = mu;
  // Wilson-style 95% interval with the observed variance: finite and
  // non-degenerate at a clean sweep.
  const double z2n = kZ95 * kZ95 / n;
  const double centre = (mu + z2n / 2.0) / (1.0 + z2n);
  const double half = kZ95 * std::sqrt(var / n + z2n / (4.0 * n)) / (1.0 + z2n);
  e.score_lo = std::max(0.0, centre - half);
  e.score_hi = std::min(1.0, centre + half);
  const double lo_s = 0.5 / games, hi_s = 1.0 - 0.5 / games;  // half a game from the ends
  e.elo = elo_of_score(std::clamp(mu, lo_s, hi_s));
  e.margin = (elo_of_score(std::clamp(e.score_hi, lo_s, hi_s)) -
              elo_of_score(std::clamp(e.score_lo, lo_s, hi_s))) /
             2.0;
  // LOS with the variance about 1/2 (for games: the classic (W - L) / sqrt(W + L)).
  double var_half = 0.0;
  for (size_t i = 0; i < q.size(); ++i) var_half += q[i] * (s.score[i] - 0.5) * (s.score[i] - 0.5);
  e.los = var_half > 0 ? normal_cdf((mu - 0.5) / std::sqrt(var_half / n)) : 0.5;
  e.sd = std::sqrt(paired ? 2.0 * var : var);
  e.nelo = e.sd > 0 ? (mu - 0.5) / e.sd * kNeloScale : 0.0;
  return e;
}

// The distribution closest to q (most likely given the sample) with
// sum p_i phi_i = 0: p_i = q_i / (1 + theta phi_i), theta found by bisection.
std::vector<double> tilt(const std::vector<double>& q, const std::vector<double>& phi) {
  const double lo_phi = *std::min_element(phi.begin(), phi.end());
  const double hi_phi = *std::max_element(phi.begin(), phi.end());
  check(lo_phi < 0.0 && hi_phi > 0.0, "sprt: the hypothesis lies outside the possible scores");
  double lo = -1.0 / hi_phi, hi = -1.0 / lo_phi;  // 1 + theta phi_i > 0 strictly inside
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    double f = 0.0;  // decreasing in theta
    for (size_t i = 0; i < q.size(); ++i) f += q[i] * phi[i] / (1.0 + mid * phi[i]);
    (f > 0.0 ? lo : hi) = mid;
  }
  const double theta = 0.5 * (lo + hi);
  std::vector<double> p(q.size());
  for (size_t i = 0; i < q.size(); ++i) p[i] = q[i] / (1.0 + theta * phi[i]);
  return p;
}

// The most likely distribution with mean score s.
std::vector<double> mle_logistic(const Sample& s, const std::vector<double>& q, double mean) {
  std::vector<double> phi;
  for (double a : s.score) phi.push_back(a - mean);
  return tilt(q, phi);
}

// The most likely distribution with (mean - 1/2) / sd = t, by the fixed
// point iteration of Van den Bergh (section 4.1), started from uniform.
std::vector<double> mle_normalized(const Sample& s, const std::vector<double>& q, double t) {
  std::vector<double> p(q.size(), 1.0 / q.size()), phi(q.size());
  for (int it = 0; it < 2000; ++it) {
    const auto [mu, var] = moments(s.score, p);
    const double sd = std::sqrt(var);
    for (size_t i = 0; i < q.size(); ++i) {
      const double d = (s.score[i] - mu) / sd;
      phi[i] = s.score[i] - 0.5 - 0.5 * t * sd * (1.0 + d * d);
    }
    const std::vector<double> next = tilt(q, phi);
    double change = 0.0;
    for (size_t i = 0; i < q.size(); ++i) change = std::max(change, std::abs(next[i] - p[i]));
    p = next;
    if (change < 1e-10) break;
  }
  return p;
}

double llr(const SprtConfig& c, const Sample& s, bool paired) {
  Sample r = s;
  for (double& n : r.count) n = n > 0 ? n : 1e-3;  // as fishtest: empty categories count a little
  const double n = r.total();
  std::vector<double> q;
  for (double x : r.count) q.push_back(x / n);
  std::vector<double> p0, p1;
  if (c.normalized) {
    const double unit = (paired ? std::sqrt(2.0) : 1.0) / kNeloScale;  // t per normalised Elo
    p0 = mle_normalized(r, q, c.elo0 * unit);
    p1 = mle_normalized(r, q, c.elo1 * unit);
  } else {
    p0 = mle_logistic(r, q, score_of_elo(c.elo0));
    p1 = mle_logistic(r, q, score_of_elo(c.elo1));
  }
  double sum = 0.0;
  for (size_t i = 0; i < q.size(); ++i) sum += q[i] * (std::log(p1[i]) - std::log(p0[i]));
  return n * sum;
}

double number(const std::string& key, const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  throw Error("sprt: " + key + " '" + text + "' is not a number");
}

}  // namespace

void Trinomial::add(double score) { (score >= 1.0 ? wins : score <= 0.0 ? losses : draws) += 1; }

int Pentanomial::count() const {
  int n = 0;
  for (int k : pairs) n += k;
  return n;
}

void Pentanomial::add(double first, double second) {
  ++pairs[int(std::lround(2.0 * (first + second)))];
}

EloEstimate estimate_trinomial(const Trinomial& t) {
  return estimate(sample_of(t), t.games(), false);
}
EloEstimate estimate_pentanomial(const Pentanomial& p) {
  return estimate(sample_of(p), 2 * p.count(), true);
}

double elo_of_score(double score) {
  const double s = std::clamp(score, 1e-9, 1.0 - 1e-9);
  return std::clamp(-400.0 * std::log10(1.0 / s - 1.0), -1200.0, 1200.0);
}

double score_of_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double SprtConfig::lower() const { return std::log(beta / (1.0 - alpha)); }
double SprtConfig::upper() const { return std::log((1.0 - beta) / alpha); }

SprtConfig parse_sprt(const std::string& text) {
  SprtConfig c;
  SpecOptions o = parse_spec_options(text);
  bool has0 = false, has1 = false;
  for (const auto& [key, value] : o.items) {
    if (key == "elo0")
      c.elo0 = number(key, value), has0 = true;
    else if (key == "elo1")
      c.elo1 = number(key, value), has1 = true;
    else if (key == "alpha")
      c.alpha = number(key, value);
    else if (key == "beta")
      c.beta = number(key, value);
    else if (key == "model") {
      check(value == "normalized" || value == "logistic",
            "sprt: model must be normalized or logistic");
      c.normalized = value == "normalized";
    } else {
      throw Error("sprt: unknown key '" + key + "' (expected elo0, elo1, alpha, beta, model)");
    }
  }
  check(has0 && has1, "sprt: needs elo0=A,elo1=B");
  check(c.elo0 < c.elo1, "sprt: elo0 must be less than elo1");
  // The normalised model's solver starts from a uniform distribution, which
  // reaches every sample only for moderate bounds (normalised Elo is small by nature).
  const double limit = c.normalized ? 200 : 1000;
  check(c.elo0 >= -limit && c.elo1 <= limit,
        c.normalized ? "sprt: with model=normalized, elo0 and elo1 must lie in [-200, 200] "
                       "(model=logistic allows more)"
                     : "sprt: elo0 and elo1 must lie in [-1000, 1000]");
  check(c.alpha > 0 && c.alpha < 0.5 && c.beta > 0 && c.beta < 0.5,
        "sprt: alpha and beta must lie in (0, 0.5)");
  return c;
}

const char* sprt_result_name(SprtResult r) {
  return r == SprtResult::kH0 ? "H0" : r == SprtResult::kH1 ? "H1" : "inconclusive";
}

double sprt_llr(const SprtConfig& c, const Pentanomial& p) { return llr(c, sample_of(p), true); }
double sprt_llr(const SprtConfig& c, const Trinomial& t) { return llr(c, sample_of(t), false); }

SprtResult sprt_decide(const SprtConfig& c, double llr) {
  return llr >= c.upper()   ? SprtResult::kH1
         : llr <= c.lower() ? SprtResult::kH0
                            : SprtResult::kInconclusive;
}

std::string sprt_line(const SprtConfig& c, double llr, SprtResult r) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "sprt llr %.3f lower %.3f upper %.3f result %s", llr, c.lower(),
                c.upper(), sprt_result_name(r));
  return buf;
}

}  // namespace vzero
