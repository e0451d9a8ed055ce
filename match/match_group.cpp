// A match split across the ranks of a job, joined on every rank.
#include "match/match_group.h"

#include <algorithm>
#include <memory>
#include <set>
#include <sstream>

#include "match/game_record.h"
#include "match/pgn.h"
#include "util/error.h"

namespace vzero {

std::string broadcast_text(MatchGroup& group, const std::string& text) {
  return group.all_gather(group.rank() == 0 ? text : std::string()).front();
}

ArenaResult play_arena_shared(const Game& game, const ArenaConfig& config,
                              const PlayerFactory& make, MatchGroup* group) {
  if (!group || group->size() == 1) return play_arena(game, config, make);
  check(config.parts == 1, "arena: a match split across ranks cannot be a part of another split");
  ArenaConfig share = config;
  share.part = group->rank();
  share.parts = group->size();
  share.write_files = group->rank() == 0;
  share.keep_records = true;
  const ArenaResult mine = play_arena(game, share, make);

  // A rank's text: the indices it read back, then its records, one JSON line each.
  std::string text;
  for (int i : mine.read_back) text += std::to_string(i) + " ";
  text += "\n";
  for (const MatchRecord& r : mine.records) text += to_json_line(r) + "\n";
  std::vector<MatchRecord> all, fresh;  // fresh: other ranks' games played now, for rank 0 to write
  std::set<int> read_back;
  const std::vector<std::string> texts = group->all_gather(text);
  for (size_t rank = 0; rank < texts.size(); ++rank) {
    std::istringstream in(texts[rank]);
    std::string line;
    std::getline(in, line);
    std::istringstream indices(line);
    std::set<int> back;
    for (int i; indices >> i;) back.insert(i);
    read_back.insert(back.begin(), back.end());
    while (std::getline(in, line)) {
      all.push_back(parse_json_line(line));
      if (rank > 0 && !back.count(all.back().index)) fresh.push_back(all.back());
    }
  }
  if (group->rank() == 0 && config.write_files) {
    std::sort(fresh.begin(), fresh.end(),
              [](const MatchRecord& a, const MatchRecord& b) { return a.index < b.index; });
    std::unique_ptr<AppendFile> record, pgn;
    if (!config.record.empty()) record = std::make_unique<AppendFile>(config.record);
    if (!config.pgn.empty()) pgn = std::make_unique<AppendFile>(config.pgn);
    for (const MatchRecord& r : fresh) {
      if (record) record->append(to_json_line(r) + "\n");
      if (pgn) pgn->append(to_pgn(game, r));
    }
  }
  return join_arena(game, config, all, read_back);
}

}  // namespace vzero
