// Perft against published counts (copied from the rules' reference table).
#include <catch.hpp>

#include "game/builtin/games.h"

namespace {

struct PerftRow {
  const char* variant;
  const char* fen;  // "" = the variant's start
  int depth;
  uint64_t nodes;
};

const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const char* kPos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const char* kGrandEp =
    "r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3";
const char* kGrandPromo = "10/4k5/6P3/10/10/10/10/10/1p2K5/10 w - - 0 1";

const PerftRow kQuick[] = {
    {"chess", "", 1, 20},          {"chess", "", 2, 400},          {"chess", "", 3, 8902},
    {"chess", "", 4, 197281},      {"chess", "", 5, 4865609},      {"chess", kKiwipete, 1, 48},
    {"chess", kKiwipete, 2, 2039}, {"chess", kKiwipete, 3, 97862}, {"chess", kKiwipete, 4, 4085603},
    {"chess", kPos3, 1, 14},       {"chess", kPos3, 4, 43238},     {"grand", "", 1, 65},
    {"grand", "", 2, 4225},        {"grand", "", 3, 259514},       {"grand", kGrandEp, 2, 5768},
    {"grand", kGrandPromo, 1, 15}, {"grand", kGrandPromo, 2, 165}, {"grand", kGrandPromo, 3, 2446},
};

const PerftRow kDeep[] = {
    {"chess", "", 6, 119060324}, {"chess", kKiwipete, 5, 193690690}, {"chess", kPos3, 6, 11030083},
    {"grand", "", 4, 15921643},  {"grand", "", 5, 959883584},        {"losalamos", "", 6, 2549164},
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
const char* kWorldMid =
    "10/r3k4r/2P2p4/3o6/4J5/10/R3K4R/10[Ll] w KQkq - 0 1 pool:Qn start:- last:-b";
const char* kParachuteMid = "2k4/2p1x2/1j5/3Y3/2N1n2/1P1J3/3K3[QRBqrb] b - - 3 10 last:np";

const PerftRow kFairyQuick[] = {
    {"world", "", 1, 32},
    {"world", "", 2, 1027},
    {"world", "", 3, 34603},
    {"world", "", 4, 1145267},
    {"world", kWorldMid, 1, 97},
    {"world", kWorldMid, 2, 1762},
    {"world", kWorldMid, 3, 123646},
    {"parachute", "", 1, 181},
    {"parachute", "", 2, 32639},
    {"parachute", "", 3, 5445201},
    {"parachute", kParachuteMid, 1, 82},
    {"parachute", kParachuteMid, 2, 5641},
    {"parachute", kParachuteMid, 3, 426731},
};

const PerftRow kFairyDeep[] = {
    {"parachute", "", 4, 906015679},
    {"world", "", 5, 39678973},
    {"world", kWorldMid, 4, 5594520},
    {"parachute", kParachuteMid, 4, 25668693},
};

// Los Alamos chess: Debian's fairy-stockfish 11.1 (`UCI_Variant losalamos`,
// `go perft N`) from the start and from positions of random games
// (scripts/fairy-perft-rows.py losalamos --depth 4), with checks and promotions.
const PerftRow kLosAlamos[] = {
    {"losalamos", "", 1, 10},
    {"losalamos", "", 2, 100},
    {"losalamos", "", 3, 1212},
    {"losalamos", "", 4, 14332},
    {"losalamos", "", 5, 191846},
    {"losalamos", "r1qknr/pppp2/4pp/1P2P1/PnPP1P/RNQKNR w - - 1 5", 4, 4699},      // check
    {"losalamos", "4k1/3n2/1P1Np1/p5/PP1N1R/nQ1K2 b - - 1 22", 4, 14086},          // check
    {"losalamos", "2q1kr/p1ppNp/p1n2n/1rP3/PP1PPP/RQ2KR b - - 0 7", 4, 113024},    // -
    {"losalamos", "3kn1/p1pp1r/1r4/Pp1KP1/1QP2p/1R4 w - - 0 27", 4, 145040},       // -
    {"losalamos", "3q2/2pnk1/P3R1/RP4/4r1/2K3 b - - 1 30", 4, 10411},              // check
    {"losalamos", "1rq3/pp1pPr/n1pk2/PP3p/R1KPPP/1N1QR1 b - - 2 12", 4, 67601},    // -
    {"losalamos", "rQq3/1nkp1p/2p2p/P2P1P/2QK2/R1r2r b - - 0 23", 4, 21938},       // check
    {"losalamos", "2R1nr/6/p2p1k/2p1pP/4P1/4KR w - - 6 31", 4, 4901},              // -
    {"losalamos", "1r1k2/3ppp/6/2P3/P1q2P/1RKR2 w - - 0 19", 4, 2798},             // check
    {"losalamos", "4k1/4p1/1pR1P1/6/2Kq2/6 w - - 0 27", 4, 3376},                  // check
    {"losalamos", "1n3r/1p1k1p/1P1p1P/2r2P/2n3/1NK1R1 w - - 6 24", 4, 47797},      // -
    {"losalamos", "k3n1/2r1P1/3p1p/p2P2/2p3/1nKR2 w - - 4 37", 4, 3383},           // -
    {"losalamos", "Nq1k1r/1ppppp/2nP1n/QP3P/P1P3/RN1K1R b - - 0 8", 4, 78831},     // -
    {"losalamos", "qR4/2p1k1/1pP1pp/2R3/P1n1PP/3KR1 b - - 0 20", 4, 90606},        // -
    {"losalamos", "rn2r1/2pkpp/pPq1p1/N2n2/PP1K1P/1R1QNR w - - 1 10", 4, 157307},  // -
    {"losalamos", "1r2nr/1k2p1/3pPQ/p1nP1p/P1K2P/r5 w - - 10 32", 4, 34725},       // -
    {"losalamos", "r3nr/pp2pp/2Nk2/q1n2P/PQPPP1/R1K1NR b - - 4 9", 4, 77834},      // -
    {"losalamos", "5k/5p/5r/K2QPP/P5/6 b - - 2 35", 4, 16780},                     // -
    {"losalamos", "r2k2/q1p1pr/p4N/Pp1KnP/2R2P/2Q1n1 w - - 0 16", 4, 27829},       // check
    {"losalamos", "3r2/k2p1p/1n4/p1r1KN/P4P/R2R2 w - - 2 23", 4, 33947},           // check
    {"losalamos", "4k1/1P4/6/6/4p1/2K3 w - - 0 1", 4, 3171},                       // promotion
    {"losalamos", "r3k1/1P4/6/6/4p1/2K2N b - - 0 1", 4, 20208},  // promotion with capture
    {"losalamos", "3k2/P5/6/6/6/K5 w - - 0 1", 4, 1294},         // promotion with check
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

TEST_CASE("Los Alamos perft matches fairy-stockfish", "[perft][losalamos]") {
  check_rows(std::begin(kLosAlamos), std::end(kLosAlamos));
}
