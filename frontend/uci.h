#pragma once
// vzero as a UCI engine for the 2-player variants, following Fairy-Stockfish's
// conventions (UCI_Variant, FEN and move notation), so that GUIs and match
// tools that drive Fairy-Stockfish can drive vzero. docs/uci.md describes it.
// The engine never touches stdin/stdout: lines go in through handle_line and
// come out through a sink, so tests and fuzzers drive it directly.
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frontend/analysis.h"
#include "frontend/uci_search.h"

namespace vzero {

// The words of a UCI line (split at whitespace), as the engine reads them.
std::vector<std::string> uci_words(const std::string& line);
// s in lower case (ASCII), as the engine compares option names.
std::string ascii_lower(std::string s);

// The limits of `go` words (words[0] == "go") for the side to act (0: white's
// clock), with the Nodes option's value; what it cannot use goes to warn.
// The clock's share is never more than 3/4 of what is left past a 30 ms
// overhead (9/10 on the last move before a time control).
SearchLimits go_limits(const std::vector<std::string>& words, int side, int64_t nodes_option,
                       const std::function<void(const std::string&)>& warn);

// Leaves a UCI search gathers per network call (the Batch option's default):
// `vzero bench uci` measured it (README, Benchmarks).
constexpr int kUciBatch = 8;

class UciEngine {
 public:
  using Sink = std::function<void(const std::string& line)>;
  // Replies go to out (one line per call, from this thread or the search's);
  // Model "auto" looks for <variant>.pt in model_dirs.
  explicit UciEngine(Sink out, std::vector<std::string> model_dirs = default_model_dirs());
  ~UciEngine();  // stops a running search

  // Handles one line of input; false once `quit` was read. Never throws: bad
  // input is answered with `info string ...`.
  bool handle_line(const std::string& line);
  // Blocks until a running search has sent its bestmove.
  void wait();
  // At the end of input: lets a limited search finish and stops an infinite one.
  void finish();

 private:
  void send(const std::string& line);  // one line to the sink, never two at once
  void uci();                          // id, options, uciok
  void set_option(const std::vector<std::string>& words);    // throws Error on bad input
  void set_position(const std::vector<std::string>& words);  // throws Error on a bad FEN
  void go(const std::vector<std::string>& words);            // starts a SearchJob
  void stop_search();  // stops a search and waits for its bestmove
  void ponderhit();    // a pondering search goes on as a normal one
  // The searches of the next go, one per thread, at position_: the last
  // go's when position_ extends the position they searched (tree reuse),
  // else new ones.
  std::vector<std::shared_ptr<Search>> searches_at_position();
  void reset_engine();     // after an option the engine depends on changed (drops the trees)
  const Engine& engine();  // resolves the model (on isready or go) after an option changed
  const Game& game() const;

  Sink out_;
  std::mutex out_mutex_;
  std::vector<std::string> model_dirs_;
  // Options.
  std::string variant_ = "chess", model_ = "auto", evaluator_ = kFallbackEvaluator;
  int threads_ = 1, multipv_ = 1;
  int batch_ = kUciBatch;  // leaves gathered per network call (Batch)
  bool pipeline_ = false;  // the next batch gathered while the network runs one (Pipeline)
  // Priors as p^(1/T) (PolicyTemperature, T x 100).
  double policy_temperature_ = play_search_config().policy_temperature;
  int64_t nodes_ = 0;
  bool show_wdl_ = true;

  std::unique_ptr<GameState> position_;
  // position_ as the position command gave it: its start (startpos or the
  // FEN) and the actions after it.
  std::string position_start_ = "startpos";
  std::vector<int> position_moves_;
  std::unique_ptr<Engine> engine_;  // null after an option it depends on changed
  // The searches of the last go (after engine_, whose evaluator they use:
  // freed first) and the position they are at.
  std::vector<std::shared_ptr<Search>> searches_;
  std::string searched_start_;
  std::vector<int> searched_moves_;
  std::unique_ptr<SearchJob> job_;
};

}  // namespace vzero
