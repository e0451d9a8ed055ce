// ShardWriter (buffers games, one file per N) and AsyncShardWriter (the same
// on a background thread with a queue).
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "selfplay/shard.h"
#include "util/error.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

// A process-wide counter so that two writers with one prefix never pick the same name.
std::atomic<uint64_t>& shard_counter() {
  static std::atomic<uint64_t> counter{0};
  return counter;
}

}  // namespace

ShardWriter::ShardWriter(std::string dir, std::string prefix, ShardMeta meta, int games_per_shard)
    : dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      meta_(std::move(meta)),
      games_per_shard_(games_per_shard) {
  check_shard_meta(meta_);
  if (games_per_shard_ < 1) throw Error("shard writer: games per shard must be at least 1");
  if (prefix_.empty() || prefix_.find('/') != std::string::npos ||
      prefix_.find('\0') != std::string::npos)
    throw Error("shard writer: bad file name prefix '" + prefix_ + "'");
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (!fs::is_directory(dir_, ec)) throw Error("shard directory " + dir_ + ": cannot create it");
}

ShardWriter::~ShardWriter() {
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vzero: shard writer: %s\n", e.what());
  }
}

void ShardWriter::add_game(GameRecord game, std::vector<Sample> samples) {
  if (closed_) throw Error("shard writer: add_game after close");
  check_game(meta_, game, samples);
  for (const GameRecord& g : games_)
    if (g.game_id == game.game_id)
      throw Error("shard writer: game_id " + std::to_string(game.game_id) +
                  " added twice to one shard");
  games_.push_back(std::move(game));
  samples_.push_back(std::move(samples));
  if (static_cast<int>(games_.size()) >= games_per_shard_) flush();
}

void ShardWriter::flush() {
  if (games_.empty()) return;
  const std::string path = next_path();
  write_shard(path, meta_, games_, samples_);
  written_.push_back(path);
  games_written_ += static_cast<int64_t>(games_.size());
  for (const auto& s : samples_) samples_written_ += static_cast<int64_t>(s.size());
  games_.clear();
  samples_.clear();
}

void ShardWriter::close() {
  if (closed_) return;
  closed_ = true;
  flush();
}

// `<dir>/<prefix>-<pid>-<counter>.h5`, skipping names already taken.
std::string ShardWriter::next_path() {
  for (;;) {
    char name[64];
    std::snprintf(name, sizeof name, "-%ld-%06llu.h5", static_cast<long>(::getpid()),
                  static_cast<unsigned long long>(shard_counter()++));
    const fs::path path = fs::path(dir_) / (prefix_ + name);
    std::error_code ec;
    if (!fs::exists(path, ec) && !fs::exists(path.string() + ".tmp", ec)) return path.string();
  }
}

AsyncShardWriter::AsyncShardWriter(std::string dir, std::string prefix, ShardMeta meta,
                                   int games_per_shard)
    : meta_(meta), writer_(std::move(dir), std::move(prefix), std::move(meta), games_per_shard) {
  thread_ = std::thread([this] { run(); });
}

AsyncShardWriter::~AsyncShardWriter() {
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vzero: shard writer: %s\n", e.what());
  }
}

void AsyncShardWriter::rethrow_error_locked() {
  if (error_) std::rethrow_exception(error_);
}

void AsyncShardWriter::add_game(GameRecord game, std::vector<Sample> samples) {
  check_game(meta_, game, samples);
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_ || stopping_) throw Error("shard writer: add_game after close");
  rethrow_error_locked();
  queue_.push_back(Item{false, std::move(game), std::move(samples)});
  ++enqueued_;
  ++queued_games_;
  work_.notify_one();
}

void AsyncShardWriter::flush() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_) return;
  queue_.push_back(Item{true, {}, {}});
  const uint64_t ticket = ++enqueued_;
  work_.notify_one();
  done_.wait(lock, [&] { return processed_ >= ticket; });
  rethrow_error_locked();
}

void AsyncShardWriter::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return;
    stopping_ = true;
    work_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  rethrow_error_locked();
}

// The writer thread: writes queued games in order, flushes on request and at the end.
void AsyncShardWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  // Runs step unlocked unless skip, then under the lock keeps its error (the first one wins) and
  // the writer's progress.
  const auto step_unlocked = [&](bool skip, const auto& step) {
    lock.unlock();
    std::exception_ptr error;
    if (!skip) {
      try {
        step();
      } catch (...) {
        error = std::current_exception();
      }
    }
    lock.lock();
    if (error && !error_) error_ = error;
    written_ = writer_.written();
    games_written_ = writer_.games_written();
  };
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) break;  // stopping, and everything is written
    Item item = std::move(queue_.front());
    queue_.pop_front();
    if (!item.flush) --queued_games_;
    // After a failure, drop the rest (the error is reported).
    step_unlocked(error_ != nullptr, [&] {
      if (item.flush) {
        writer_.flush();
      } else {
        writer_.add_game(std::move(item.game), std::move(item.samples));
      }
    });
    ++processed_;
    done_.notify_all();
  }
  step_unlocked(error_ != nullptr, [&] { writer_.close(); });
  done_.notify_all();
}

std::vector<std::string> AsyncShardWriter::written() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return written_;
}

int64_t AsyncShardWriter::games_written() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return games_written_;
}

int AsyncShardWriter::queued_games() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queued_games_;
}

}  // namespace vzero
