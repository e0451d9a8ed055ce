#pragma once
// HDF5 shards of self-play data: a writer that buffers games and writes one
// file per N games (temporary name, renamed when complete), a background
// writer thread for self-play, and a reader that returns exactly what was
// written or throws Error. Schema and protocol: docs/shards.md.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "selfplay/sample.h"

namespace vzero {

// The shard format this build writes and the only one it reads.
constexpr int kShardFormatVersion = 1;

// Float32 -> IEEE binary16 bits, round to nearest even; overflow gives inf, NaN stays NaN.
uint16_t float_to_half(float value);
// IEEE binary16 bits -> float32, exact (subnormals, inf and NaN included).
float half_to_float(uint16_t bits);
// The float a value becomes after a trip through float16.
inline float round_to_half(float value) { return half_to_float(float_to_half(value)); }

// One shard, as read back.
struct ShardData {
  ShardMeta meta;
  std::vector<Sample> samples;    // in the order written
  std::vector<GameRecord> games;  // in the order written
};

// Throws Error when meta cannot describe a shard (sizes out of range, empty variant).
void check_shard_meta(const ShardMeta& meta);
// Throws Error when a game or its samples do not fit meta (sizes, ranges, game ids).
void check_game(const ShardMeta& meta, const GameRecord& game, const std::vector<Sample>& samples);

// Writes one complete shard at path: first to path + ".tmp", then synced and
// renamed to path; throws Error if path already exists or on any I/O failure
// (the temporary file is removed). The games' samples are concatenated in order.
void write_shard(const std::string& path, const ShardMeta& meta,
                 const std::vector<GameRecord>& games,
                 const std::vector<std::vector<Sample>>& samples_per_game);

// The identity of a shard, from its attributes only; throws Error naming the
// file when it is not a readable shard of kShardFormatVersion.
ShardMeta read_shard_meta(const std::string& path);
// How many samples and games a shard holds, from its attributes only (throws like read_shard_meta).
struct ShardCounts {
  int64_t samples = 0, games = 0;
};
ShardCounts read_shard_counts(const std::string& path);
// The whole shard, checked (Fletcher32 per chunk, types, sizes, content hash);
// throws Error naming the file on any problem, never returns altered data.
ShardData read_shard(const std::string& path);

// Complete shards (`*.h5`, never `*.h5.tmp`) in dir, oldest first by
// modification time, ties by name; throws Error if dir is not a directory.
std::vector<std::string> list_shards(const std::string& dir);

// Buffers games and writes `<dir>/<prefix>-<pid>-<counter>.h5` every
// games_per_shard games. Not thread-safe: one owner (see AsyncShardWriter).
class ShardWriter {
 public:
  // Creates dir if needed; throws Error on a bad meta, prefix or games_per_shard < 1.
  ShardWriter(std::string dir, std::string prefix, ShardMeta meta, int games_per_shard);
  // Flushes; an error there is reported on stderr (call close() to get it as an exception).
  ~ShardWriter();
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;

  // Buffers one game and its samples (checked); writes a shard when N games are buffered.
  void add_game(GameRecord game, std::vector<Sample> samples);
  // Writes the buffered games, if any, as a (partial) shard.
  void flush();
  // Flushes; afterwards add_game throws.
  void close();

  const ShardMeta& meta() const { return meta_; }
  // Paths of the shards written so far, in order.
  const std::vector<std::string>& written() const { return written_; }
  int64_t games_written() const { return games_written_; }
  int64_t samples_written() const { return samples_written_; }
  int buffered_games() const { return static_cast<int>(games_.size()); }

 private:
  std::string next_path();

  std::string dir_, prefix_;
  ShardMeta meta_;
  int games_per_shard_;
  bool closed_ = false;
  std::vector<GameRecord> games_;
  std::vector<std::vector<Sample>> samples_;
  std::vector<std::string> written_;
  int64_t games_written_ = 0, samples_written_ = 0;
};

// A ShardWriter on its own thread: add_game checks the game and queues it, so
// callers (many self-play threads) never wait for the disk. Thread-safe.
class AsyncShardWriter {
 public:
  // Same arguments as ShardWriter; starts the writer thread.
  AsyncShardWriter(std::string dir, std::string prefix, ShardMeta meta, int games_per_shard);
  // Closes; an error there is reported on stderr.
  ~AsyncShardWriter();
  AsyncShardWriter(const AsyncShardWriter&) = delete;
  AsyncShardWriter& operator=(const AsyncShardWriter&) = delete;

  // Checks and queues a game; throws Error on a bad game or if an earlier write failed.
  void add_game(GameRecord game, std::vector<Sample> samples);
  // Waits until everything queued so far is on disk, the partial shard included.
  void flush();
  // Writes everything queued, stops the thread; rethrows the first write error.
  void close();

  // Paths of the shards written so far, in order.
  std::vector<std::string> written() const;
  int64_t games_written() const;
  int queued_games() const;

 private:
  struct Item {
    bool flush = false;  // a flush request instead of a game
    GameRecord game;
    std::vector<Sample> samples;
  };
  void run();
  void rethrow_error_locked();

  ShardMeta meta_;
  ShardWriter writer_;  // used by the thread only (and by close after join)
  mutable std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<Item> queue_;
  uint64_t enqueued_ = 0, processed_ = 0;  // items ever queued / finished
  int queued_games_ = 0;
  bool stopping_ = false, closed_ = false;
  std::exception_ptr error_;
  std::vector<std::string> written_;
  int64_t games_written_ = 0;
  std::thread thread_;
};

}  // namespace vzero
