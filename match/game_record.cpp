// Game records as JSON lines (nlohmann-json), and an append-only file.
#include "match/game_record.h"

#include <cmath>
#include <ctime>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/files.h"

namespace vzero {

using nlohmann::json;

std::string to_json_line(const MatchRecord& r) {
  json j;
  j["match"] = r.match;
  j["index"] = r.index;
  j["variant"] = r.variant;
  j["players"] = r.players;
  j["roles"] = r.roles;
  j["opening"] = {{"fen", r.opening.fen}, {"moves", r.opening.moves}};
  j["moves"] = r.moves;
  j["result"] = r.result;
  j["reason"] = r.reason;
  j["forfeit_seat"] = r.forfeit_seat;
  j["plies"] = r.plies;
  j["seconds"] = r.seconds;
  j["seed"] = r.seed;
  j["time"] = r.time;
  return j.dump();
}

namespace {

// An integer in [lo, hi]: a fraction or a number out of range is an error, never a cast.
int64_t integer(const json& v, const char* key, int64_t lo, int64_t hi) {
  check(v.is_number_integer() && !(v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(hi)) &&
            v.get<int64_t>() >= lo && v.get<int64_t>() <= hi,
        std::string("bad game record: '") + key + "' must be an integer in [" + std::to_string(lo) +
            ", " + std::to_string(hi) + "]");
  return v.get<int64_t>();
}

}  // namespace

MatchRecord parse_json_line(const std::string& line) {
  constexpr int64_t kIntMax = std::numeric_limits<int>::max();
  MatchRecord r;
  try {
    const json j = json::parse(line);
    check(j.is_object(), "not a JSON object");
    r.match = j.at("match").get<std::string>();
    r.index = int(integer(j.at("index"), "index", 0, kIntMax));
    r.variant = j.at("variant").get<std::string>();
    r.players = j.at("players").get<std::vector<std::string>>();
    const json roles = j.value("roles", json::array());
    check(roles.is_array(), "bad game record: 'roles' must be an array");
    for (const json& role : roles) r.roles.push_back(int(integer(role, "roles", 0, 1)));
    r.opening.fen = j.at("opening").at("fen").get<std::string>();
    r.opening.moves = j.at("opening").at("moves").get<std::vector<std::string>>();
    r.moves = j.at("moves").get<std::vector<std::string>>();
    r.result = j.at("result").get<std::vector<double>>();
    r.reason = j.at("reason").get<std::string>();
    r.forfeit_seat = int(integer(j.value("forfeit_seat", json(-1)), "forfeit_seat", -1, 3));
    r.plies = int(integer(j.value("plies", json(r.moves.size())), "plies", 0, kIntMax));
    r.seconds = j.value("seconds", 0.0);
    const json seed = j.value("seed", json(0));
    check(seed.is_number_unsigned() || (seed.is_number_integer() && seed.get<int64_t>() == 0),
          "bad game record: 'seed' must be an integer in [0, 2^64)");
    r.seed = seed.get<uint64_t>();
    r.time = j.value("time", std::string());
  } catch (const json::exception& e) {
    throw Error(std::string("bad game record: ") + e.what());
  }
  check(std::isfinite(r.seconds) && r.seconds >= 0.0, "bad game record: 'seconds' out of range");
  const size_t seats = r.players.size();
  check(seats >= 2 && seats <= 4, "bad game record: 2 to 4 players expected");
  check(r.result.size() == seats, "bad game record: one result per player expected");
  check(r.roles.empty() || r.roles.size() == seats,
        "bad game record: one role per player expected");
  check(r.forfeit_seat >= -1 && r.forfeit_seat < int(seats),
        "bad game record: forfeit_seat out of range");
  for (double v : r.result)
    check(std::isfinite(v) && v >= -1.0 && v <= 1.0, "bad game record: result out of [-1, 1]");
  return r;
}

std::vector<MatchRecord> read_records(const std::string& path) {
  std::vector<MatchRecord> out;
  // No file is no games. Asked before opening: a file that another rank creates meanwhile
  // is then read, not refused as unreadable.
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) && !ec) return out;
  const std::string text = read_text_file(path);
  size_t start = 0;
  for (int number = 1; start < text.size(); ++number) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // a line cut short: never completed
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      out.push_back(parse_json_line(line));
    } catch (const Error& e) {
      throw Error(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return out;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

AppendFile::AppendFile(const std::string& path) : path_(path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec)) {
    // Drops a last line cut short by a kill, so that new lines start clean.
    const std::string text = read_text_file(path);
    if (!text.empty() && text.back() != '\n') {
      const size_t end = text.rfind('\n');
      fs::resize_file(path, end == std::string::npos ? 0 : end + 1, ec);
      check(!ec, "cannot write '" + path + "': " + ec.message());
    }
  }
  out_.open(path, std::ios::app | std::ios::binary);
  check(bool(out_), "cannot write '" + path + "'");
}

void AppendFile::append(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  out_ << text;
  out_.flush();
  check(bool(out_), "writing '" + path_ + "' failed");
}

}  // namespace vzero
