// Game records as JSON lines (nlohmann-json), and an append-only file.
#include "mcts/game_record.h"

#include <cmath>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "game/error.h"

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

MatchRecord parse_json_line(const std::string& line) {
  MatchRecord r;
  try {
    const json j = json::parse(line);
    check(j.is_object(), "not a JSON object");
    r.match = j.at("match").get<std::string>();
    r.index = j.at("index").get<int>();
    r.variant = j.at("variant").get<std::string>();
    r.players = j.at("players").get<std::vector<std::string>>();
    r.roles = j.value("roles", std::vector<int>{});
    r.opening.fen = j.at("opening").at("fen").get<std::string>();
    r.opening.moves = j.at("opening").at("moves").get<std::vector<std::string>>();
    r.moves = j.at("moves").get<std::vector<std::string>>();
    r.result = j.at("result").get<std::vector<double>>();
    r.reason = j.at("reason").get<std::string>();
    r.forfeit_seat = j.value("forfeit_seat", -1);
    r.plies = j.value("plies", int(r.moves.size()));
    r.seconds = j.value("seconds", 0.0);
    r.seed = j.value("seed", uint64_t(0));
    r.time = j.value("time", std::string());
  } catch (const json::exception& e) {
    throw Error(std::string("bad game record: ") + e.what());
  }
  const size_t seats = r.players.size();
  check(seats >= 2 && seats <= 4, "bad game record: 2 to 4 players expected");
  check(r.result.size() == seats, "bad game record: one result per player expected");
  check(r.roles.empty() || r.roles.size() == seats,
        "bad game record: one role per player expected");
  check(r.index >= 0, "bad game record: negative index");
  check(r.forfeit_seat >= -1 && r.forfeit_seat < int(seats),
        "bad game record: forfeit_seat out of range");
  for (double v : r.result)
    check(std::isfinite(v) && v >= -1.0 && v <= 1.0, "bad game record: result out of [-1, 1]");
  return r;
}

std::vector<MatchRecord> read_records(const std::string& path) {
  std::vector<MatchRecord> out;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    check(!std::filesystem::exists(path), "cannot read games file '" + path + "'");
    return out;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
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
  if (fs::exists(path, ec) && fs::file_size(path, ec) > 0) {
    // Drops a last line cut short by a kill, so that new lines start clean.
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    if (text.back() != '\n')
      fs::resize_file(path, text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
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
