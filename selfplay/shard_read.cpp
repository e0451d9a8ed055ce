// Reading shards back: the whole file checked against its checksum header
// before libhdf5 opens it, then every dataset checked for type, shape, chunking and
// Fletcher32, the attributes against meta_hash, the data against
// content_hash, then the records against the meta. Schema: docs/shards.md.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <mutex>
#include <new>
#include <unordered_set>

#include "selfplay/shard.h"
#include "selfplay/shard_internal.h"
#include "util/error.h"

namespace vzero {

using namespace shard_detail;
namespace fs = std::filesystem;

namespace {

constexpr char kHdf5Signature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};

// The files whose checksum header this process has checked (by path, inode, size and time):
// shards never change, so counting the shards of a run again does not read them all again.
class CheckedFiles {
 public:
  static std::string key(const std::string& path, const struct stat& st) {
    return path + '\0' + std::to_string(st.st_ino) + ':' + std::to_string(st.st_size) + ':' +
           std::to_string(st.st_mtim.tv_sec) + '.' + std::to_string(st.st_mtim.tv_nsec);
  }
  bool contains(const std::string& k) {
    std::lock_guard<std::mutex> lock(mutex_);
    return keys_.count(k) > 0;
  }
  void add(const std::string& k) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (keys_.size() > 100000) keys_.clear();  // a bound, far beyond any run's shards
    keys_.insert(k);
  }

 private:
  std::mutex mutex_;
  std::unordered_set<std::string> keys_;
};

CheckedFiles& checked_files() {
  static CheckedFiles c;
  return c;
}

// Warns once per process that shards without a checksum header are read.
void warn_legacy(const std::string& path) {
  static std::once_flag once;
  std::call_once(once, [&] {
    std::cerr << "vzero: warning: shard " << path
              << " has no checksum header (written by a vzero before shard checksums); such shards "
                 "are read "
                 "without the whole-file check (said once)"
              << std::endl;
  });
}

}  // namespace

Seal shard_detail::check_seal(const std::string& path, bool trust_checked) {
  const auto fail = [&](const std::string& what) { throw Error("shard " + path + ": " + what); };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    fail(errno == ENOENT ? "no such file" : std::string("cannot open: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) fail("no such file");
  const std::string key = CheckedFiles::key(path, st);
  if (trust_checked && checked_files().contains(key)) return Seal::checked;
  const uint64_t size = uint64_t(st.st_size);
  std::string header(kSealBytes, '\0');
  const size_t head = size_t(std::min<uint64_t>(size, kSealBytes));
  if (head > 0 && ::pread(fd, header.data(), head, 0) != ssize_t(head)) fail("cannot read");
  if (size >= sizeof kHdf5Signature &&
      std::memcmp(header.data(), kHdf5Signature, sizeof kHdf5Signature) == 0)
    return Seal::legacy;
  if (std::memcmp(header.data(), kSealMagic, sizeof kSealMagic) != 0) {
    // A sealed shard whose magic was damaged still has HDF5's signature right after the user block.
    char sig[sizeof kHdf5Signature] = {};
    if (size >= kSealBytes + sizeof sig &&
        ::pread(fd, sig, sizeof sig, off_t(kSealBytes)) == ssize_t(sizeof sig) &&
        std::memcmp(sig, kHdf5Signature, sizeof sig) == 0)
      fail("is damaged (its checksum header is broken)");
    return Seal::foreign;
  }
  if (size < kSealBytes || get_le64(header.data() + 8) != size)
    fail("is damaged or truncated (its size, " + std::to_string(size) +
         " bytes, differs from its checksum header's)");
  uint64_t h = fnv1a(kFnvBasis, header.data() + kSealHashedFrom, kSealBytes - kSealHashedFrom);
  std::vector<char> buffer(1 << 20);
  for (uint64_t at = kSealBytes; at < size;) {
    const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), off_t(at));
    if (n <= 0) fail("cannot read");
    h = fnv1a(h, buffer.data(), size_t(n));
    at += uint64_t(n);
  }
  if (h != get_le64(header.data() + 16)) fail("is damaged (its checksum does not match)");
  checked_files().add(key);
  return Seal::checked;
}

namespace {

// An open shard being read (caller holds the HDF5 lock; check_seal passed); failures throw Error
// naming the file.
class ShardFile {
 public:
  ShardFile(const std::string& path, Seal seal) : path_(path), legacy_(seal == Seal::legacy) {
    if (seal == Seal::foreign || H5Fis_hdf5(path.c_str()) <= 0) fail("not an HDF5 file");
    file_ = H5Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) fail("cannot be opened as HDF5 (truncated or corrupt)");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("shard " + path_ + ": " + what);
  }
  // Whether the file has no checksum header (a shard of an older vzero).
  bool legacy() const { return legacy_; }
  const std::string& path() const { return path_; }

  bool has_attribute(const char* name) const {
    const htri_t e = H5Aexists(file_.get(), name);
    if (e < 0) fail("corrupt attributes");
    return e > 0;
  }

  // A root attribute holding one value of class cls.
  H5Id attribute(const char* name, H5T_class_t cls) const {
    if (!has_attribute(name)) fail(std::string("missing attribute ") + name);
    H5Id a(H5Aopen(file_.get(), name, H5P_DEFAULT), H5Aclose);
    H5Id space(a.valid() ? H5Aget_space(a.get()) : -1, H5Sclose);
    H5Id type(a.valid() ? H5Aget_type(a.get()) : -1, H5Tclose);
    if (!space.valid() || !type.valid() || H5Sget_simple_extent_npoints(space.get()) != 1 ||
        H5Tget_class(type.get()) != cls)
      fail(std::string("attribute ") + name + " has the wrong type or shape");
    return a;
  }

  int64_t attr_int(const char* name, int64_t lo, int64_t hi) const {
    H5Id a = attribute(name, H5T_INTEGER);
    int64_t v = 0;
    if (H5Aread(a.get(), H5T_NATIVE_INT64, &v) < 0)
      fail(std::string("cannot read attribute ") + name);
    if (v < lo || v > hi)
      fail(std::string("attribute ") + name + " is out of range: " + std::to_string(v));
    return v;
  }

  uint64_t attr_u64(const char* name) const {
    H5Id a = attribute(name, H5T_INTEGER);
    uint64_t v = 0;
    if (H5Aread(a.get(), H5T_NATIVE_UINT64, &v) < 0)
      fail(std::string("cannot read attribute ") + name);
    return v;
  }

  std::string attr_string(const char* name) const {
    H5Id a = attribute(name, H5T_STRING);
    H5Id type(H5Aget_type(a.get()), H5Tclose);
    const size_t size = H5Tget_size(type.get());
    if (H5Tis_variable_str(type.get()) != 0 || size == 0 || size > 4096)
      fail(std::string("attribute ") + name + " is not a fixed-length string");
    std::string s(size, '\0');
    if (H5Aread(a.get(), type.get(), s.data()) < 0)
      fail(std::string("cannot read attribute ") + name);
    return s.substr(0, s.find('\0'));
  }

  bool has_link(const char* name) const { return H5Lexists(file_.get(), name, H5P_DEFAULT) > 0; }

  // Opens a dataset and checks its type (string_type: a fixed-length string),
  // shape, chunked layout and Fletcher32 filter.
  H5Id dataset(const char* name, hid_t type, bool string_type,
               const std::vector<hsize_t>& dims) const {
    const std::string what = std::string("dataset ") + name;
    if (!has_link(name)) fail("missing " + what);
    H5Id d(H5Dopen2(file_.get(), name, H5P_DEFAULT), H5Dclose);
    if (!d.valid()) fail("cannot open " + what);
    H5Id t(H5Dget_type(d.get()), H5Tclose);
    const bool type_ok = string_type
                             ? (t.valid() && H5Tget_class(t.get()) == H5T_STRING &&
                                H5Tis_variable_str(t.get()) == 0 && H5Tget_size(t.get()) <= 65536)
                             : (t.valid() && H5Tequal(t.get(), type) > 0);
    if (!type_ok) fail(what + " has the wrong element type");
    H5Id space(H5Dget_space(d.get()), H5Sclose);
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    std::vector<hsize_t> got(std::max(rank, 0));
    if (rank != static_cast<int>(dims.size()) ||
        H5Sget_simple_extent_dims(space.get(), got.data(), nullptr) < 0 || got != dims)
      fail(what + " has the wrong shape (inconsistent sizes)");
    H5Id dcpl(H5Dget_create_plist(d.get()), H5Pclose);
    unsigned flags = 0, config = 0;
    size_t nelmts = 0;
    if (!dcpl.valid() || H5Pget_layout(dcpl.get()) != H5D_CHUNKED ||
        H5Pget_filter_by_id2(dcpl.get(), H5Z_FILTER_FLETCHER32, &flags, &nelmts, nullptr, 0,
                             nullptr, &config) < 0)
      fail(what + " is not chunked with a Fletcher32 checksum");
    return d;
  }

  // Reads a numeric dataset of the given file type and shape into out.
  template <class T>
  void read(const char* name, hid_t file_type, hid_t mem_type, const std::vector<hsize_t>& dims,
            std::vector<T>& out) const {
    H5Id d = dataset(name, file_type, false, dims);
    size_t count = 1;
    for (hsize_t x : dims) count *= x;
    out.resize(count);
    if (count > 0 && H5Dread(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
      fail(std::string("cannot read dataset ") + name + " (checksum failure or corrupt data)");
  }

  // Reads a [count] dataset of fixed-length strings.
  std::vector<std::string> read_strings(const char* name, hsize_t count) const {
    H5Id d = dataset(name, -1, true, {count});
    H5Id type(H5Dget_type(d.get()), H5Tclose);
    const size_t width = H5Tget_size(type.get());
    std::vector<char> buffer(count * width);
    if (count > 0 && H5Dread(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0)
      fail(std::string("cannot read dataset ") + name + " (checksum failure or corrupt data)");
    std::vector<std::string> out;
    for (hsize_t i = 0; i < count; ++i) {
      const char* s = buffer.data() + i * width;
      out.emplace_back(s, std::find(s, s + width, '\0'));
    }
    return out;
  }

  // Checks offsets (size n + 1) start at 0 and never decrease; returns the last.
  hsize_t check_offsets(const std::vector<int64_t>& offsets, const char* name) const {
    if (offsets.empty() || offsets[0] != 0)
      fail(std::string("dataset ") + name + " does not start at 0");
    for (size_t i = 1; i < offsets.size(); ++i)
      if (offsets[i] < offsets[i - 1]) fail(std::string("dataset ") + name + " decreases");
    return static_cast<hsize_t>(offsets.back());
  }

 private:
  std::string path_;
  bool legacy_ = false;
  H5Id file_;
};

// Reads and checks the attributes: version first, then the rest, then meta_hash.
ShardMeta read_meta(const ShardFile& f, int64_t& samples, int64_t& games) {
  if (!f.has_attribute("format_version")) f.fail("not a vzero shard (no format_version attribute)");
  ShardMeta m;
  const int64_t version = f.attr_int("format_version", std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::max());
  if (version != kShardFormatVersion)
    f.fail("format version " + std::to_string(version) + ", this build reads version " +
           std::to_string(kShardFormatVersion));
  const int64_t kIntMax = std::numeric_limits<int32_t>::max();
  m.format_version = static_cast<int>(version);
  m.variant = f.attr_string("variant");
  m.rules_hash = f.attr_u64("rules_hash");
  m.encoding_hash = f.attr_u64("encoding_hash");
  m.config_hash = f.attr_u64("config_hash");
  m.planes = static_cast<int>(f.attr_int("planes", 0, kIntMax));
  m.scalars = static_cast<int>(f.attr_int("scalars", 0, kIntMax));
  m.height = static_cast<int>(f.attr_int("height", 0, kIntMax));
  m.width = static_cast<int>(f.attr_int("width", 0, kIntMax));
  m.num_actions = static_cast<int>(f.attr_int("num_actions", 0, kIntMax));
  m.players = static_cast<int>(f.attr_int("players", 0, kIntMax));
  m.generation = static_cast<int>(f.attr_int("generation", 0, kIntMax));
  samples = f.attr_int("num_samples", 0, int64_t(1) << 40);
  games = f.attr_int("num_games", 0, int64_t(1) << 40);
  const std::string text = meta_text(m, samples, games);
  if (f.attr_u64("meta_hash") != fnv1a(kFnvBasis, text.data(), text.size()))
    f.fail("attributes are corrupt (meta_hash does not match)");
  try {
    check_shard_meta(m);
  } catch (const Error& e) {
    f.fail(e.what());
  }
  if (f.legacy()) warn_legacy(f.path());
  return m;
}

}  // namespace

ShardMeta read_shard_meta(const std::string& path) {
  const Seal seal = check_seal(path, true);  // before libhdf5 parses anything of the file
  auto lock = lock_hdf5();
  ShardFile f(path, seal);
  int64_t samples = 0, games = 0;
  return read_meta(f, samples, games);
}

ShardCounts read_shard_counts(const std::string& path) {
  const Seal seal = check_seal(path, true);
  auto lock = lock_hdf5();
  ShardFile f(path, seal);
  ShardCounts c;
  read_meta(f, c.samples, c.games);
  return c;
}

ShardData read_shard(const std::string& path) {
  ShardData out;
  Columns c;
  try {
    const Seal seal = check_seal(path, false);  // every whole read checks every byte
    auto lock = lock_hdf5();
    ShardFile f(path, seal);
    out.meta = read_meta(f, c.samples, c.games);
    const ShardMeta& m = out.meta;
    const hsize_t n = c.samples, g = c.games, p = m.players;
    // Bound what a claimed size may make us allocate: 1 KiB per plane value is far beyond any real
    // shard.
    if (n * static_cast<hsize_t>(m.planes) * m.height * m.width > (hsize_t(1) << 40))
      f.fail("sizes out of range");
    H5Id half_file = half_type(true), half_mem = half_type(false);
    f.read("planes", H5T_STD_U8LE, H5T_NATIVE_UINT8,
           {n, hsize_t(m.planes), hsize_t(m.height), hsize_t(m.width)}, c.planes);
    f.read("scalars", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {n, hsize_t(m.scalars)}, c.scalars);
    f.read("policy_offset", H5T_STD_I64LE, H5T_NATIVE_INT64, {n + 1}, c.policy_offset);
    const hsize_t entries = f.check_offsets(c.policy_offset, "policy_offset");
    f.read("policy_index", H5T_STD_I32LE, H5T_NATIVE_INT32, {entries}, c.policy_index);
    f.read("policy_weight", half_file.get(), half_mem.get(), {entries}, c.policy_weight);
    f.read("root_value", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {n, p}, c.root_value);
    f.read("result", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {n, p}, c.result);
    f.read("player", H5T_STD_I8LE, H5T_NATIVE_INT8, {n}, c.player);
    f.read("ply", H5T_STD_I32LE, H5T_NATIVE_INT32, {n}, c.ply);
    f.read("game_id", H5T_STD_I64LE, H5T_NATIVE_INT64, {n}, c.game_id);
    f.read("generation", H5T_STD_I32LE, H5T_NATIVE_INT32, {n}, c.generation);
    f.read("full_search", H5T_STD_U8LE, H5T_NATIVE_UINT8, {n}, c.full_search);
    if (!f.has_link("games")) f.fail("missing group games");
    f.read("games/game_id", H5T_STD_I64LE, H5T_NATIVE_INT64, {g}, c.g_game_id);
    f.read("games/seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, {g}, c.g_seed);
    c.g_start_fen = f.read_strings("games/start_fen", g);
    f.read("games/action_offset", H5T_STD_I64LE, H5T_NATIVE_INT64, {g + 1}, c.g_action_offset);
    const hsize_t actions = f.check_offsets(c.g_action_offset, "games/action_offset");
    f.read("games/actions", H5T_STD_I32LE, H5T_NATIVE_INT32, {actions}, c.g_actions);
    f.read("games/result", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {g, p}, c.g_result);
    c.g_end_reason = f.read_strings("games/end_reason", g);
    f.read("games/resigned", H5T_STD_U8LE, H5T_NATIVE_UINT8, {g}, c.g_resigned);
    if (f.attr_u64("content_hash") != content_hash(c))
      f.fail("data are corrupt (content_hash does not match)");
  } catch (const std::bad_alloc&) {
    throw Error("shard " + path + ": sizes too large to load");
  }

  // Rebuild the records; samples of each game follow one another in game order.
  const ShardMeta& m = out.meta;
  const size_t plane_values = static_cast<size_t>(m.planes) * m.height * m.width;
  const size_t s_count = m.scalars, p = m.players;
  size_t next = 0;
  try {
    for (int64_t gi = 0; gi < c.games; ++gi) {
      GameRecord game;
      game.game_id = c.g_game_id[gi];
      game.seed = c.g_seed[gi];
      game.start_fen = c.g_start_fen[gi];
      game.actions.assign(c.g_actions.begin() + c.g_action_offset[gi],
                          c.g_actions.begin() + c.g_action_offset[gi + 1]);
      game.result.assign(c.g_result.begin() + gi * p, c.g_result.begin() + (gi + 1) * p);
      game.end_reason = c.g_end_reason[gi];
      game.resigned = c.g_resigned[gi] != 0;
      const size_t first = next;
      for (; next < static_cast<size_t>(c.samples) && c.game_id[next] == game.game_id; ++next) {
        Sample s;
        s.planes.assign(c.planes.begin() + next * plane_values,
                        c.planes.begin() + (next + 1) * plane_values);
        s.scalars.assign(c.scalars.begin() + next * s_count,
                         c.scalars.begin() + (next + 1) * s_count);
        for (int64_t k = c.policy_offset[next]; k < c.policy_offset[next + 1]; ++k) {
          s.policy_index.push_back(c.policy_index[k]);
          s.policy_weight.push_back(half_to_float(c.policy_weight[k]));
        }
        s.root_value.assign(c.root_value.begin() + next * p, c.root_value.begin() + (next + 1) * p);
        s.result.assign(c.result.begin() + next * p, c.result.begin() + (next + 1) * p);
        s.player = c.player[next];
        s.ply = c.ply[next];
        s.game_id = c.game_id[next];
        s.generation = c.generation[next];
        s.full_search = c.full_search[next] != 0;
        out.samples.push_back(std::move(s));
      }
      check_game(m, game, std::vector<Sample>(out.samples.begin() + first, out.samples.end()));
      out.games.push_back(std::move(game));
    }
    if (next != static_cast<size_t>(c.samples))
      throw Error("samples do not follow their games in order");
    std::unordered_set<int64_t> ids(c.g_game_id.begin(), c.g_game_id.end());
    if (ids.size() != c.g_game_id.size()) throw Error("a game_id appears twice");
  } catch (const Error& e) {
    throw Error("shard " + path + ": inconsistent contents: " + e.what());
  }
  return out;
}

}  // namespace vzero
