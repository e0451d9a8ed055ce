// Writing shards (schema: docs/shards.md), float16 conversion, the checks on
// meta and games, and listing. Every HDF5 call runs under one process-wide
// mutex with HDF5's error printing silenced; failures become Error messages
// that name the file.
#include "selfplay/shard.h"

#include <fcntl.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <unordered_set>
#include <utility>

#include "selfplay/shard_internal.h"
#include "util/error.h"
#include "util/files.h"

namespace vzero {

using namespace shard_detail;
namespace fs = std::filesystem;

namespace {

constexpr size_t kChunkBytes = 256 * 1024;  // target size of one chunk before compression
constexpr unsigned kDeflateLevel = 4;

}  // namespace

Columns shard_detail::gather(const std::vector<GameRecord>& games,
                             const std::vector<std::vector<Sample>>& samples_per_game) {
  Columns c;
  c.games = static_cast<int64_t>(games.size());
  c.policy_offset.push_back(0);
  c.g_action_offset.push_back(0);
  for (size_t g = 0; g < games.size(); ++g) {
    const GameRecord& game = games[g];
    c.g_game_id.push_back(game.game_id);
    c.g_seed.push_back(game.seed);
    c.g_start_fen.push_back(game.start_fen);
    c.g_actions.insert(c.g_actions.end(), game.actions.begin(), game.actions.end());
    c.g_action_offset.push_back(static_cast<int64_t>(c.g_actions.size()));
    c.g_result.insert(c.g_result.end(), game.result.begin(), game.result.end());
    c.g_end_reason.push_back(game.end_reason);
    c.g_resigned.push_back(game.resigned ? 1 : 0);
    for (const Sample& s : samples_per_game[g]) {
      ++c.samples;
      c.planes.insert(c.planes.end(), s.planes.begin(), s.planes.end());
      c.scalars.insert(c.scalars.end(), s.scalars.begin(), s.scalars.end());
      c.policy_index.insert(c.policy_index.end(), s.policy_index.begin(), s.policy_index.end());
      for (float w : s.policy_weight) c.policy_weight.push_back(float_to_half(w));
      c.policy_offset.push_back(static_cast<int64_t>(c.policy_index.size()));
      c.root_value.insert(c.root_value.end(), s.root_value.begin(), s.root_value.end());
      c.result.insert(c.result.end(), s.result.begin(), s.result.end());
      c.player.push_back(static_cast<int8_t>(s.player));
      c.ply.push_back(s.ply);
      c.game_id.push_back(s.game_id);
      c.generation.push_back(s.generation);
      c.full_search.push_back(s.full_search ? 1 : 0);
    }
  }
  return c;
}

namespace {

// ---------------------------------------------------------------- writing

[[noreturn]] void write_failed(const std::string& path, const std::string& what) {
  throw Error("shard " + path + ": cannot write " + what);
}

void write_attr(hid_t loc, const std::string& path, const char* name, hid_t file_type,
                hid_t mem_type, const void* value) {
  H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
  H5Id attr(H5Acreate2(loc, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attr.valid() || H5Awrite(attr.get(), mem_type, value) < 0)
    write_failed(path, std::string("attribute ") + name);
}

void write_attr_int(hid_t loc, const std::string& path, const char* name, int64_t value,
                    hid_t file_type) {
  write_attr(loc, path, name, file_type, H5T_NATIVE_INT64, &value);
}

void write_attr_u64(hid_t loc, const std::string& path, const char* name, uint64_t value) {
  write_attr(loc, path, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}

void write_attr_string(hid_t loc, const std::string& path, const char* name,
                       const std::string& value) {
  H5Id type = string_type(value.size());
  std::string padded = value;
  padded.resize(std::max<size_t>(value.size(), 1), '\0');
  write_attr(loc, path, name, type.get(), type.get(), padded.data());
}

// Creates dataset name (chunked along rows; shuffle for multi-byte numbers,
// deflate, Fletcher32) with the given shape and writes data into it.
void write_dataset(hid_t loc, const std::string& path, const char* name, hid_t file_type,
                   hid_t mem_type, const std::vector<hsize_t>& dims, const void* data) {
  const int rank = static_cast<int>(dims.size());
  std::vector<hsize_t> maxdims(dims), chunk(dims);
  maxdims[0] = H5S_UNLIMITED;
  size_t row_bytes = H5Tget_size(file_type);
  hsize_t elements = dims[0];
  for (int i = 1; i < rank; ++i) {
    chunk[i] = std::max<hsize_t>(dims[i], 1);
    if (dims[i] == 0) maxdims[i] = H5S_UNLIMITED;
    row_bytes *= chunk[i];
    elements *= dims[i];
  }
  chunk[0] = std::clamp<hsize_t>(kChunkBytes / row_bytes, 1, std::max<hsize_t>(dims[0], 1));
  H5Id space(H5Screate_simple(rank, dims.data(), maxdims.data()), H5Sclose);
  H5Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  bool ok = space.valid() && dcpl.valid() && H5Pset_chunk(dcpl.get(), rank, chunk.data()) >= 0;
  if (ok && H5Tget_size(file_type) > 1 && H5Tget_class(file_type) != H5T_STRING)
    ok = H5Pset_shuffle(dcpl.get()) >= 0;
  ok = ok && H5Pset_deflate(dcpl.get(), kDeflateLevel) >= 0 && H5Pset_fletcher32(dcpl.get()) >= 0;
  if (!ok) write_failed(path, std::string("dataset ") + name + " (properties)");
  H5Id dset(H5Dcreate2(loc, name, file_type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
            H5Dclose);
  if (!dset.valid()) write_failed(path, std::string("dataset ") + name);
  if (elements > 0 && H5Dwrite(dset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    write_failed(path, std::string("dataset ") + name);
  if (!dset.reset()) write_failed(path, std::string("dataset ") + name);
}

// Writes strings as a [n] dataset of fixed-length strings as wide as the longest.
void write_strings(hid_t loc, const std::string& path, const char* name,
                   const std::vector<std::string>& values) {
  size_t width = 1;
  for (const auto& s : values) width = std::max(width, s.size());
  std::vector<char> buffer(values.size() * width, '\0');
  for (size_t i = 0; i < values.size(); ++i)
    std::memcpy(buffer.data() + i * width, values[i].data(), values[i].size());
  H5Id type = string_type(width);
  write_dataset(loc, path, name, type.get(), type.get(), {values.size()}, buffer.data());
}

}  // namespace

void shard_detail::write_file(const std::string& path, const ShardMeta& m, const Columns& c,
                              bool sealed) {
  H5Id fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
  if (!fcpl.valid() || (sealed && H5Pset_userblock(fcpl.get(), kSealBytes) < 0))
    write_failed(path, "the file (user block)");
  H5Id file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), H5Fclose);
  if (!file.valid()) write_failed(path, "the file (create)");
  const hid_t root = file.get();
  write_attr_int(root, path, "format_version", kShardFormatVersion, H5T_STD_I32LE);
  write_attr_string(root, path, "variant", m.variant);
  write_attr_u64(root, path, "rules_hash", m.rules_hash);
  write_attr_u64(root, path, "encoding_hash", m.encoding_hash);
  write_attr_u64(root, path, "config_hash", m.config_hash);
  write_attr_int(root, path, "planes", m.planes, H5T_STD_I32LE);
  write_attr_int(root, path, "scalars", m.scalars, H5T_STD_I32LE);
  write_attr_int(root, path, "height", m.height, H5T_STD_I32LE);
  write_attr_int(root, path, "width", m.width, H5T_STD_I32LE);
  write_attr_int(root, path, "num_actions", m.num_actions, H5T_STD_I32LE);
  write_attr_int(root, path, "players", m.players, H5T_STD_I32LE);
  write_attr_int(root, path, "generation", m.generation, H5T_STD_I32LE);
  write_attr_int(root, path, "num_samples", c.samples, H5T_STD_I64LE);
  write_attr_int(root, path, "num_games", c.games, H5T_STD_I64LE);
  const std::string text = meta_text(m, c.samples, c.games);
  write_attr_u64(root, path, "meta_hash", fnv1a(kFnvBasis, text.data(), text.size()));
  write_attr_u64(root, path, "content_hash", content_hash(c));

  const hsize_t n = static_cast<hsize_t>(c.samples), g = static_cast<hsize_t>(c.games);
  const hsize_t p = static_cast<hsize_t>(m.players);
  H5Id half_file = half_type(true), half_mem = half_type(false);
  write_dataset(root, path, "planes", H5T_STD_U8LE, H5T_NATIVE_UINT8,
                {n, hsize_t(m.planes), hsize_t(m.height), hsize_t(m.width)}, c.planes.data());
  write_dataset(root, path, "scalars", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {n, hsize_t(m.scalars)},
                c.scalars.data());
  write_dataset(root, path, "policy_offset", H5T_STD_I64LE, H5T_NATIVE_INT64, {n + 1},
                c.policy_offset.data());
  write_dataset(root, path, "policy_index", H5T_STD_I32LE, H5T_NATIVE_INT32,
                {c.policy_index.size()}, c.policy_index.data());
  write_dataset(root, path, "policy_weight", half_file.get(), half_mem.get(),
                {c.policy_weight.size()}, c.policy_weight.data());
  write_dataset(root, path, "root_value", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {n, p},
                c.root_value.data());
  write_dataset(root, path, "result", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {n, p}, c.result.data());
  write_dataset(root, path, "player", H5T_STD_I8LE, H5T_NATIVE_INT8, {n}, c.player.data());
  write_dataset(root, path, "ply", H5T_STD_I32LE, H5T_NATIVE_INT32, {n}, c.ply.data());
  write_dataset(root, path, "game_id", H5T_STD_I64LE, H5T_NATIVE_INT64, {n}, c.game_id.data());
  write_dataset(root, path, "generation", H5T_STD_I32LE, H5T_NATIVE_INT32, {n},
                c.generation.data());
  write_dataset(root, path, "full_search", H5T_STD_U8LE, H5T_NATIVE_UINT8, {n},
                c.full_search.data());

  H5Id group(H5Gcreate2(root, "games", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  if (!group.valid()) write_failed(path, "group games");
  const hid_t gr = group.get();
  write_dataset(gr, path, "game_id", H5T_STD_I64LE, H5T_NATIVE_INT64, {g}, c.g_game_id.data());
  write_dataset(gr, path, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, {g}, c.g_seed.data());
  write_strings(gr, path, "start_fen", c.g_start_fen);
  write_dataset(gr, path, "action_offset", H5T_STD_I64LE, H5T_NATIVE_INT64, {g + 1},
                c.g_action_offset.data());
  write_dataset(gr, path, "actions", H5T_STD_I32LE, H5T_NATIVE_INT32, {c.g_actions.size()},
                c.g_actions.data());
  write_dataset(gr, path, "result", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {g, p}, c.g_result.data());
  write_strings(gr, path, "end_reason", c.g_end_reason);
  write_dataset(gr, path, "resigned", H5T_STD_U8LE, H5T_NATIVE_UINT8, {g}, c.g_resigned.data());
  if (!group.reset() || !file.reset()) write_failed(path, "the file (close)");
  if (sealed) seal_file(path);
}

void shard_detail::seal_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw Error("shard " + path + ": cannot open to seal: " + std::strerror(errno));
  struct stat st {};
  std::string header(kSealBytes, '\0');
  bool ok = ::fstat(fd, &st) == 0 && uint64_t(st.st_size) >= kSealBytes;
  if (ok) {
    // The checksum covers everything after its own field: the rest of the user block (zeros) and
    // the HDF5 file.
    uint64_t h = fnv1a(kFnvBasis, header.data() + kSealHashedFrom, kSealBytes - kSealHashedFrom);
    std::vector<char> buffer(1 << 20);
    for (off_t at = off_t(kSealBytes); ok && at < st.st_size;) {
      const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), at);
      ok = n > 0;
      if (ok) h = fnv1a(h, buffer.data(), size_t(n));
      at += n;
    }
    std::memcpy(header.data(), kSealMagic, sizeof kSealMagic);
    put_le64(header.data() + 8, uint64_t(st.st_size));
    put_le64(header.data() + 16, h);
    ok = ok && ::pwrite(fd, header.data(), header.size(), 0) == ssize_t(header.size());
  }
  const int err = errno;
  ::close(fd);
  if (!ok)
    throw Error("shard " + path + ": cannot write its checksum header: " + std::strerror(err));
}

// ---------------------------------------------------------------- float16

uint16_t float_to_half(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t exponent = (x >> 23) & 0xffu;
  uint32_t mantissa = x & 0x7fffffu;
  if (exponent == 0xff) {  // inf stays inf; NaN stays a (quiet) NaN
    return static_cast<uint16_t>(mantissa == 0 ? (sign | 0x7c00u)
                                               : (sign | 0x7e00u | (mantissa >> 13)));
  }
  const int e = static_cast<int>(exponent) - 127 + 15;  // the half's biased exponent
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {  // a half subnormal (or zero): value = m * 2^-24
    if (e < -10) return static_cast<uint16_t>(sign);  // below 2^-25: rounds to zero
    mantissa |= 0x800000u;
    const int shift = 14 - e;  // 14..24
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u)))
      ++half;  // may carry into the smallest normal
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry up to inf: correct
  return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  uint32_t x;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // exact
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) {
    x = sign | 0x7f800000u | (mantissa << 13);
  } else {
    x = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

// ---------------------------------------------------------------- checks

namespace {

// Throws Error(what + ": must be in [lo, hi]") unless lo <= v <= hi.
void check_range(int64_t v, int64_t lo, int64_t hi, const std::string& what) {
  if (v < lo || v > hi)
    throw Error(what + " is " + std::to_string(v) + ", must be in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]");
}

void check_text(const std::string& s, const std::string& what) {
  if (s.find('\0') != std::string::npos) throw Error(what + " contains a NUL character");
}

}  // namespace

void check_shard_meta(const ShardMeta& m) {
  if (m.format_version != kShardFormatVersion)
    throw Error("shard meta: format_version " + std::to_string(m.format_version) +
                ", this build writes " + std::to_string(kShardFormatVersion));
  if (m.variant.empty() || m.variant.size() > 256)
    throw Error("shard meta: variant must be 1 to 256 characters");
  check_text(m.variant, "shard meta: variant");
  check_range(m.planes, 1, 4096, "shard meta: planes");
  check_range(m.scalars, 0, 4096, "shard meta: scalars");
  check_range(m.height, 1, 256, "shard meta: height");
  check_range(m.width, 1, 256, "shard meta: width");
  check_range(m.num_actions, 1, 1 << 24, "shard meta: num_actions");
  check_range(m.players, 1, 16, "shard meta: players");
  check_range(m.generation, 0, std::numeric_limits<int32_t>::max(), "shard meta: generation");
}

void check_game(const ShardMeta& m, const GameRecord& game, const std::vector<Sample>& samples) {
  const std::string where = "game " + std::to_string(game.game_id);
  if (game.result.size() != static_cast<size_t>(m.players))
    throw Error(where + ": result has " + std::to_string(game.result.size()) +
                " values, expected " + std::to_string(m.players));
  check_text(game.start_fen, where + ": start_fen");
  check_text(game.end_reason, where + ": end_reason");
  for (int32_t a : game.actions) check_range(a, 0, m.num_actions - 1, where + ": action");
  const size_t plane_values = static_cast<size_t>(m.planes) * m.height * m.width;
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    const std::string at = where + " sample " + std::to_string(i);
    auto sized = [&at](size_t got, size_t want, const char* what) {
      if (got != want)
        throw Error(at + ": " + what + " has " + std::to_string(got) + " values, expected " +
                    std::to_string(want));
    };
    sized(s.planes.size(), plane_values, "planes");
    sized(s.scalars.size(), static_cast<size_t>(m.scalars), "scalars");
    sized(s.policy_weight.size(), s.policy_index.size(), "policy_weight");
    sized(s.root_value.size(), static_cast<size_t>(m.players), "root_value");
    sized(s.result.size(), static_cast<size_t>(m.players), "result");
    for (size_t k = 0; k < s.policy_index.size(); ++k) {
      check_range(s.policy_index[k], k == 0 ? 0 : int64_t(s.policy_index[k - 1]) + 1,
                  m.num_actions - 1, at + ": policy_index (ascending, in the action space)");
      const float w = s.policy_weight[k];
      if (!(w >= 0.0f && w <= 1.0f))
        throw Error(at + ": policy_weight " + std::to_string(w) + " is not in [0, 1]");
    }
    check_range(s.player, 0, m.players - 1, at + ": player");
    check_range(s.ply, 0, std::numeric_limits<int32_t>::max(), at + ": ply");
    check_range(s.generation, 0, std::numeric_limits<int32_t>::max(), at + ": generation");
    if (s.game_id != game.game_id)
      throw Error(at + ": game_id " + std::to_string(s.game_id) + " differs from its game's");
  }
}

void write_shard(const std::string& path, const ShardMeta& meta,
                 const std::vector<GameRecord>& games,
                 const std::vector<std::vector<Sample>>& samples_per_game) {
  check_shard_meta(meta);
  if (games.size() != samples_per_game.size())
    throw Error("shard " + path + ": " + std::to_string(games.size()) + " games but " +
                std::to_string(samples_per_game.size()) + " sample lists");
  std::unordered_set<int64_t> ids;
  for (size_t g = 0; g < games.size(); ++g) {
    check_game(meta, games[g], samples_per_game[g]);
    if (!ids.insert(games[g].game_id).second)
      throw Error("shard " + path + ": game_id " + std::to_string(games[g].game_id) +
                  " appears twice");
  }
  std::error_code ec;
  if (fs::exists(path, ec)) throw Error("shard " + path + ": already exists");
  const Columns columns = gather(games, samples_per_game);
  write_file_durably(
      path,
      [&](const std::string& tmp) {
        auto lock = lock_hdf5();
        write_file(tmp, meta, columns);
      },
      Existing::refuse, "shard");
}

// ---------------------------------------------------------------- listing

std::vector<std::string> list_shards(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error("shard directory " + dir + ": not a directory");
  std::vector<std::pair<fs::file_time_type, std::string>> found;
  try {
    for (const auto& entry : fs::directory_iterator(dir)) {
      const fs::path& path = entry.path();
      std::error_code entry_ec;
      if (path.extension() != ".h5" || !entry.is_regular_file(entry_ec)) continue;
      const auto time = fs::last_write_time(path, entry_ec);
      if (entry_ec) continue;  // vanished meanwhile
      found.emplace_back(time, path.string());
    }
  } catch (const fs::filesystem_error& e) {
    throw Error("shard directory " + dir + ": cannot list: " + e.what());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace vzero
