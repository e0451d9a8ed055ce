// Match statistics against hand-computed cases and reference LLRs.
#include <catch.hpp>
#include <cmath>

#include "game/zobrist.h"
#include "match/match_stats.h"

using namespace vzero;

namespace {

// Checks an estimate's score interval, Elo, margin and LOS against hand-computed values (to 1e-4).
void check_by_hand(const EloEstimate& e, double score_lo, double score_hi, double elo,
                   double margin, double los) {
  CHECK(e.score_lo == Approx(score_lo).epsilon(1e-4));
  CHECK(e.score_hi == Approx(score_hi).epsilon(1e-4));
  CHECK(e.elo == Approx(elo).epsilon(1e-4));
  CHECK(e.margin == Approx(margin).epsilon(1e-4));
  CHECK(e.los == Approx(los).epsilon(1e-4));
}

}  // namespace

TEST_CASE("stats: a trinomial sample by hand", "[stats]") {
  // W 6, D 2, L 2: mean 0.7, variance (6*0.09 + 2*0.04 + 2*0.49) / 10 = 0.16;
  // Wilson-style centre (0.7 + z^2/20) / (1 + z^2/10), half-width
  // z sqrt(0.016 + z^2/400) / (1 + z^2/10) with z = 1.96: [0.41792, 0.87107];
  // Elo -400 log10(1/0.7 - 1) = 147.19; LOS = Phi((W - L) / sqrt(W + L)) = Phi(sqrt 2).
  Trinomial t;
  for (double s : {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0}) t.add(s);
  CHECK(t.wins == 6);
  CHECK(t.draws == 2);
  CHECK(t.losses == 2);
  const EloEstimate e = estimate_trinomial(t);
  CHECK_FALSE(e.paired);
  CHECK(e.score == Approx(0.7));
  check_by_hand(e, 0.41792, 0.87107, 147.19, 194.72, 0.92135);
  CHECK(e.sd == Approx(0.4));
  CHECK(e.nelo == Approx(0.2 / 0.4 * 800 / std::log(10.0)).epsilon(1e-9));
}

TEST_CASE("stats: a pentanomial sample by hand", "[stats]") {
  // Pairs scoring 0, 0.5, 1, 1.5, 2: 0, 1, 3, 4, 2 (10 pairs, 20 games).
  // Per pair (as a mean score) 0.25, 0.5, 0.75, 1: mean 6.75 / 10 = 0.675,
  // variance 0.050625; interval [0.45495, 0.79792]; Elo 126.97, +- 134.98;
  // LOS Phi(0.175 / sqrt(0.06875 / 10)) = 0.97390.
  Pentanomial p;
  p.add(0.0, 0.5);
  for (int i = 0; i < 3; ++i) p.add(1.0, 0.0);
  for (int i = 0; i < 4; ++i) p.add(0.5, 1.0);
  for (int i = 0; i < 2; ++i) p.add(1.0, 1.0);
  CHECK(p.pairs == std::array<int, 5>{0, 1, 3, 4, 2});
  CHECK(p.count() == 10);
  const EloEstimate e = estimate_pentanomial(p);
  CHECK(e.paired);
  CHECK(e.score == Approx(0.675));
  check_by_hand(e, 0.45495, 0.79792, 126.97, 134.98, 0.97390);
  CHECK(e.sd == Approx(std::sqrt(2 * 0.050625)));
}

TEST_CASE("stats: a clean sweep stays finite", "[stats]") {
  Trinomial t;
  for (int i = 0; i < 10; ++i) t.add(1.0);
  const EloEstimate e = estimate_trinomial(t);
  // Half a game from the end: score 0.95 gives 511.5 Elo; the interval
  // [1 / (1 + z^2 / 10), 1] stays wide.
  CHECK(e.elo == Approx(511.50).epsilon(1e-4));
  CHECK(e.score_lo == Approx(0.72247).epsilon(1e-4));
  CHECK(e.margin == Approx(172.65).epsilon(1e-4));
  CHECK(std::isfinite(e.los));
  CHECK(e.nelo == 0.0);  // no variance: undefined, reported as 0
  const EloEstimate none = estimate_pentanomial(Pentanomial{});
  CHECK(none.score == 0.5);
  CHECK(none.elo == 0.0);
}

TEST_CASE("stats: Elo of a score and back", "[stats]") {
  CHECK(elo_of_score(0.5) == Approx(0.0).margin(1e-9));
  CHECK(elo_of_score(0.75) == Approx(190.85).epsilon(1e-3));
  CHECK(elo_of_score(0.25) == Approx(-190.85).epsilon(1e-3));
  CHECK(score_of_elo(elo_of_score(0.3)) == Approx(0.3));
  CHECK(elo_of_score(1.0) == 1200.0);
}

// Reference LLRs as fishtest computes them (the figures fastchess's tests
// check, to 0.01). Pentanomial counts: LL, LD, WL + DD, WD, WW.
TEST_CASE("sprt: log-likelihood ratios match the reference", "[stats]") {
  const auto tri = [](int w, int l, int d) {
    Trinomial t;
    t.wins = w, t.losses = l, t.draws = d;
    return t;
  };
  const auto penta = [](int ll, int ld, int wl, int dd, int wd, int ww) {
    Pentanomial p;
    p.pairs = {ll, ld, wl + dd, wd, ww};
    return p;
  };
  const auto config = [](double elo0, double elo1, bool normalized) {
    SprtConfig c;
    c.elo0 = elo0, c.elo1 = elo1, c.normalized = normalized;
    return c;
  };
  CHECK(sprt_llr(config(0, 2, true), tri(36433, 36027, 68692)) == Approx(0.92).margin(0.01));
  CHECK(sprt_llr(config(-1.75, 0.25, true), tri(10871, 10650, 20431)) == Approx(2.30).margin(0.01));
  CHECK(sprt_llr(config(0.5, 2.5, false), tri(21404, 21184, 40708)) == Approx(-1.57).margin(0.01));
  CHECK(sprt_llr(config(0, 2, false), tri(57433, 57030, 106593)) == Approx(-2.59).margin(0.01));
  CHECK(sprt_llr(config(0, 2, true), penta(365, 16618, 36029, 200, 16974, 390)) ==
        Approx(2.25).margin(0.01));
  CHECK(sprt_llr(config(-1.75, 0.25, true), penta(127, 4883, 10311, 401, 5150, 104)) ==
        Approx(3.01).margin(0.01));
  CHECK(sprt_llr(config(0.5, 2.5, false), penta(223, 9863, 20279, 1000, 10037, 246)) ==
        Approx(-3.07).margin(0.01));
  CHECK(sprt_llr(config(0, 2, false), penta(871, 26175, 55003, 980, 26678, 821)) ==
        Approx(-4.98).margin(0.01));
}

TEST_CASE("sprt: small samples by hand", "[stats]") {
  // Logistic model, W 6 D 2 L 2, H0 elo 0 (s0 = 0.5), H1 elo 50
  // (s1 = 0.571463): the most likely distributions with those means are
  // q_i / (1 + theta (a_i - s)); computed independently: LLR 0.595564.
  Trinomial t;
  t.wins = 6, t.draws = 2, t.losses = 2;
  SprtConfig c;
  c.elo0 = 0, c.elo1 = 50, c.normalized = false;
  CHECK(sprt_llr(c, t) == Approx(0.595564).epsilon(1e-5));
  c.normalized = true;
  CHECK(sprt_llr(c, t) == Approx(0.540370).epsilon(1e-5));
  // All draws: H0 (elo 0) explains them exactly, so the ratio cannot favour H1.
  Trinomial draws;
  draws.draws = 1000;
  CHECK(sprt_llr(c, draws) < 0.0);
  // Bounds: log(0.05 / 0.95) and log(0.95 / 0.05).
  CHECK(c.lower() == Approx(-2.944439).epsilon(1e-6));
  CHECK(c.upper() == Approx(2.944439).epsilon(1e-6));
  CHECK(sprt_decide(c, 3.0) == SprtResult::kH1);
  CHECK(sprt_decide(c, -3.0) == SprtResult::kH0);
  CHECK(sprt_decide(c, 0.0) == SprtResult::kInconclusive);
  CHECK(sprt_line(c, 1.23456, SprtResult::kInconclusive) ==
        "sprt llr 1.235 lower -2.944 upper 2.944 result inconclusive");
}

TEST_CASE("sprt: options are read and checked", "[stats]") {
  const SprtConfig c = parse_sprt("elo0=0,elo1=50,alpha=0.01,beta=0.1,model=logistic");
  CHECK(c.elo0 == 0.0);
  CHECK(c.elo1 == 50.0);
  CHECK(c.alpha == 0.01);
  CHECK(c.beta == 0.1);
  CHECK_FALSE(c.normalized);
  CHECK(parse_sprt("elo0=-1,elo1=3").normalized);
  CHECK_THROWS_WITH(parse_sprt("elo0=5,elo1=5"), Catch::Contains("less than"));
  CHECK_THROWS_WITH(parse_sprt("elo1=5"), Catch::Contains("elo0=A,elo1=B"));
  CHECK_THROWS_WITH(parse_sprt("elo0=0,elo1=5,gamma=1"), Catch::Contains("unknown key 'gamma'"));
  CHECK_THROWS_WITH(parse_sprt("elo0=0,elo1=x"), Catch::Contains("not a number"));
  CHECK_THROWS_WITH(parse_sprt("elo0=0,elo1=5,alpha=0.7"), Catch::Contains("alpha"));
  CHECK_THROWS_WITH(parse_sprt("elo0=0,elo1=5,model=bayes"), Catch::Contains("model"));
  CHECK_THROWS_WITH(parse_sprt("elo0=0,elo1=400"), Catch::Contains("[-200, 200]"));
  CHECK(parse_sprt("elo0=0,elo1=400,model=logistic").elo1 == 400);
}

// Every small sample, even one outcome repeated, gives a finite ratio at
// the widest bounds each model allows.
TEST_CASE("sprt: extreme samples stay finite", "[stats]") {
  for (const char* text :
       {"elo0=-200,elo1=200", "elo0=-1000,elo1=1000,model=logistic", "elo0=0,elo1=5"}) {
    const SprtConfig c = parse_sprt(text);
    for (int code = 1; code < 4 * 4 * 4 * 4 * 4; ++code) {
      Pentanomial p;
      Trinomial t;
      for (int k = 0, rest = code; k < 5; ++k, rest /= 4)
        p.pairs[k] = std::array<int, 4>{0, 1, 3, 50}[rest % 4];
      t.losses = p.pairs[0], t.draws = p.pairs[1], t.wins = p.pairs[2];
      INFO(text << " " << p.pairs[0] << " " << p.pairs[1] << " " << p.pairs[2] << " " << p.pairs[3]
                << " " << p.pairs[4]);
      CHECK(std::isfinite(sprt_llr(c, p)));
      if (t.games() > 0) CHECK(std::isfinite(sprt_llr(c, t)));
    }
  }
}

// Simulated matches between equal players (pairs drawn from one seeded
// distribution): the test must seldom accept H1, and for a 100-Elo gap it
// must accept H1 nearly always.
TEST_CASE("sprt: error rates on simulated matches", "[stats]") {
  SprtConfig c = parse_sprt("elo0=0,elo1=50");
  uint64_t rng = 12345;
  const auto uniform = [&] { return (splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0); };
  // One game: win w, draw d, else loss, for A.
  const auto game = [&](double w, double d) {
    const double u = uniform();
    return u < w ? 1.0 : u < w + d ? 0.5 : 0.0;
  };
  const auto run = [&](double w, double d) {
    Pentanomial p;
    for (int pair = 0; pair < 5000; ++pair) {
      p.add(game(w, d), game(w, d));
      const SprtResult r = sprt_decide(c, sprt_llr(c, p));
      if (r != SprtResult::kInconclusive) return r;
    }
    return SprtResult::kInconclusive;
  };
  int equal_h1 = 0, strong_h1 = 0;
  const int runs = 100;
  for (int i = 0; i < runs; ++i) equal_h1 += run(0.3, 0.4) == SprtResult::kH1;
  // 100 Elo: score 0.64 with 40% draws.
  for (int i = 0; i < runs; ++i) strong_h1 += run(0.44, 0.4) == SprtResult::kH1;
  CHECK(equal_h1 <= 10);  // alpha is 5%
  CHECK(strong_h1 >= 95);
}
