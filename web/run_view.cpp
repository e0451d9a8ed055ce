// The run folder as the web page sees it: plain reads of the loop's files.
#include "web/run_view.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "game/builtin/games.h"
#include "match/game_record.h"
#include "match/openings.h"
#include "match/pgn.h"
#include "training/run_dir.h"
#include "util/error.h"

namespace vzero {
namespace fs = std::filesystem;
namespace {

// The whole text of a file; "" when it is absent.
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The complete lines of text (a last line without its newline, a write cut short, is left out).
std::vector<std::string> complete_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(text.substr(start, nl - start));
  return lines;
}

// One cell as JSON: a number where it reads as one, null when empty, else the text.
nlohmann::json cell(const std::string& text) {
  if (text.empty()) return nullptr;
  try {
    size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return text;
}

// The cells of one CSV line ("..." quotes a cell holding commas; "" inside is one quote).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (quoted && c == '"' && k + 1 < line.size() && line[k + 1] == '"') {
      cells.back() += '"';
      ++k;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

// A CSV file as {header, rows} (numbers where cells read as one, null for empty cells); both empty
// when absent.
nlohmann::json read_csv(const std::string& path) {
  nlohmann::json table = {{"header", nlohmann::json::array()}, {"rows", nlohmann::json::array()}};
  const std::vector<std::string> lines = complete_lines(slurp(path));
  for (size_t k = 0; k < lines.size(); ++k) {
    nlohmann::json cells = nlohmann::json::array();
    for (const std::string& item : csv_cells(lines[k]))
      cells.push_back(k == 0 ? nlohmann::json(item) : cell(item));
    if (k == 0)
      table["header"] = cells;
    else
      table["rows"].push_back(cells);
  }
  return table;
}

// The records of generation gen (throws Error for a generation out of range).
std::vector<MatchRecord> records_of(const std::string& dir, int gen) {
  check(gen >= 0 && gen <= 999999, "generation out of range");
  return read_records(RunFolder(dir).records_path(gen));
}

// Record i of generation gen (throws Error when there is none).
MatchRecord record_of(const std::string& dir, int gen, int i) {
  std::vector<MatchRecord> records = records_of(dir, gen);
  check(i >= 0 && i < int(records.size()),
        "no game " + std::to_string(i) + " in generation " + std::to_string(gen));
  return records[i];
}

// The modification time and size of a file as text ("-" when absent).
std::string file_stamp(const std::string& path) {
  std::error_code ec;
  const auto time = fs::last_write_time(path, ec);
  if (ec) return "-";
  const auto size = fs::file_size(path, ec);
  return std::to_string(time.time_since_epoch().count()) + ":" + std::to_string(ec ? 0 : size);
}

}  // namespace

std::string run_stamp(const std::string& dir) {
  const RunFolder folder(dir);
  std::string stamp = file_stamp(folder.metrics_path()) + " " + file_stamp(folder.ratings_path()) +
                      " " + file_stamp(folder.progress_path()) + " " +
                      file_stamp(folder.config_path()) + " " + file_stamp(folder.gating_path());
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder.records_dir(), ec))
    stamp += " " + entry.path().filename().string() + "=" + file_stamp(entry.path().string());
  return stamp;
}

nlohmann::json run_summary(const std::string& dir) {
  const RunFolder folder(dir);
  nlohmann::json out;
  out["dir"] = dir;
  out["name"] = fs::path(dir).lexically_normal().filename().string();
  if (out["name"].get<std::string>().empty())
    out["name"] = fs::path(dir).lexically_normal().parent_path().filename().string();
  out["config"] = slurp(folder.config_path());
  out["metrics"] = read_csv(folder.metrics_path());
  out["ratings"] = read_csv(folder.ratings_path());
  out["gating"] = read_csv(folder.gating_path());
  out["progress"] = complete_lines(slurp(folder.progress_path()));
  nlohmann::json gens = nlohmann::json::array();
  std::error_code ec;
  std::vector<int> found;
  for (const auto& entry : fs::directory_iterator(folder.records_dir(), ec)) {
    const std::string name = entry.path().filename().string();
    const size_t digits = name.size() >= 10 ? name.size() - 10 : 0;  // "gen-" DIGITS ".jsonl"
    if (digits == 0 || digits > 6 || name.rfind("gen-", 0) != 0 ||
        name.substr(4 + digits) != ".jsonl" ||
        name.substr(4, digits).find_first_not_of("0123456789") != std::string::npos)
      continue;
    const int g = std::stoi(name.substr(4, digits));
    found.push_back(g);
  }
  std::sort(found.begin(), found.end());
  for (int g : found) gens.push_back(g);
  out["record_generations"] = gens;
  return out;
}

nlohmann::json run_games(const std::string& dir, int gen) {
  nlohmann::json list = nlohmann::json::array();
  const std::vector<MatchRecord> records = records_of(dir, gen);
  for (size_t i = 0; i < records.size(); ++i) {
    const MatchRecord& r = records[i];
    list.push_back({{"i", i},
                    {"match", r.match},
                    {"index", r.index},
                    {"variant", r.variant},
                    {"players", r.players},
                    {"result", r.result},
                    {"reason", r.reason},
                    {"plies", r.plies}});
  }
  return list;
}

nlohmann::json run_game(const std::string& dir, int gen, int i) {
  const MatchRecord r = record_of(dir, gen, i);
  const Game& game = game_by_id(r.variant);
  std::unique_ptr<GameState> state = game.new_state(r.opening.fen);
  nlohmann::json fens = {state->fen()};
  std::vector<std::string> moves = r.opening.moves;
  moves.insert(moves.end(), r.moves.begin(), r.moves.end());
  for (const std::string& move : moves) {
    state->apply(state->text_to_action(move));
    fens.push_back(state->fen());
  }
  return {{"i", i},
          {"match", r.match},
          {"variant", r.variant},
          {"players", r.players},
          {"result", r.result},
          {"reason", r.reason},
          {"opening_plies", r.opening.moves.size()},
          {"moves", moves},
          {"fens", fens},
          {"pgn", game.num_players() == 2}};
}

std::string run_game_pgn(const std::string& dir, int gen, int i) {
  const MatchRecord r = record_of(dir, gen, i);
  return to_pgn(game_by_id(r.variant), r);
}

std::string play_pgn(const std::string& variant, const std::string& fen,
                     const std::vector<std::string>& moves) {
  const Game& game = game_by_id(variant);
  check(game.num_players() == 2, "PGN is for the 2-player variants");
  std::unique_ptr<GameState> state = game.new_state(fen);
  for (const std::string& move : moves) state->apply(state->text_to_action(move));
  MatchRecord r;
  r.match = "vzero web game";
  r.variant = variant;
  r.players = {"White", "Black"};
  r.opening.fen = fen;
  r.moves = moves;
  r.result = state->is_terminal() ? state->returns() : std::vector<double>{0.0, 0.0};
  r.time = utc_now();
  std::string pgn = to_pgn(game, r);
  if (!state->is_terminal()) {  // an unfinished game's result is "*", and it has no end reason
    const size_t empty = pgn.rfind(" {}");
    if (empty != std::string::npos) pgn.erase(empty, 3);
    for (const std::string from : {"\"1/2-1/2\"]", " 1/2-1/2\n"}) {
      const size_t at = pgn.rfind(from);
      if (at != std::string::npos) pgn.replace(at, from.size(), from[0] == '"' ? "\"*\"]" : " *\n");
    }
  }
  return pgn;
}

}  // namespace vzero
