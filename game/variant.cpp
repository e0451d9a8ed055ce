// Reading variants from TOML and the registry of built-in variants.
#include "game/variant.h"

#include <toml++/toml.h>

#include <algorithm>
#include <map>
#include <set>

#include "game/symmetry.h"
#include "util/error.h"
#include "util/toml_reader.h"

namespace vzero {

// Defined in the generated builtin_variants.cpp: (id, TOML text) pairs.
extern const std::vector<std::pair<std::string, std::string>>& builtin_variant_sources();

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

int Variant::type_of_letter(char c) const {
  const char lower = char(std::tolower(static_cast<unsigned char>(c)));
  for (size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].letter == lower && !pieces[i].promoted) return int(i);
  return -1;
}

bool Variant::has_promoted_types() const {
  for (const PieceType& p : pieces)
    if (p.promoted) return true;
  return false;
}

int Variant::royal_type() const {
  for (size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].royal) return int(i);
  return -1;
}

int Variant::pawn_type() const {
  for (size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].pawn) return int(i);
  return -1;
}

namespace {

using TableReader = TomlReader;

// The set of types named by a string of unpromoted letters (e.g. "p").
uint16_t type_set(const Variant& v, const std::string& letters, const std::string& where) {
  uint16_t set = 0;
  for (char c : letters) {
    const int t = v.type_of_letter(c);
    if (t < 0) throw Error(where + ": '" + std::string(1, c) + "' is not a piece");
    set |= uint16_t(1u << t);
  }
  return set;
}

int file_index(const std::string& s, int files, const std::string& where) {
  if (s.size() != 1 || s[0] < 'a' || s[0] >= 'a' + files)
    throw Error(where + ": bad file '" + s + "'");
  return s[0] - 'a';
}

CastlingRule read_castling_side(const toml::table* t, int files, const std::string& where) {
  CastlingRule r;
  if (!t) throw Error(where + " is missing");
  TableReader in(*t, where);
  r.king_to_file = file_index(in.get<std::string>("king_to", ""), files, where);
  r.rook_to_file = file_index(in.get<std::string>("rook_to", ""), files, where);
  in.finish();
  return r;
}

// Pairs each promoted type ("+x") with its unpromoted type x.
void link_promoted_types(Variant& v, const std::string& origin) {
  for (size_t t = 0; t < v.pieces.size(); ++t) {
    PieceType& p = v.pieces[t];
    if (!p.promoted) continue;
    const int base = v.type_of_letter(p.letter);
    if (base < 0)
      throw Error(origin + ": promoted type '+" + std::string(1, p.letter) + "' without '" +
                  std::string(1, p.letter) + "'");
    PieceType& b = v.pieces[size_t(base)];
    if (b.royal || b.pawn || b.joker || b.shared || p.royal || p.pawn || p.joker || p.shared)
      throw Error(origin + ": '+" + std::string(1, p.letter) +
                  "': kings, pawns, jokers and shared pieces do not promote by '+'");
    b.promotes_to = int(t);
    p.unpromoted = base;
  }
}

}  // namespace

Variant parse_variant(const std::string& toml_text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& e) {
    throw Error(origin + ": " + std::string(e.description()));
  }
  Variant v;
  v.source = toml_text;
  v.hash = fnv1a(toml_text);
  TableReader in(root, origin);
  v.id = in.get<std::string>("id", "");
  if (v.id.empty()) throw Error(origin + ": 'id' is required");
  v.name = in.get<std::string>("name", v.id);
  v.rules = in.get<std::string>("rules", "");
  v.files = in.get_range("files", 8, 3, 12);
  v.ranks = in.get_range("ranks", 8, 3, 10);
  if (v.files * v.ranks > 120) throw Error(origin + ": board larger than 120 squares");
  v.players = in.get_range("players", 2, 2, 4);
  v.start_fen = in.get<std::string>("start", "");
  v.hook = in.get<std::string>("hook", "chess");
  static const std::set<std::string> hooks = {"chess",       "ascending", "007",
                                              "007-detente", "attrition", "fairy"};
  if (!hooks.count(v.hook)) throw Error(origin + ": unknown hook '" + v.hook + "'");
  v.check_rule = in.get<bool>("check_rule", true);
  v.insufficient_material = in.get<bool>("insufficient_material", false);
  v.max_plies = in.get_range("max_plies", 512, 1, 100000);
  v.immobility_illegal = in.get<bool>("immobility_illegal", false);
  const std::string stalemate = in.get<std::string>("stalemate", "draw");
  if (stalemate != "draw" && stalemate != "loss")
    in.fail("stalemate", "must be \"draw\" or \"loss\"");
  v.stalemate_loses = stalemate == "loss";
  v.repetition = in.get_range("repetition", 3, 2, 10);
  v.perpetual_check_loses = in.get<bool>("perpetual_check_loses", false);
  v.fifty_move = in.get<bool>("fifty_move", true);

  if (const toml::table* pawn = in.table("pawn")) {
    TableReader p(*pawn, origin + " [pawn]");
    v.double_step_rank = p.get_range("double_step_rank", 2, 0, v.ranks);
    v.en_passant = p.get<bool>("en_passant", true);
    p.finish();
  }
  v.promotion_first_rank = v.promotion_mandatory_rank = v.ranks;
  if (const toml::table* promo = in.table("promotion")) {
    TableReader p(*promo, origin + " [promotion]");
    v.promotion_first_rank = p.get_range("first_rank", v.ranks, 1, v.ranks);
    v.promotion_mandatory_rank =
        p.get_range("mandatory_rank", v.ranks, v.promotion_first_rank, v.ranks);
    v.promotion_pieces = p.get<std::string>("pieces", "");
    v.promote_to_lost_only = p.get<bool>("lost_pieces_only", false);
    v.promote_from_pool = p.get<bool>("from_pool", false);
    v.pawns_wait = p.get<bool>("wait", false);
    p.finish();
  }
  if (const toml::table* castle = in.table("castling")) {
    TableReader c(*castle, origin + " [castling]");
    v.castling = true;
    v.castling_rank = c.get_range("rank", 1, 1, v.ranks);
    v.kingside = read_castling_side(c.table("kingside"), v.files, origin + " [castling.kingside]");
    v.queenside =
        read_castling_side(c.table("queenside"), v.files, origin + " [castling.queenside]");
    c.finish();
  }
  std::string no_doubled, no_mate;  // letters, resolved once the pieces are read
  if (const toml::table* drops = in.table("drops")) {
    TableReader d(*drops, origin + " [drops]");
    v.drop_ranks = d.get_range("ranks", v.ranks, 1, v.ranks);
    const std::string start_piece = d.get<std::string>("start_piece", "");
    if (start_piece.size() > 1) d.fail("start_piece", "must be one letter");
    v.start_piece = start_piece.empty() ? 0 : start_piece[0];
    v.start_piece_ranks = d.get_range("start_piece_ranks", 0, 0, v.ranks);
    v.drop_no_check = d.get<bool>("no_check", false);
    v.drop_resets_clock = d.get<bool>("resets_clock", false);
    v.captured_to_pool = d.get<bool>("captured_to_pool", false);
    no_doubled = d.get<std::string>("no_doubled", "");
    no_mate = d.get<std::string>("no_mate", "");
    d.finish();
  }
  if (const toml::table* joker = in.table("joker")) {
    TableReader j(*joker, origin + " [joker]");
    v.joker_chain = j.get<bool>("chain", false);
    v.joker_max_streak = j.get_range("max_streak", 0, 0, 100);
    v.joker_pawn_double_step_rank = j.get_range("pawn_double_step_rank", 0, 0, v.ranks);
    j.finish();
  }
  v.king_capture = in.get<bool>("king_capture", false);
  if (const toml::table* att = in.table("attrition")) {
    TableReader a(*att, origin + " [attrition]");
    v.knights = a.get_range("knights", 1, 1, 2);
    v.ending = a.get<std::string>("ending", "both");
    a.finish();
    if (v.ending != "both" && v.ending != "one")
      throw Error(origin + ": [attrition] ending must be \"both\" or \"one\"");
    if (v.knights == 2 && v.players != 2)
      throw Error(origin + ": two knights only with two players");
  }
  if (const toml::array* syms = in.array("symmetries")) {
    for (const toml::node& node : *syms) {
      if (!node.is_string()) throw Error(origin + ": symmetries must be strings");
      const std::string name = node.as_string()->get();
      try {
        check_symmetry_name(name, v.files, v.ranks);
      } catch (const Error& e) {
        throw Error(origin + ": " + e.what());
      }
      if (std::count(v.symmetries.begin(), v.symmetries.end(), name))
        throw Error(origin + ": symmetry '" + name + "' repeated");
      v.symmetries.push_back(name);
    }
  }
  const toml::array* pieces = in.array("piece");
  if (!pieces || pieces->empty()) throw Error(origin + ": no [[piece]] given");
  for (const toml::node& node : *pieces) {
    if (!node.is_table()) throw Error(origin + ": [[piece]] must be tables");
    TableReader p(*node.as_table(), origin + " [[piece]]");
    PieceType pt;
    const std::string letter = p.get<std::string>("letter", "");
    pt.promoted = letter.size() == 2 && letter[0] == '+';
    if (letter.size() != 1u + pt.promoted ||
        !std::islower(static_cast<unsigned char>(letter.back())))
      throw Error(
          origin +
          ": piece letter must be one lower-case letter, or '+' and one for a promoted type");
    pt.letter = letter.back();
    pt.name = p.get<std::string>("name", letter);
    pt.betza = p.get<std::string>("betza", "");
    pt.royal = p.get<bool>("royal", false);
    pt.pawn = p.get<bool>("pawn", false);
    pt.joker = p.get<bool>("joker", false);
    pt.shared = p.get<bool>("shared", false);
    pt.immune = p.get<bool>("immune", false);
    pt.imitable = p.get<bool>("imitable", true);
    pt.to_hand = p.get<bool>("to_hand", false);
    p.finish();
    if (pt.joker && !pt.betza.empty()) throw Error(origin + ": a joker has no moves of its own");
    if (!pt.joker) pt.moves = parse_betza(pt.betza);
    for (const PieceType& q : v.pieces)
      if (q.letter == pt.letter && q.promoted == pt.promoted)
        throw Error(origin + ": piece letter repeated");
    v.pieces.push_back(pt);
  }
  if (int(v.pieces.size()) > kMaxPieceTypes) throw Error(origin + ": too many piece types");
  link_promoted_types(v, origin);
  v.drop_no_doubled = type_set(v, no_doubled, origin + " [drops] no_doubled");
  v.drop_no_mate = type_set(v, no_mate, origin + " [drops] no_mate");
  const bool shogi_rules = v.has_promoted_types() || v.immobility_illegal || v.drop_no_doubled ||
                           v.drop_no_mate || v.stalemate_loses || v.repetition != 3 ||
                           v.perpetual_check_loses || !v.fifty_move;
  if (shogi_rules && v.hook != "fairy")
    throw Error(origin +
                ": promoted types, drop limits and the shogi game ends need hook \"fairy\"");
  for (char c : v.promotion_pieces)
    if (v.type_of_letter(c) < 0)
      throw Error(origin + ": promotion piece '" + std::string(1, c) + "' is not a piece");
  if (v.start_piece && v.type_of_letter(v.start_piece) < 0)
    throw Error(origin + ": start_piece is not a piece");
  in.finish();
  if (v.start_fen.empty()) throw Error(origin + ": 'start' is required");
  return v;
}

std::vector<std::string> builtin_variant_ids() {
  std::vector<std::string> ids;
  for (const auto& [id, text] : builtin_variant_sources()) ids.push_back(id);
  return ids;
}

const Variant& builtin_variant(const std::string& id) {
  static const std::map<std::string, Variant> variants = [] {
    std::map<std::string, Variant> m;
    for (const auto& [vid, text] : builtin_variant_sources())
      m.emplace(vid, parse_variant(text, "configs/variants/" + vid + ".toml"));
    return m;
  }();
  auto it = variants.find(id);
  if (it == variants.end()) {
    std::string known;
    for (const auto& [k, unused] : variants) known += (known.empty() ? "" : ", ") + k;
    throw Error("unknown variant '" + id + "' (known: " + known + ")");
  }
  return it->second;
}

}  // namespace vzero
