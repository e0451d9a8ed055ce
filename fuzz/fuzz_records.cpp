// Fuzz target: games files (JSON lines of match records, mcts/game_record.h),
// which matches read back to resume and `vzero ratings` reads to fit ratings.
// The input is the file. read_records must accept it or throw vzero::Error;
// every record it accepts must be written back (to_json_line) as a line that
// reads back to the same line; the ratings fit and PGN of the records
// (2-player games of a known variant: their moves replayed) must succeed or
// throw vzero::Error.
#include <fstream>

#include "fuzz/fuzz_util.h"
#include "game/builtin/games.h"
#include "match/game_record.h"
#include "match/pgn.h"
#include "match/ratings.h"

using namespace vzero;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = fuzz::temp_file("records.jsonl");
  static const std::vector<std::string> ids = game_ids();
  if (size > 8192) return 0;
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  std::vector<MatchRecord> records;
  try {
    records = read_records(path);
  } catch (const Error&) {
    return 0;
  }
  for (const MatchRecord& r : records) {
    const std::string line = to_json_line(r);
    try {
      fuzz::require(to_json_line(parse_json_line(line)) == line,
                    "a record reads back to the same line");
    } catch (const Error& e) {
      std::fprintf(stderr, "fuzz: '%s' rejected: %s\n", line.c_str(), e.what());
      fuzz::require(false, "a written record reads back");
    }
    if (r.players.size() != 2 || std::find(ids.begin(), ids.end(), r.variant) == ids.end())
      continue;
    try {
      (void)to_pgn(game_by_id(r.variant), r);
    } catch (const Error&) {
    }
  }
  try {
    (void)fit_ratings(records, RatingsOptions{}).text();
  } catch (const Error&) {
  }
  return 0;
}
