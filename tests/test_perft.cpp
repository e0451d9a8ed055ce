// Perft against published counts (copied from the rules' reference table).
#include <catch.hpp>

#include "game/game.h"

namespace {

struct PerftRow {
  const char* variant;
  const char* fen;  // "" = the variant's start
  int depth;
  uint64_t nodes;
};

const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const char* kPos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const char* kGrandEp = "r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3";
const char* kGrandPromo = "10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1";

const PerftRow kQuick[] = {
    {"chess", "", 1, 20},           {"chess", "", 2, 400},
    {"chess", "", 3, 8902},         {"chess", "", 4, 197281},
    {"chess", "", 5, 4865609},      {"chess", kKiwipete, 1, 48},
    {"chess", kKiwipete, 2, 2039},  {"chess", kKiwipete, 3, 97862},
    {"chess", kKiwipete, 4, 4085603}, {"chess", kPos3, 1, 14},
    {"chess", kPos3, 4, 43238},     {"grand", "", 1, 65},
    {"grand", "", 2, 4225},         {"grand", "", 3, 259514},
    {"grand", kGrandEp, 2, 5768},   {"grand", kGrandPromo, 1, 15},
    {"grand", kGrandPromo, 2, 165}, {"grand", kGrandPromo, 3, 2446},
};

const PerftRow kDeep[] = {
    {"chess", "", 6, 119060324},
    {"chess", kKiwipete, 5, 193690690},
    {"chess", kPos3, 6, 11030083},
    {"grand", "", 4, 15921643},
    {"grand", "", 5, 959883584},
};

void check_rows(const PerftRow* begin, const PerftRow* end) {
  for (const PerftRow* r = begin; r != end; ++r) {
    auto state = vzero::game_by_id(r->variant).new_state(r->fen);
    INFO(r->variant << " " << (*r->fen ? r->fen : "startpos") << " depth " << r->depth);
    CHECK(state->perft(r->depth) == r->nodes);
  }
}

// World and Parachute chess: no published counts; these are the engine's own
// figures, kept as regression values (depth 1 of the starts is WC-12, PC-12).
const char* kWorldMid = "10/r3k4r/2P2p4/3o6/4J5/10/R3K4R/10[Ll] w KQkq - 0 1 pool:Qn start:- last:-b";
const char* kParachuteMid = "2k4/2p1x2/1j5/3Y3/2N1n2/1P1J3/3K3[QRBqrb] b - - 3 10 last:np";

const PerftRow kFairyQuick[] = {
    {"world", "", 1, 32},                 {"world", "", 2, 1027},
    {"world", "", 3, 34603},              {"world", "", 4, 1145267},
    {"world", kWorldMid, 1, 97},          {"world", kWorldMid, 2, 1762},
    {"world", kWorldMid, 3, 123646},      {"parachute", "", 1, 181},
    {"parachute", "", 2, 32639},          {"parachute", "", 3, 5445201},
    {"parachute", kParachuteMid, 1, 82},  {"parachute", kParachuteMid, 2, 5641},
    {"parachute", kParachuteMid, 3, 426731},
};

const PerftRow kFairyDeep[] = {
    {"parachute", "", 4, 906015679},
    {"world", "", 5, 39678973},
    {"world", kWorldMid, 4, 5594520},
    {"parachute", kParachuteMid, 4, 25668693},
};

}  // namespace

TEST_CASE("CH-2 GR-8 perft matches the reference counts", "[perft]") {
  check_rows(std::begin(kQuick), std::end(kQuick));
}

TEST_CASE("CH-2 GR-8 deep perft matches the reference counts", "[perft][slow]") {
  check_rows(std::begin(kDeep), std::end(kDeep));
}

TEST_CASE("WC-12 PC-12 World and Parachute perft regression values", "[perft][world][parachute]") {
  check_rows(std::begin(kFairyQuick), std::end(kFairyQuick));
}

TEST_CASE("WC-12 PC-12 deep World and Parachute perft regression values", "[perft][slow]") {
  check_rows(std::begin(kFairyDeep), std::end(kFairyDeep));
}
