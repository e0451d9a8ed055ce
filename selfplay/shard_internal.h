#pragma once
// Internals shared by shard.cpp (writing) and shard_read.cpp (reading): HDF5
// handles, the process-wide HDF5 lock, the on-disk types, the columns of a
// shard and its hashes. Not part of the API.
#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "selfplay/sample.h"
#include "util/error.h"

namespace vzero::shard_detail {

// Owns one HDF5 id and closes it with the matching H5?close.
class H5Id {
 public:
  using Closer = herr_t (*)(hid_t);
  H5Id() = default;
  H5Id(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  H5Id(H5Id&& other) noexcept : id_(std::exchange(other.id_, -1)), closer_(other.closer_) {}
  H5Id& operator=(H5Id&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, -1);
      closer_ = other.closer_;
    }
    return *this;
  }
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  ~H5Id() { reset(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; false when HDF5 reports a failure (for files: the final flush).
  bool reset() {
    bool ok = true;
    if (id_ >= 0 && closer_) ok = closer_(id_) >= 0;
    id_ = -1;
    return ok;
  }

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Every HDF5 call of this file runs with this lock held.
inline std::mutex& hdf5_mutex() {
  static std::mutex m;
  return m;
}

// Takes the lock and silences HDF5's error printing (a per-thread setting).
inline std::unique_lock<std::mutex> lock_hdf5() {
  std::unique_lock<std::mutex> lock(hdf5_mutex());
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  return lock;
}

// The on-disk float16 type: IEEE binary16, little-endian, as h5py makes it.
inline H5Id half_type(bool little_endian_file) {
  H5Id t(H5Tcopy(little_endian_file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT), H5Tclose);
  if (!t.valid() || H5Tset_fields(t.get(), 15, 10, 5, 0, 10) < 0 || H5Tset_size(t.get(), 2) < 0 ||
      H5Tset_ebias(t.get(), 15) < 0)
    throw Error("cannot make the HDF5 float16 type");
  return t;
}

// A fixed-length, null-padded ASCII string type of size bytes.
inline H5Id string_type(size_t size) {
  H5Id t(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!t.valid() || H5Tset_size(t.get(), std::max<size_t>(size, 1)) < 0 ||
      H5Tset_strpad(t.get(), H5T_STR_NULLPAD) < 0)
    throw Error("cannot make an HDF5 string type");
  return t;
}

// ---------------------------------------------------------------- hashing

constexpr uint64_t kFnvBasis = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

// FNV-1a 64 over n bytes, continuing from h.
inline uint64_t fnv1a(uint64_t h, const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * kFnvPrime;
  return h;
}

// The canonical text of a shard's attributes, hashed into meta_hash.
inline std::string meta_text(const ShardMeta& m, int64_t samples, int64_t games) {
  std::string s;
  auto add = [&s](const char* key, const std::string& value) {
    s += std::string(key) + "=" + value + "\n";
  };
  add("format_version", std::to_string(m.format_version));
  add("variant", m.variant);
  add("rules_hash", std::to_string(m.rules_hash));
  add("encoding_hash", std::to_string(m.encoding_hash));
  add("config_hash", std::to_string(m.config_hash));
  add("planes", std::to_string(m.planes));
  add("scalars", std::to_string(m.scalars));
  add("height", std::to_string(m.height));
  add("width", std::to_string(m.width));
  add("num_actions", std::to_string(m.num_actions));
  add("players", std::to_string(m.players));
  add("generation", std::to_string(m.generation));
  add("num_samples", std::to_string(samples));
  add("num_games", std::to_string(games));
  return s;
}

// ---------------------------------------------------------------- the checksum header

// A shard is an HDF5 file with a user block of kSealBytes (HDF5 starts after
// it and never reads it) holding the checksum header: kSealMagic, the file's
// size in bytes (uint64 LE), then FNV-1a 64 (uint64 LE) of every byte from
// kSealHashedFrom to the end of the file; the rest of the block is zeros. The
// reader checks it before libhdf5 sees the file. docs/shards.md.
constexpr size_t kSealBytes = 512;
constexpr size_t kSealHashedFrom = 24;
constexpr char kSealMagic[8] = {'V', 'Z', 'S', 'H', 'A', 'R', 'D', '1'};

inline void put_le64(char* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = char((v >> (8 * i)) & 0xff);
}
inline uint64_t get_le64(const char* in) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | uint8_t(in[i]);
  return v;
}

// Writes the checksum header into the user block of the closed HDF5 file at
// path (made with a kSealBytes user block); throws Error naming the file.
// Tests and fuzz/fuzz_shard.cpp reseal files they changed on purpose.
void seal_file(const std::string& path);

// What check_seal found before the file goes to libhdf5.
enum class Seal {
  checked,  // the checksum header matches the whole file
  legacy,   // an HDF5 file from offset 0 without a user block: a shard of a vzero before checksums
  foreign,  // neither: not an HDF5 file (text, empty, ...)
};
// Checks path's checksum header; throws Error("shard <path>: ...damaged...")
// when there is one that does not match the file (or the file starts like a
// sealed shard whose header is broken), or when the file cannot be read.
// trust_checked: a file this process checked before, unchanged in inode, size
// and modification time, passes without being read again (attribute reads).
Seal check_seal(const std::string& path, bool trust_checked);

// ---------------------------------------------------------------- columns

// A shard's data as flat arrays, one per dataset, in memory (host) order.
struct Columns {
  int64_t samples = 0, games = 0;
  std::vector<uint8_t> planes;
  std::vector<float> scalars;
  std::vector<int64_t> policy_offset;
  std::vector<int32_t> policy_index;
  std::vector<uint16_t> policy_weight;  // float16 bits
  std::vector<float> root_value, result;
  std::vector<int8_t> player;
  std::vector<int32_t> ply;
  std::vector<int64_t> game_id;
  std::vector<int32_t> generation;
  std::vector<uint8_t> full_search;
  std::vector<int64_t> g_game_id;
  std::vector<uint64_t> g_seed;
  std::vector<std::string> g_start_fen;
  std::vector<int64_t> g_action_offset;
  std::vector<int32_t> g_actions;
  std::vector<float> g_result;
  std::vector<std::string> g_end_reason;
  std::vector<uint8_t> g_resigned;
};

// Calls f(name, data, bytes) for every numeric dataset and g(name, strings)
// for every string dataset, in the order that defines content_hash.
template <class C, class F, class G>
void for_each_column(C& c, F f, G g) {
  f("planes", c.planes);
  f("scalars", c.scalars);
  f("policy_offset", c.policy_offset);
  f("policy_index", c.policy_index);
  f("policy_weight", c.policy_weight);
  f("root_value", c.root_value);
  f("result", c.result);
  f("player", c.player);
  f("ply", c.ply);
  f("game_id", c.game_id);
  f("generation", c.generation);
  f("full_search", c.full_search);
  f("games/game_id", c.g_game_id);
  f("games/seed", c.g_seed);
  g("games/start_fen", c.g_start_fen);
  f("games/action_offset", c.g_action_offset);
  f("games/actions", c.g_actions);
  f("games/result", c.g_result);
  g("games/end_reason", c.g_end_reason);
  f("games/resigned", c.g_resigned);
}

// content_hash: FNV-1a 64 over, per dataset in order, its name, a zero byte,
// then its elements' little-endian bytes (strings: each one's bytes and a zero byte).
inline uint64_t content_hash(const Columns& c) {
  static_assert(sizeof(float) == 4, "float32 expected");
  uint64_t h = kFnvBasis;
  auto name = [&h](const char* n) { h = fnv1a(h, n, std::strlen(n) + 1); };
  for_each_column(
      c,
      [&](const char* n, const auto& v) {
        name(n);
        h = fnv1a(h, v.data(), v.size() * sizeof(v[0]));
      },
      [&](const char* n, const std::vector<std::string>& v) {
        name(n);
        for (const auto& s : v) h = fnv1a(h, s.c_str(), s.size() + 1);
      });
  return h;
}

// Flattens games and their samples (already checked) into columns.
Columns gather(const std::vector<GameRecord>& games,
               const std::vector<std::vector<Sample>>& samples_per_game);

// Writes the whole HDF5 file at path (caller holds the HDF5 lock): the
// attributes of m (format_version: this build's) with both hashes, then the
// columns as they are, unchecked (fuzz/fuzz_shard.cpp writes broken ones),
// then (sealed) the checksum header; sealed false writes a shard as vzero did
// before checksums (tests of legacy shards). Each column must have the length
// its shape gives (docs/shards.md).
void write_file(const std::string& path, const ShardMeta& m, const Columns& c, bool sealed = true);

}  // namespace vzero::shard_detail
