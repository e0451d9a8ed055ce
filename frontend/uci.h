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
  void stop_search();      // stops a search and waits for its bestmove
  const Engine& engine();  // resolves the model (on isready or go) after an option changed
  const Game& game() const;

  Sink out_;
  std::mutex out_mutex_;
  std::vector<std::string> model_dirs_;
  // Options.
  std::string variant_ = "chess", model_ = "auto", evaluator_ = kFallbackEvaluator;
  int threads_ = 1, multipv_ = 1;
  int64_t nodes_ = 0;
  bool show_wdl_ = true;

  std::unique_ptr<GameState> position_;
  std::unique_ptr<Engine> engine_;  // null after an option it depends on changed
  std::unique_ptr<SearchJob> job_;
};

}  // namespace vzero
