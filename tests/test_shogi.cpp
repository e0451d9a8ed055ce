// Shogi and minishogi (rules/shogi.md): one test or more per rule id SH-1 to
// SH-14, perft against Debian's fairy-stockfish 11.1 and its text and FEN.
#include <algorithm>
#include <catch.hpp>
#include <set>
#include <sstream>

#include "game/builtin/games.h"
#include "tests/rules_test_util.h"
#include "util/error.h"

using namespace vzero::testing;

namespace {

std::unique_ptr<vzero::GameState> shogi(const std::string& fen = "") {
  return state_of("shogi", fen);
}

std::unique_ptr<vzero::GameState> minishogi(const std::string& fen = "") {
  return state_of("minishogi", fen);
}

// The squares the piece on `from` reaches (promotion or not), sorted.
Moves destinations(const vzero::GameState& s, const std::string& from) {
  std::set<std::string> to;
  for (const std::string& m : starting(s, from)) to.insert(m.substr(from.size(), 2));
  return Moves(to.begin(), to.end());
}

void plays(vzero::GameState& s, const std::string& moves) {
  std::istringstream in(moves);
  for (std::string m; in >> m;) s.apply(s.text_to_action(m));
}

void rejects(const char* variant, const std::string& fen) {
  INFO(variant << " '" << fen << "'");
  CHECK_THROWS_AS(vzero::game_by_id(variant).new_state(fen), vzero::Error);
}

// A perft reference: fairy-stockfish's count (`go perft`) and the pawn drops
// that mate among its leaves, which it generates (and scores as a loss for
// the dropper) but SH-10 forbids, so vzero counts nodes - pawn_drop_mates.
struct Row {
  const char* fen;
  int depth;
  uint64_t nodes;
  uint64_t pawn_drop_mates;
};

void check_rows(const char* variant, const Row* begin, const Row* end) {
  for (const Row* r = begin; r != end; ++r) {
    auto s = vzero::game_by_id(variant).new_state(r->fen);
    INFO(variant << " " << (*r->fen ? r->fen : "startpos") << " depth " << r->depth);
    CHECK(s->perft(r->depth) == r->nodes - r->pawn_drop_mates);
  }
}

// SH-14 from the starts, then positions of random games by fairy-stockfish
// (scripts/fairy-perft-rows.py VARIANT --positions 30 --depth 3 --seed 11 --checks 8).
// clang-format off
const Row kShogi[] = {
    {"", 1, 30, 0},
    {"", 2, 900, 0},
    {"", 3, 25470, 0},
    {"", 4, 719731, 0},
    {"1+P4b1b/l2kss2p/n3g1n+Pl/1p2gp2P/p1PGp4/P4PP2/LP+p1G1p1N/1+p1PKs1RL/1N3S1P1[r] b - - 1 61", 3, 235563, 0},  // promotion,hand,promoted
    {"r5bnl/l2skgs2/np1pppp1p/2pg3p1/pP1P1NP2/2P1PP1P1/P7P/1BGKR4/LNS2GS1L[] b - - 43 22", 3, 34110, 0},  // -
    {"2s1k2n+L/1l3gsb1/1p1p2pPp/2pgprP2/1n5p1/p1PPPG2P/1PS2LN1K/P5GSR/BN6L[pp] b - - 4 49", 3, 46594, 0},  // promotion,hand,promoted
    {"2G6/6s1L/1pkp1+P3/g1p1Np2l/pn4+rpP/L1P1+b1PPn/1PG1SRS1L/2G1P2Sp/2+p1K2Nb[ppp] b - - 1 67", 3, 151788, 0},  // promotion,hand,promoted
    {"1n1s1k2l/l1rgn1rbL/+N1pgPgpp1/3p1p3/1p3P3/2PP2PP1/PPK4+b1/LS6P/1s2G1+n2[PPPS] b - - 0 58", 3, 138878, 0},  // promotion,hand,promoted
    {"4k1g2/l1s4r1/ngn+S2nsl/1pp2ppPp/1r3P3/PPPP1SPGP/L1N1P3G/4K2+bL/2B4+p1[PPP] b - - 2 71", 3, 73400, 0},  // hand,promoted
    {"2s5l/1+P1pp3P/l1k3pg1/p2g1N1pp/1GnPBpsn1/Lp4SRG/4P1P2/2K5L/1+p1SB3r[Pnppp] w - - 4 88", 3, 316739, 0},  // promotion,hand,promoted
    {"ln6b/1s6r/1pg1s1p1n/p1ppk2gl/1P3p1pP/3SpPP2/P1PGS1NPL/3P1G3/LNB2KR2[pp] b - - 11 47", 3, 38672, 0},  // promotion,hand
    {"l2s1k2n/l2g3p1/rNns1g1b1/1p3+R1Ll/5P2P/p1P1p1+pPK/N2P1G3/P1BS1GP1p/3s4+p[PPPP] w - - 5 76", 3, 111553, 0},  // promotion,hand,promoted
    {"1g1s1+P1r1/l2k3s1/1Pn1p4/p1g2+bP1l/1SppG2pp/PK1G5/B5nRL/Lp2S+pp2/1N5N1[ppppp] b - - 9 65", 3, 114557, 0},  // promotion,hand,promoted
    {"1+N4+N1S/1s3p2l/l6sn/ppP2PPPk/1P1p2G2/BKp1P2p1/PR4G1N/LG2+r1p1L/2BG2S2[PPPP] b - - 6 94", 3, 51329, 0},  // promotion,hand,promoted
    {"1n4snl/l1srg1k2/pp1+N4p/1B3pgp1/1Pp2P2P/P1PBP1P2/LRG2g1PL/6p1S/1KS4N1[Ppp] b - - 0 41", 3, 110095, 0},  // promotion,hand,promoted
    {"ln1G3n1/1s1pr1g2/1pP2P+Ps1/p4p1p1/1PpPp2k1/PG2P+b3/N1N1RS1+bl/l1G5P/L1SK5[ppp] w - - 6 44", 3, 110464, 0},  // promotion,hand,promoted
    {"lns1k1s2/r2g5/p1ppp1npl/1p3pg1p/5N2b/P1PP1P2P/LPNGP1pP1/1B1KS3L/2S1G2R1[p] w - - 34 26", 3, 30328, 0},  // promotion,hand
    {"2G2s3/1s2p2r1/r4N2l/p2p1b1pp/Ln1kL3G/5npP1/8P/1+p2GSP2/1+b1+n1K1GL[pppppppps] b - - 3 98", 3, 438865, 0},  // promotion,hand,promoted
    {"5kgnl/l1s1r2b1/n1b1ps1pp/3PP1pP1/Ppp1gNP2/2P4R1/1P2KP2P/L3G1S1L/1NS1G4[PPP] b - - 4 31", 3, 71173, 0},  // hand
    {"1n2k1g2/1g2ss1b1/l5nPl/pp1p4p/1PrPppPR1/2p2P2P/P1N2GN2/5SG+bL/L1K3S2[PPpp] w - - 0 57", 3, 85481, 0},  // promotion,hand,promoted
    {"1ns1p1s1l/3g3b1/1pp1P1n1k/l2P2gpp/p3SPp2/5GP2/PPP2r1PP/L3G1KR1/1NB3SNL[PP] w - - 8 40", 3, 39009, 0},  // promotion,hand
    {"4s4/p1Pp2k2/+R1nPgp1pl/1p2pgPsp/4PP2P/PPp3+nPL/LGN1G2N1/5+b2K/B1S1Rs3[LP] b - - 0 69", 3, 164515, 0},  // promotion,hand,promoted
    {"2g4s1/2r2k2l/l1p1s2p+R/1+P1p2gP1/Np1Pppb1P/NPP3p1L/+p1G1gPN2/1BS6/L2K1S3[nppp] b - - 2 45", 3, 246779, 1},  // promotion,hand,promoted, fairy-stockfish counts 1 pawn drop mate
    {"l4sknl/r2gg2s1/npN2p2P/3pp+B1p1/2p1P1PN1/p1PP+bP3/1P3G1P1/2RS4L/2G1K1S1L[Ppp] w - - 5 47", 3, 141655, 0},  // promotion,hand,promoted
    {"6+Nn1/l2ksn3/+P3g1+R2/2P1P3l/1ppPSRP1P/LP1G1P3/2B5L/1G4GP1/1s2SK1NB[PPPPPPP] b - - 7 81", 3, 53864, 0},  // promotion,hand,promoted
    {"4p2n1/2P1s1rb1/lp2Gn2+P/k1n1gp3/Psp4pL/1R2PPS2/1PB+p2lPP/K1S3P1p/4+n1GLG[pp] b - - 6 82", 3, 5371, 0},  // check,hand,promoted
    {"2rg2b1l/3ks1+PP1/lpsp1pP2/2p2g2p/pN5S1/1PPPp1K1P/P1B2P1GL/L2G2+r2/1SN4N1[NPp] w - - 12 53", 3, 15999, 0},  // check,hand,promoted
    {"3r2l1b/l2P1ks1l/pP+P4Nn/g1G1Ppp2/NNP3PpP/P4s3/1G1S1g3/+r1SB1K1+p+p/L8[PPpp] w - - 6 85", 3, 6172, 0},  // check,hand,promoted
    {"1n2k3l/l1gs1gs2/rpppp1bpp/p4pp2/9/1PbP4P/P3PPPPS/L1G2GR2/1NS2K1NL[Np] w - - 0 17", 3, 10091, 0},  // check,hand
    {"l1B5B/r3l1kS1/PNG1p1g2/1p2l3s/1NPP2ppp/1P2Ppg1l/3n1+p2N/p1S1R1G1P/4K4[PPPPS] w - - 5 75", 3, 12551, 0},  // check,hand,promoted
    {"lnB2s3/r2+S1gk1l/2pp1p2n/pp6p/P3GN1PP/L1PnP1R1G/2S1S2p1/8L/1B1PK4[GPPPpp] b - - 0 60", 3, 24453, 0},  // check,hand,promoted
    {"l1r3n1l/3+R1kbs1/n2B4p/P1ppp1pP1/L1PP5/1P3G2P/2G1P1n2/3KG4/2S1S3+n[GPPPPPPls] b - - 1 55", 3, 39954, 0},  // check,hand,promoted
    {"+Pp1lg2n1/pP1k2+N1l/L2BB3p/1sp2p1p1/4pSpPP/2Pp1gP1+s/5+r2N/P2R3SL/2G1K3N[Pgp] b - - 9 88", 3, 23900, 0},  // check,hand,promoted
};

const Row kMinishogi[] = {
    {"", 1, 14, 0},
    {"", 2, 181, 0},
    {"", 3, 2512, 0},
    {"", 4, 35401, 0},
    {"", 5, 533203, 0},
    {"2k2/g2rg/SRp2/2+bbp/K4[s] b - - 5 32", 3, 7760, 0},  // promotion,hand,promoted
    {"rb2k/1s2g/1B3/PK1P1/1G+r2[s] w - - 0 5", 3, 1761, 0},  // check,hand,promoted
    {"1B1G1/SkgP1/s4/P1b2/K3R[r] b - - 3 30", 3, 8563, 0},  // promotion,hand
    {"1bk2/P1g1R/1s1P1/1SB2/KGr2[] b - - 2 8", 3, 4898, 18},  // promotion, fairy-stockfish counts 18 pawn drop mates
    {"+PGR2/1+S2k/K2g1/R1S2/B2+pb[] w - - 2 59", 3, 6727, 0},  // promotion,promoted
    {"3bk/r2g1/s1P1r/p1+B2/1KS2[G] b - - 0 21", 3, 7349, 0},  // promotion,hand,promoted
    {"1+B1sk/G2gr/P1B2/K2+s+p/1R3[] w - - 5 38", 3, 6137, 0},  // promotion,promoted
    {"5/bk1G1/p3s/GPB2/1K1RR[S] b - - 4 30", 3, 3723, 0},  // hand
    {"1+B+SSk/PR2B/5/1G3/1KR1+p[G] w - - 1 38", 3, 2824, 0},  // promotion,hand,promoted
    {"g1rk1/3P1/1r1B1/S4/1gsKB[p] b - - 2 51", 3, 1123, 0},  // check,hand
    {"r1p2/b1k2/G2s1/1SBr1/K2P1[G] b - - 0 19", 3, 4815, 0},  // promotion,hand
    {"3gk/P1S1R/2g1p/4S/K4[Brb] b - - 2 32", 3, 2364, 0},  // check,hand
    {"+R1+BBk/4p/P1gg1/1r1S1/K2s1[] b - - 4 19", 3, 7965, 0},  // promotion,promoted
    {"3k1/1g1s+b/3Rp/1B3/+pKRS1[G] w - - 5 23", 3, 1157, 0},  // check,hand,promoted
    {"4k/g2sp/1G3/K1+B1r/3+p1[Rsb] b - - 1 17", 3, 41685, 0},  // promotion,hand,promoted
    {"2kS1/3s1/2+rg1/PPR1b/K1BG1[] w - - 8 51", 3, 2725, 0},  // promotion,promoted
    {"2sb1/+P1k1r/1gB2/4r/1K3[PSg] b - - 0 32", 3, 31424, 0},  // promotion,hand,promoted
    {"+P1k1s/g3p/RBr1s/2G1+b/K4[] w - - 7 43", 3, 5388, 0},  // promotion,promoted
    {"5/+R1skg/1R1g1/S1pBp/b2K1[] w - - 5 50", 3, 4431, 0},  // promotion,promoted
    {"Sbk+r1/r3g/SBp2/P4/K1G2[] w - - 5 11", 3, 4947, 0},  // promotion,promoted
    {"1Bg1k/1s2p/P4/1G3/K1S1R[RB] w - - 1 6", 3, 22367, 0},  // promotion,hand
    {"1sr+R1/3g1/2s1p/1GB2/K1k+p1[b] b - - 1 33", 3, 12218, 0},  // hand,promoted
    {"p1sgk/2+B1p/1b3/GS3/K3R[R] b - - 4 7", 3, 6794, 0},  // promotion,hand,promoted
    {"SbR2/4k/2gP1/2s1B/KG2+r[P] b - - 5 24", 3, 9353, 0},  // promotion,hand,promoted
    {"5/R1p1k/2r1p/SK2B/G2+s1[Gb] w - - 0 26", 3, 12387, 0},  // promotion,hand,promoted
    {"4k/g2r1/1r1Sp/2p1+b/K3S[gb] b - - 3 21", 3, 12291, 0},  // promotion,hand,promoted
    {"3SS/bK3/1b1R1/2g2/1G1k1[PPr] b - - 1 54", 3, 2729, 0},  // check,hand
    {"1bgk1/3Rr/PgS2/1PB2/K4[s] b - - 3 13", 3, 1406, 0},  // check,hand
    {"1gK1b/B4/2pR1/ks1rP/1gs2[] w - - 6 55", 3, 1262, 0},  // check,promotion
    {"kgp+Rg/s3p/1+b2b/1K3/S4[r] w - - 6 26", 3, 257, 0},  // check,hand,promoted
};

// clang-format on
const Row kDeep[] = {{"", 5, 19861490, 0}};
const Row kMinishogiDeep[] = {{"", 6, 8276188, 0}};

}  // namespace

TEST_CASE("SH-14 shogi perft matches fairy-stockfish", "[shogi][perft]") {
  check_rows("shogi", std::begin(kShogi), std::end(kShogi));
}

TEST_CASE("SH-14 minishogi perft matches fairy-stockfish", "[shogi][perft]") {
  check_rows("minishogi", std::begin(kMinishogi), std::end(kMinishogi));
}

TEST_CASE("SH-14 deep shogi and minishogi perft from the start", "[shogi][perft][slow]") {
  check_rows("shogi", std::begin(kDeep), std::end(kDeep));
  check_rows("minishogi", std::begin(kMinishogiDeep), std::end(kMinishogiDeep));
}

TEST_CASE("SH-1 SH-4 the starts: sente is 'w' and moves up the board", "[shogi][fen]") {
  CHECK(shogi()->fen() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1");
  CHECK(minishogi()->fen() == "rbsgk/4p/5/P4/KGSBR[] w - - 0 1");
  auto s = shogi();
  CHECK(s->current_player() == 0);
  CHECK(starting(*s, "e3") == Moves{"e3e4"});  // a1 is sente's left corner, rank 1 its side
  CHECK(starting(*minishogi(), "a2") == Moves{"a2a3"});
}

TEST_CASE("SH-2 FEN: letters, '+' for promoted pieces, hands in brackets, round trip",
          "[shogi][fen]") {
  // Fairy-Stockfish's own FEN (`d`) of positions of random games: read and written back alike.
  for (const Row& r : kShogi)
    if (*r.fen) CHECK(shogi(r.fen)->fen() == r.fen);
  for (const Row& r : kMinishogi)
    if (*r.fen) CHECK(minishogi(r.fen)->fen() == r.fen);
  // Hands are written in Fairy-Stockfish's order (G N L P S R B), sente's first.
  CHECK(shogi("4k4/9/9/9/9/9/9/9/4K4[PLNSGBRplnsgbr] w - - 0 1")->fen() ==
        "4k4/9/9/9/9/9/9/9/4K4[GNLPSRBgnlpsrb] w - - 0 1");
  CHECK(shogi("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1")->fen() == "4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1");
  auto p = shogi("4k4/9/9/9/4+p4/9/9/9/4K4[] b - - 0 1");
  CHECK(p->to_text().find("+p") != std::string::npos);
}

TEST_CASE("SH-2 SFEN is read too (sente 'b', counts in the hand, plies)", "[shogi][fen]") {
  CHECK(shogi("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")->fen() ==
        shogi()->fen());
  // As fairy-stockfish reads it (`position sfen ...`, then `d`).
  CHECK(shogi("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2Pl 10")->fen() ==
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[PPl] b - - 0 5");
  CHECK(minishogi("1b2k/2g2/g1pBp/1KR2/R2+s1 b S 31")->fen() ==
        "1b2k/2g2/g1pBp/1KR2/R2+s1[S] w - - 0 16");
}

TEST_CASE("SH-2 malformed FEN and SFEN are rejected", "[shogi][fen]") {
  rejects("shogi",
          "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN[] w - - 0 1");  // short rank
  rejects("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL[] w - - 0 1");  // +K
  rejects("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL[] w - - 0 1");  // +G
  rejects("shogi",
          "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+[] w - - 0 1");  // lone +
  rejects("shogi", "4k4/9/9/9/9/9/9/9/4K4[+P] w - - 0 1");    // a promoted piece in hand
  rejects("shogi", "4k4/9/9/9/9/9/9/9/4K4[K] w - - 0 1");     // a king in hand
  rejects("shogi", "4k4/9/9/9/9/9/9/9/4K4[Q] w - - 0 1");     // no such piece
  rejects("shogi", "4k4/9/9/9/9/9/4P4/4P4/4K4[] w - - 0 1");  // two unpromoted pawns on a file
  rejects("shogi", "4k3P/9/9/9/9/9/9/9/4K4[] w - - 0 1");     // a pawn that could never move
  rejects("shogi", "4k4/8N/9/9/9/9/9/9/4K4[] w - - 0 1");     // a knight that could never move
  rejects("shogi", "4k4/9/9/9/9/9/9/9/4K4[] w KQ - 0 1");     // no castling
  rejects("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1");  // SFEN side
  rejects("shogi",
          "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2 1");  // count alone
  rejects("shogi",
          "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1");  // zero count
  rejects("shogi",
          "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 99P 1");  // too many
  rejects("shogi",
          "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P* 1");  // bad letter
  rejects("minishogi", "rbsgk/4p/5/P4/KGSBR w - 1 extra");
}

TEST_CASE("SH-3 action texts are fairy-stockfish's UCI texts", "[shogi][actions]") {
  auto s = shogi();
  CHECK(has(*s, "h3h4"));
  play(*s, {"c3c4", "g7g6"});
  // Into the zone: promote ("+") or not (plain), as fairy-stockfish lists them.
  CHECK(starting(*s, "b2") ==
        Moves{"b2c3", "b2d4", "b2e5", "b2f6", "b2g7", "b2g7+", "b2h8", "b2h8+"});
  play(*s, {"b2h8+", "g9h8"});
  CHECK(s->fen() == "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w - - 0 3");
  CHECK(has(*s, "B@e5"));
  CHECK(starting(*s, "B@").size() == 43);  // fairy-stockfish: 43 bishop drops
  // A minishogi game by vzero's random player, replayed by fairy-stockfish
  // (`position startpos moves ...`, `d`): promotions, a promoted rook
  // captured and dropped again as a rook, drops and a check at the end.
  auto m = minishogi();
  plays(*m,
        "b1c2 a5a3 d1e2 a3a2 a1b1 c5d4 c2b3 a2c2 b3c3 c2c1+ e1c1 S@d3 b1a1 d3d2 c3d3 d2d1+ a1a2 "
        "P@c3 R@c2 "
        "e4e3 a2b2 d5c4 b2b1 c4b4 b1b2 d4d3 e2d3 G@c4 c1a1 b4a3");
  CHECK(m->fen() == "1b2k/2g2/g1pBp/1KR2/R2+s1[S] w - - 3 16");
  CHECK(m->to_text().find("(check)") != std::string::npos);
  // Texts of other variants and malformed ones are not actions here.
  for (const char* bad : {"h3h4q", "h3h4=", "h3h4++", "p@e5", "+P@e5", "h3h5"})
    CHECK_THROWS_AS(shogi()->text_to_action(bad), vzero::Error);
}

TEST_CASE("SH-5 each piece alone", "[shogi][pieces]") {
  // The kings (a8, i2) stand off every line through e5.
  const auto from_e5 = [](const char* row) {
    return destinations(*shogi(std::string("9/k8/9/9/") + row + "/9/9/8K/9[] w - - 0 1"), "e5");
  };
  CHECK(from_e5("4G4") == Moves{"d5", "d6", "e4", "e6", "f5", "f6"});
  CHECK(from_e5("4S4") == Moves{"d4", "d6", "e6", "f4", "f6"});
  CHECK(from_e5("4N4") == Moves{"d7", "f7"});
  CHECK(from_e5("4L4") == Moves{"e6", "e7", "e8", "e9"});
  CHECK(from_e5("4P4") == Moves{"e6"});
  CHECK(from_e5("4R4").size() == 16);
  CHECK(from_e5("4B4").size() == 16);
  auto k = shogi("9/k8/9/9/4K4/9/9/9/9[] w - - 0 1");
  CHECK(destinations(*k, "e5") == Moves{"d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"});
  // Gote's pieces move down the board.
  auto g = shogi("9/k8/9/9/4s4/9/9/8K/9[] b - - 0 1");
  CHECK(destinations(*g, "e5") == Moves{"d4", "d6", "e4", "f4", "f6"});
  auto n = shogi("9/k8/9/9/4n4/9/9/8K/9[] b - - 0 1");
  CHECK(destinations(*n, "e5") == Moves{"d3", "f3"});
}

TEST_CASE("SH-6 promoted pieces: gold moves, dragon and horse", "[shogi][pieces]") {
  const Moves gold{"d5", "d6", "e4", "e6", "f5", "f6"};
  for (const char* p : {"+S", "+N", "+L", "+P"}) {
    INFO(p);
    CHECK(destinations(*shogi(std::string("9/k8/9/9/4") + p + "4/9/9/8K/9[] w - - 0 1"), "e5") ==
          gold);
  }
  auto dragon = shogi("9/k8/9/9/4+R4/9/9/8K/9[] w - - 0 1");
  CHECK(destinations(*dragon, "e5").size() == 16 + 4);
  auto horse = shogi("9/k8/9/9/4+B4/9/9/8K/9[] w - - 0 1");
  CHECK(destinations(*horse, "e5").size() == 16 + 4);
  // A promoted piece never promotes again; king and gold never promote.
  auto z = shogi("8k/9/4+SG3/9/9/9/9/9/K8[] w - - 0 1");
  for (const std::string& m : starting(*z, "e7")) CHECK(m.back() != '+');
  for (const std::string& m : starting(*z, "f7")) CHECK(m.back() != '+');
  CHECK_THROWS_AS(z->text_to_action("f7f8+"), vzero::Error);
}

TEST_CASE("SH-7 promotion is optional for a move that starts or ends in the zone",
          "[shogi][promotion]") {
  auto s = shogi("8k/9/3S5/9/9/9/9/4R4/K8[] w - - 0 1");
  // d7 is in the zone: even the move out of it (d7c6) may promote.
  CHECK(starting(*s, "d7") ==
        Moves{"d7c6", "d7c6+", "d7c8", "d7c8+", "d7d8", "d7d8+", "d7e6", "d7e6+", "d7e8", "d7e8+"});
  // The rook may promote only on its moves into the zone (e7, e8, e9).
  int plus = 0;
  for (const std::string& m : starting(*s, "e2"))
    if (m.back() == '+') {
      CHECK(m[3] >= '7');
      ++plus;
    }
  CHECK(plus == 3);
  CHECK((has(*s, "e2e7") && has(*s, "e2e7+")));
  auto m = minishogi("4k/5/1S3/5/K4[] w - - 0 1");  // minishogi: the zone is the far rank
  CHECK(starting(*m, "b3") == Moves{"b3a2", "b3a4", "b3b4", "b3c2", "b3c4"});
  auto m2 = minishogi("4k/1S3/5/5/K4[] w - - 0 1");
  CHECK((has(*m2, "b4b5+") && has(*m2, "b4b5") && !has(*m2, "b4a3+")));
}

TEST_CASE("SH-8 promotion is compulsory where a piece could never move again",
          "[shogi][promotion]") {
  auto s = shogi("k8/4P4/9/4N4/2L6/9/9/9/8K[] w - - 0 1");
  CHECK(starting(*s, "e8") == Moves{"e8e9+"});
  CHECK(starting(*s, "e6") == Moves{"e6d8+", "e6f8+"});  // a knight on the last two ranks
  CHECK((has(*s, "c5c8") && has(*s, "c5c8+") && has(*s, "c5c9+") && !has(*s, "c5c9")));
  auto g = shogi("k8/9/9/9/9/4n4/9/9/8K[] b - - 0 1");  // gote's last ranks are 1 and 2
  CHECK(starting(*g, "e4") == Moves{"e4d2+", "e4f2+"});
  auto m = minishogi("4k/P4/5/5/4K[] w - - 0 1");
  CHECK(starting(*m, "a4") == Moves{"a4a5+"});
}

TEST_CASE("SH-9 captured pieces go to the captor's hand, unpromoted", "[shogi][drops]") {
  CHECK(fen_after(shogi("4k4/9/9/9/4+r4/9/9/4R4/K8[] w - - 0 1"), {"e2e5"}) ==
        "4k4/9/9/9/4R4/9/9/9/K8[R] b - - 0 1");
  CHECK(fen_after(shogi("4k4/9/9/9/9/9/9/4+p4/K3G4[] w - - 0 1"), {"e1e2"}) ==
        "4k4/9/9/9/9/9/9/4G4/K8[P] b - - 0 1");
}

TEST_CASE("SH-10 drops: any empty square, never where the piece could not move", "[shogi][drops]") {
  auto s = shogi("4k4/9/9/9/9/9/9/9/4K4[PLNS] w - - 0 1");
  CHECK(starting(*s, "S@").size() == 79);
  CHECK(starting(*s, "P@").size() == 79 - 8);  // not on the last rank (e9 is the king's)
  CHECK(starting(*s, "L@").size() == 79 - 8);
  CHECK(starting(*s, "N@").size() == 79 - 8 - 9);            // not on the last two ranks
  CHECK_THROWS_AS(s->text_to_action("S@e1"), vzero::Error);  // occupied
  auto g = shogi("4k4/9/9/9/9/9/9/9/4K4[p] b - - 0 1");
  CHECK((!has(*g, "P@a1") && has(*g, "P@a2")));  // gote's last rank is rank 1
}

TEST_CASE("SH-10 nifu: no pawn drop on a file with an own unpromoted pawn", "[shogi][drops]") {
  auto s = shogi("4k4/9/4p4/9/9/9/4P4/9/4K4[P] w - - 0 1");
  CHECK(!has(*s, "P@e5"));  // illegal: sente's pawn stands on e3
  CHECK(has(*s, "P@d5"));   // legal: another file
  // Gote's pawn on e7 and a tokin on the file do not count.
  auto t = shogi("4k4/9/4p4/9/9/9/9/4+P4/K8[P] w - - 0 1");
  CHECK(has(*t, "P@e5"));
  CHECK(starting(*t, "P@e").size() ==
        6);  // e1, e3..e6, e8 (e2 the tokin, e7 gote's pawn, e9 the last rank)
}

TEST_CASE("SH-10 uchifuzume: no pawn drop that mates; one that only checks is legal",
          "[shogi][drops]") {
  // Illegal: P@a8 checks the king on a9, which can neither take it (the gold
  // guards a8) nor step to b8 or b9 (gold, silver).
  auto mate = shogi("k8/2S6/1G7/9/9/9/9/9/8K[P] w - - 0 1");
  CHECK(!has(*mate, "P@a8"));
  CHECK(has(*mate, "P@a7"));
  // Legal: without the silver the king escapes to b9.
  auto check = shogi("k8/9/1G7/9/9/9/9/9/8K[P] w - - 0 1");
  CHECK(has(*check, "P@a8"));
  // Legal: a mate by a dropped gold is no pawn drop.
  auto gold = shogi("k8/2S6/1G7/9/9/9/9/9/8K[G] w - - 0 1");
  CHECK(has(*gold, "G@a8"));
  // Illegal too when the only piece that could take the pawn is pinned (the
  // gold on b1, by the rook on c1): fairy-stockfish 11.1 generates this drop
  // (and scores it lost for the dropper), so its perft counts one more here.
  auto pinned = minishogi("2k2/b1g1R/Ss1P1/2B2/KGr2[p] b - - 1 9");
  CHECK(!has(*pinned, "P@a2"));
  CHECK(pinned->perft(1) == 30 - 1);  // fairy-stockfish: 30
}

TEST_CASE("SH-11 checkmate wins; a side with no legal move loses (no stalemate draw)",
          "[shogi][end]") {
  auto mate = shogi("k8/1G7/1G7/9/9/9/9/9/8K[] b - - 0 1");
  check_ended(*mate, "checkmate");
  CHECK(mate->returns() == std::vector<double>{1.0, -1.0});
  // Gote's king on a9 is not in check but every step is covered.
  auto stalemate = shogi("k8/2G6/1S7/9/9/9/9/9/8K[] b - - 0 1");
  check_ended(*stalemate, "stalemate");
  CHECK(stalemate->returns() == std::vector<double>{1.0, -1.0});
  // A piece in hand to drop is a legal move.
  CHECK(!shogi("k8/2G6/1S7/9/9/9/9/9/8K[g] b - - 0 1")->is_terminal());
  // The king must not be left attacked.
  auto pin = shogi("4k4/9/9/9/9/9/4S4/9/4K4[] w - - 0 1");
  CHECK(starting(*pin, "e3").size() == 5);
  auto pinned = shogi("4k4/9/9/9/4r4/9/4S4/9/4K4[] w - - 0 1");
  CHECK(starting(*pinned, "e3") == Moves{"e3e4"});
}

TEST_CASE("SH-12 the fourth occurrence of a position is a draw", "[shogi][end]") {
  auto s = shogi("4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1");
  const std::string cycle = "e1e2 e9e8 e2e1 e8e9 ";
  plays(*s, cycle + cycle);
  CHECK(!s->is_terminal());  // the third occurrence
  plays(*s, cycle.substr(0, cycle.size() - 6));
  CHECK(!s->is_terminal());
  plays(*s, "e8e9");
  REQUIRE(s->is_terminal());
  CHECK(s->end_reason() == "repetition");
  CHECK(s->returns() == std::vector<double>{0.0, 0.0});
  // Hands count: the same board with another hand is another position.
  CHECK(shogi("4k4/9/9/9/9/9/9/9/4K4[P] w - - 0 1")->hash() !=
        shogi("4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1")->hash());
}

TEST_CASE("SH-12 perpetual check: the checker loses on the fourth occurrence", "[shogi][end]") {
  // Sente's rook checks on every move (a8a9, a9a8); gote's king steps e9-e8-e9.
  auto s = shogi("4k4/R8/9/9/9/9/9/9/8K[] w - - 0 1");
  const std::string cycle = "a8a9 e9e8 a9a8 e8e9 ";
  plays(*s, cycle + cycle + cycle.substr(0, cycle.size() - 5));
  CHECK(!s->is_terminal());
  plays(*s, "e8e9");  // the start position for the fourth time
  REQUIRE(s->is_terminal());
  CHECK(s->end_reason() == "perpetual-check");
  CHECK(s->returns() == std::vector<double>{-1.0, 1.0});
  // When the checks stop once (a8a7), the repetition is a draw.
  auto d = shogi("4k4/R8/9/9/9/9/9/9/8K[] w - - 0 1");
  plays(*d, "a8a7 e9e8 a7a8 e8e9 " + cycle + cycle.substr(0, cycle.size() - 5));
  CHECK(!d->is_terminal());
  plays(*d, "e8e9");
  REQUIRE(d->is_terminal());
  CHECK(d->end_reason() == "repetition");
}

TEST_CASE("SH-13 no impasse rule: the length cap draws; repetition does not cut perft",
          "[shogi][end]") {
  auto s = shogi();
  s->set_max_plies(4);
  plays(*s, "e3e4 e7e6 e1e2 e9e8");
  REQUIRE(s->is_terminal());
  CHECK(s->end_reason() == "cap");
  CHECK(s->returns() == std::vector<double>{0.0, 0.0});
  CHECK(vzero::game_by_id("shogi").variant().max_plies == 600);
  CHECK(vzero::game_by_id("minishogi").variant().max_plies == 300);
  // A position ended by repetition still counts its moves in perft.
  auto r = shogi("4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1");
  plays(*r, "e1e2 e9e8 e2e1 e8e9 e1e2 e9e8 e2e1 e8e9 e1e2 e9e8 e2e1 e8e9");
  REQUIRE(r->is_terminal());
  CHECK(r->perft(1) == 5);
  CHECK(r->perft(2) == shogi(r->fen())->perft(2));
}

TEST_CASE("shogi encoding: promoted pieces as their own planes, hands as counts",
          "[shogi][encoding]") {
  const vzero::Game& g = vzero::game_by_id("shogi");
  const vzero::EncodingSpec& e = g.encoding();
  CHECK(e.planes == 28);
  CHECK(std::count(e.plane_names.begin(), e.plane_names.end(), "mine tokin") == 1);
  CHECK(std::count(e.scalar_names.begin(), e.scalar_names.end(), "their hand: pawn") == 1);
  auto s = g.new_state("4k4/9/9/9/4+p4/9/9/9/4K4[PPPs] b - - 0 1");
  std::vector<uint8_t> planes(size_t(e.planes) * e.plane_size());
  std::vector<float> scalars(size_t(e.scalars));
  s->encode(planes.data(), scalars.data());
  const auto plane = [&](const std::string& name) {
    return int(std::find(e.plane_names.begin(), e.plane_names.end(), name) - e.plane_names.begin());
  };
  const auto scalar = [&](const std::string& name) {
    return scalars[size_t(std::find(e.scalar_names.begin(), e.scalar_names.end(), name) -
                          e.scalar_names.begin())];
  };
  const int e5 = 4 * 9 + 4;
  CHECK(planes[size_t(plane("mine tokin") * e.plane_size() + e5)] ==
        1);  // gote to act: its tokin is "mine"
  CHECK(planes[size_t(plane("mine pawn") * e.plane_size() + e5)] == 0);
  CHECK(scalar("their hand: pawn") == 3.0f);
  CHECK(scalar("my hand: silver") == 1.0f);
  CHECK(scalar("white to act") == 0.0f);
}

TEST_CASE("SH-2 SH-10 variant files: promoted types and drop limits, checked when read",
          "[shogi][variant]") {
  const std::string base =
      "id = \"t\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K4[] w - - 0 1\"\n";
  const std::string pieces =
      "[[piece]]\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n"
      "[[piece]]\nletter = \"s\"\nbetza = \"FfW\"\n";
  const std::string plus = "[[piece]]\nletter = \"+s\"\nbetza = \"WfF\"\n";
  const vzero::Variant v = vzero::parse_variant(base + "hook = \"fairy\"\n" + pieces + plus, "t");
  CHECK(v.pieces[1].promotes_to == 2);
  CHECK(v.pieces[2].unpromoted == 1);
  CHECK(v.type_of_letter('s') == 1);
  using vzero::parse_variant;
  CHECK_THROWS_AS(parse_variant(base + pieces + plus, "t"), vzero::Error);  // hook "chess"
  CHECK_THROWS_AS(parse_variant(base + "hook = \"fairy\"\n" + pieces +
                                    "[[piece]]\nletter = \"+n\"\nbetza = \"WfF\"\n",
                                "t"),
                  vzero::Error);  // no n to promote from
  CHECK_THROWS_AS(parse_variant(base + "hook = \"fairy\"\n" + pieces +
                                    "[[piece]]\nletter = \"+k\"\nbetza = \"WfF\"\n",
                                "t"),
                  vzero::Error);  // the king never promotes
  CHECK_THROWS_AS(parse_variant(base + "hook = \"fairy\"\n" + pieces + plus + plus, "t"),
                  vzero::Error);
  CHECK_THROWS_AS(
      parse_variant(base + "hook = \"fairy\"\n[drops]\nno_doubled = \"x\"\n" + pieces, "t"),
      vzero::Error);
  CHECK_THROWS_AS(parse_variant(base + "hook = \"fairy\"\nstalemate = \"win\"\n" + pieces, "t"),
                  vzero::Error);
  CHECK_THROWS_AS(parse_variant(base + "hook = \"fairy\"\nrepetition = 1\n" + pieces, "t"),
                  vzero::Error);
  CHECK_THROWS_AS(parse_variant(base + "immobility_illegal = true\n" + pieces, "t"),
                  vzero::Error);  // hook "chess"
}
