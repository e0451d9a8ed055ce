#pragma once
// One played game as a record: a line of JSON in a games file (JSON lines),
// written by matches and read back to resume them and to fit ratings.
// Fields: match, index, variant, players (a name per seat), roles (per
// seat: 0 = player A, 1 = player B), opening {fen, moves}, moves, result
// (the return per seat), reason (how it ended; "forfeit: ..." when a player
// failed), forfeit_seat (-1: none), plies, seconds, seed, time (UTC end).
#include <cstdint>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "match/openings.h"

namespace vzero {

struct MatchRecord {
  std::string match;  // the match's name inside a games file
  int index = 0;      // the game's index in its match (fixes opening, seat order, seeds)
  std::string variant;
  std::vector<std::string> players;  // per seat
  std::vector<int> roles;            // per seat: 0 = A, 1 = B
  Opening opening;
  std::vector<std::string> moves;  // actions after the opening, in the rules notation
  std::vector<double> result;      // return per seat: +1 win, -1 loss, 0 draw (3-4 seats: by rank)
  std::string reason;              // the end reason of the rules, or "forfeit: ..."
  int forfeit_seat = -1;
  int plies = 0;         // actions played after the opening
  double seconds = 0.0;  // wall time of the game
  uint64_t seed = 0;     // the seed its players were made with
  std::string time;      // UTC when it ended, "YYYY-MM-DDTHH:MM:SSZ"
};

// The record as one line of JSON (no newline).
std::string to_json_line(const MatchRecord& r);
// The record of a JSON line (throws Error with the reason).
MatchRecord parse_json_line(const std::string& line);
// Every record of a games file, in file order ("FILE:LINE: why" on a bad line).
// A missing file has none; a last line without its newline (a write cut
// short) is left out.
std::vector<MatchRecord> read_records(const std::string& path);

// The time now as "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_now();

// Appends text to a file, one whole write at a time, from many threads.
class AppendFile {
 public:
  explicit AppendFile(const std::string& path);  // throws Error when it cannot be opened
  // Appends text and flushes (throws Error when the write fails).
  void append(const std::string& text);

 private:
  std::string path_;
  std::mutex mutex_;
  std::ofstream out_;
};

}  // namespace vzero
