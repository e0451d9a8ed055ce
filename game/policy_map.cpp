// The policy map of an action space from its texts, and its check.
#include "game/policy_map.h"

#include <cctype>
#include <map>

#include "game/game.h"

namespace vzero {

namespace {

// Reads a square name ("e4", "a10") at text[i] into (file, rank), 0-based; false when there is
// none or it is off a files x ranks board.
bool read_square(const std::string& text, size_t& i, int files, int ranks, int& file, int& rank) {
  if (i >= text.size() || text[i] < 'a' || text[i] > 'z') return false;
  file = text[i] - 'a';
  size_t j = i + 1;
  int number = 0;
  while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])) && j - i <= 2)
    number = number * 10 + (text[j++] - '0');
  if (j == i + 1 || file >= files || number < 1 || number > ranks) return false;
  rank = number - 1;
  i = j;
  return true;
}

}  // namespace

std::optional<PolicyMap> policy_map_of_texts(const Game& game) {
  const int files = game.variant().files, ranks = game.variant().ranks;
  std::map<std::string, int> planes;  // key of a move or drop kind -> its plane
  const auto plane_of = [&](const std::string& key) {
    return planes.emplace(key, int(planes.size())).first->second;
  };
  PolicyMap map;
  for (int a = 0; a < game.num_actions(); ++a) {
    const std::string& t = game.action_text(a);
    int file = 0, rank = 0, to_file = 0, to_rank = 0;
    const size_t at = t.find('@');
    size_t i = at == std::string::npos ? 0 : at + 1;
    int plane = 0;
    if (at != std::string::npos) {
      if (at == 0 || !read_square(t, i, files, ranks, file, rank) || i != t.size())
        return std::nullopt;
      plane = plane_of("drop " + t.substr(0, at));
    } else {
      if (!read_square(t, i, files, ranks, file, rank) ||
          !read_square(t, i, files, ranks, to_file, to_rank))
        return std::nullopt;
      plane = plane_of("move " + std::to_string(to_file - file) + " " +
                       std::to_string(to_rank - rank) + " " + t.substr(i));
    }
    map.plane.push_back(plane);
    map.square.push_back(rank * files + file);
  }
  map.planes = int(planes.size());
  return map;
}

std::string policy_map_problem(const Game& game, const PolicyMap& map) {
  const int n = game.num_actions();
  const int area = game.variant().files * game.variant().ranks;
  if (map.planes < 1) return "it has no planes";
  if (int(map.plane.size()) != n || int(map.square.size()) != n)
    return "it has " + std::to_string(map.plane.size()) + " entries for " + std::to_string(n) +
           " actions";
  std::vector<int> owner(size_t(map.planes) * size_t(area), -1);
  for (int a = 0; a < n; ++a) {
    const int k = map.plane[size_t(a)], s = map.square[size_t(a)];
    if (k < 0 || k >= map.planes || s < 0 || s >= area)
      return "action " + game.action_text(a) + " is out of range";
    int& o = owner[size_t(k) * size_t(area) + size_t(s)];
    if (o >= 0)
      return "actions " + game.action_text(o) + " and " + game.action_text(a) + " share plane " +
             std::to_string(k) + " at square " + std::to_string(s);
    o = a;
  }
  return "";
}

}  // namespace vzero
