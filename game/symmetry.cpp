// Board symmetries: square maps by name, action maps through action texts.
#include "game/symmetry.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "game/game.h"
#include "util/error.h"

namespace vzero {

const std::vector<std::string>& symmetry_names() {
  static const std::vector<std::string> names = {"mirror-files", "mirror-ranks",   "rotate-180",
                                                 "transpose",    "anti-transpose", "rotate-90",
                                                 "rotate-270"};
  return names;
}

void check_symmetry_name(const std::string& name, int files, int ranks) {
  const auto& names = symmetry_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown symmetry '" + name + "' (known: " + known + ")");
  }
  if (it - names.begin() >= 3 && files != ranks)
    throw Error("symmetry '" + name + "' needs a square board");
}

void map_square(const std::string& name, int files, int ranks, int& file, int& rank) {
  const int f = file, r = rank;
  if (name == "mirror-files")
    file = files - 1 - f;
  else if (name == "mirror-ranks")
    rank = ranks - 1 - r;
  else if (name == "rotate-180")
    file = files - 1 - f, rank = ranks - 1 - r;
  else if (name == "transpose")
    file = r, rank = f;
  else if (name == "anti-transpose")
    file = ranks - 1 - r, rank = files - 1 - f;
  else if (name == "rotate-90")
    file = r, rank = files - 1 - f;  // clockwise: a1 -> a8
  else if (name == "rotate-270")
    file = ranks - 1 - r, rank = f;
  else
    throw Error("unknown symmetry '" + name + "'");
}

namespace {

// The text of an action with every square name (file letter, rank number) mapped.
std::string map_action_text(const std::string& text, const std::string& name, int files,
                            int ranks) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    size_t j = i + 1;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (c >= 'a' && c < 'a' + files && j > i + 1 && j - i <= 3) {
      int file = c - 'a', rank = std::stoi(text.substr(i + 1, j - i - 1)) - 1;
      if (rank >= 0 && rank < ranks) {
        map_square(name, files, ranks, file, rank);
        out += char('a' + file) + std::to_string(rank + 1);
        i = j;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace

std::vector<BoardSymmetry> board_symmetries(const Game& game) {
  return board_symmetries(game, game.variant().symmetries);
}

std::vector<BoardSymmetry> board_symmetries(const Game& game,
                                            const std::vector<std::string>& names) {
  const Variant& v = game.variant();
  std::vector<BoardSymmetry> out;
  if (names.empty()) return out;
  std::unordered_map<std::string, int> by_text;
  for (int a = 0; a < game.num_actions(); ++a) by_text.emplace(game.action_text(a), a);
  for (const std::string& name : names) {
    check_symmetry_name(name, v.files, v.ranks);
    BoardSymmetry s;
    s.name = name;
    s.square.resize(size_t(v.squares()));
    for (int r = 0; r < v.ranks; ++r)
      for (int f = 0; f < v.files; ++f) {
        int file = f, rank = r;
        map_square(name, v.files, v.ranks, file, rank);
        s.square[size_t(r * v.files + f)] = rank * v.files + file;
      }
    s.action.resize(size_t(game.num_actions()));
    for (int a = 0; a < game.num_actions(); ++a) {
      const std::string image = map_action_text(game.action_text(a), name, v.files, v.ranks);
      const auto it = by_text.find(image);
      if (it == by_text.end())
        throw Error(v.id + ": symmetry '" + name + "' maps action " + game.action_text(a) + " to " +
                    image + ", which is not an action");
      s.action[size_t(a)] = it->second;
    }
    out.push_back(std::move(s));
  }
  return out;
}

void map_planes(const BoardSymmetry& s, const EncodingSpec& spec, const uint8_t* in, uint8_t* out) {
  const size_t area = size_t(spec.plane_size());
  for (size_t c = 0; c < size_t(spec.planes); ++c)
    for (size_t q = 0; q < area; ++q) out[c * area + size_t(s.square[q])] = in[c * area + q];
}

}  // namespace vzero
