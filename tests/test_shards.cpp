// HDF5 shards: exact round trips, float16, rejection of corrupt, truncated and
// foreign files (the whole-file checksum before libhdf5; Fletcher32 and the
// hashes behind it, reached by resealing changed files), legacy shards without
// a checksum, the temporary-name protocol under SIGKILL, the async writer.
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <thread>
#include <tuple>

#include "selfplay/shard.h"
#include "selfplay/shard_internal.h"
#include "util/error.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

// A fresh empty directory, removed when the test ends.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::temp_directory_path() / ("vzero-shards-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

// A meta of the given fields and the fixed test rules hash 0xfedcba9876543210.
ShardMeta shard_meta(const std::string& variant, uint64_t encoding_hash, uint64_t config_hash,
                     int planes, int scalars, int height, int width, int num_actions, int players,
                     int generation) {
  ShardMeta m;
  m.variant = variant;
  m.rules_hash = 0xfedcba9876543210ull;
  m.encoding_hash = encoding_hash;
  m.config_hash = config_hash;
  m.planes = planes;
  m.scalars = scalars;
  m.height = height;
  m.width = width;
  m.num_actions = num_actions;
  m.players = players;
  m.generation = generation;
  return m;
}

ShardMeta test_meta(int players) {
  return shard_meta("testchess", 0x0123456789abcdefull, 0x8000000000000001ull, 3, 2, 4, 5, 50,
                    players, 7);
}

// A random game with 0..max_samples samples that fit m.
GameRecord random_game(std::mt19937_64& rng, const ShardMeta& m, int64_t id,
                       std::vector<Sample>& samples, int max_samples = 6) {
  std::uniform_real_distribution<float> real(-1.0f, 1.0f), unit(0.0f, 1.0f);
  GameRecord g;
  g.game_id = id;
  g.seed = rng();
  g.start_fen = "fen of game " + std::to_string(id) + std::string(rng() % 20, 'x');
  for (int i = 0, n = int(rng() % 12); i < n; ++i)
    g.actions.push_back(int32_t(rng() % m.num_actions));
  for (int p = 0; p < m.players; ++p) g.result.push_back(real(rng));
  g.end_reason = (rng() % 2) ? "checkmate" : "cap";
  g.resigned = rng() % 2;
  samples.clear();
  for (int i = 0, n = int(rng() % (max_samples + 1)); i < n; ++i) {
    Sample s;
    for (int k = 0; k < m.planes * m.height * m.width; ++k) s.planes.push_back(uint8_t(rng() % 3));
    for (int k = 0; k < m.scalars; ++k) s.scalars.push_back(real(rng) * 100.0f);
    s.full_search = rng() % 4 != 0;
    if (s.full_search) {
      for (int a = 0; a < m.num_actions; ++a)
        if (rng() % 5 == 0) s.policy_index.push_back(a);
      float total = 0.0f;
      for (size_t k = 0; k < s.policy_index.size(); ++k)
        s.policy_weight.push_back(unit(rng) + 1e-3f);
      for (float w : s.policy_weight) total += w;
      for (float& w : s.policy_weight) w = std::min(1.0f, w / total);
    }
    for (int p = 0; p < m.players; ++p) s.root_value.push_back(real(rng));
    s.result = g.result;
    s.player = int32_t(i % m.players);
    s.ply = i;
    s.game_id = id;
    s.generation = int32_t(rng() % 5);
    samples.push_back(s);
  }
  return g;
}

void require_same_meta(const ShardMeta& a, const ShardMeta& b) {
  // Every field of the meta, in order.
  const auto fields = [](const ShardMeta& m) {
    return std::tie(m.format_version, m.variant, m.rules_hash, m.encoding_hash, m.config_hash,
                    m.planes, m.scalars, m.height, m.width, m.num_actions, m.players, m.generation);
  };
  REQUIRE(fields(a) == fields(b));
}

// True when the shard holds exactly these games and samples (weights after float16 rounding).
bool same_data(const ShardData& d, const std::vector<GameRecord>& games,
               const std::vector<std::vector<Sample>>& samples) {
  if (d.games.size() != games.size()) return false;
  size_t next = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    const GameRecord &a = d.games[g], &b = games[g];
    if (a.game_id != b.game_id || a.seed != b.seed || a.start_fen != b.start_fen ||
        a.actions != b.actions || a.result != b.result || a.end_reason != b.end_reason ||
        a.resigned != b.resigned)
      return false;
    for (const Sample& s : samples[g]) {
      if (next >= d.samples.size()) return false;
      const Sample& r = d.samples[next++];
      std::vector<float> rounded;
      for (float w : s.policy_weight) rounded.push_back(round_to_half(w));
      if (r.planes != s.planes || r.scalars != s.scalars || r.policy_index != s.policy_index ||
          r.policy_weight != rounded || r.root_value != s.root_value || r.result != s.result ||
          r.player != s.player || r.ply != s.ply || r.game_id != s.game_id ||
          r.generation != s.generation || r.full_search != s.full_search)
        return false;
    }
  }
  return next == d.samples.size();
}

// Writes a small shard of `games` random games at path; returns what it holds.
std::pair<std::vector<GameRecord>, std::vector<std::vector<Sample>>> write_random_shard(
    const std::string& path, const ShardMeta& m, int games, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<GameRecord> records;
  std::vector<std::vector<Sample>> samples(games);
  for (int g = 0; g < games; ++g) records.push_back(random_game(rng, m, 100 + g, samples[g]));
  write_shard(path, m, records, samples);
  return {records, samples};
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

uint16_t half_bits_of(float f) { return float_to_half(f); }

}  // namespace

TEST_CASE("float16: every half survives a round trip through float", "[shards][float16]") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = half_to_float(uint16_t(h));
    const bool nan = ((h >> 10) & 0x1f) == 0x1f && (h & 0x3ff) != 0;
    if (nan) {
      REQUIRE(std::isnan(f));
      REQUIRE(std::isnan(half_to_float(float_to_half(f))));
    } else if (float_to_half(f) != h) {
      FAIL("half " << h << " -> " << f << " -> " << float_to_half(f));
    }
  }
}

TEST_CASE("float16: known values, rounding to nearest even, inf, nan, subnormals",
          "[shards][float16]") {
  REQUIRE(half_bits_of(0.0f) == 0x0000);
  REQUIRE(half_bits_of(-0.0f) == 0x8000);
  REQUIRE(half_bits_of(1.0f) == 0x3c00);
  REQUIRE(half_bits_of(-2.0f) == 0xc000);
  REQUIRE(half_bits_of(0.5f) == 0x3800);
  REQUIRE(half_bits_of(65504.0f) == 0x7bff);
  REQUIRE(half_bits_of(65519.99f) == 0x7bff);
  REQUIRE(half_bits_of(65520.0f) == 0x7c00);  // the midpoint to 65536 rounds to even: inf
  REQUIRE(half_bits_of(1e10f) == 0x7c00);
  REQUIRE(half_bits_of(-1e10f) == 0xfc00);
  REQUIRE(half_bits_of(INFINITY) == 0x7c00);
  REQUIRE(half_bits_of(-INFINITY) == 0xfc00);
  REQUIRE(std::isnan(half_to_float(half_bits_of(NAN))));
  REQUIRE(half_bits_of(std::ldexp(1.0f, -14)) == 0x0400);  // smallest normal
  REQUIRE(half_bits_of(std::ldexp(1.0f, -24)) == 0x0001);  // smallest subnormal
  REQUIRE(half_bits_of(std::ldexp(1.0f, -25)) == 0x0000);  // tie between 0 and 2^-24: even
  REQUIRE(half_bits_of(std::ldexp(1.5f, -25)) == 0x0001);
  REQUIRE(half_bits_of(std::ldexp(3.0f, -25)) == 0x0002);  // tie between 1 and 2 (x 2^-24): even
  REQUIRE(half_bits_of(1e-10f) == 0x0000);
  REQUIRE(half_bits_of(std::ldexp(1023.5f, -24)) == 0x0400);  // rounds up out of the subnormals
  REQUIRE(half_to_float(0x0001) == std::ldexp(1.0f, -24));
  REQUIRE(half_to_float(0x03ff) == std::ldexp(1023.0f, -24));
  REQUIRE(half_to_float(0x3555) == 0.333251953125f);
  REQUIRE(round_to_half(0.1f) == 0.0999755859375f);

  // Between each pair of neighbouring finite halves: the midpoint goes to the
  // even one, anything above it up, anything below it down.
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const float a = half_to_float(uint16_t(h | sign)),
                  b = half_to_float(uint16_t((h + 1) | sign));
      const float mid = (a + b) / 2;
      const uint16_t even = uint16_t(((h & 1) ? h + 1 : h) | sign);
      if (float_to_half(mid) != even ||
          float_to_half(std::nextafter(mid, b)) != uint16_t((h + 1) | sign) ||
          float_to_half(std::nextafter(mid, a)) != uint16_t(h | sign))
        FAIL("rounding between halves " << (h | sign) << " and " << ((h + 1) | sign));
    }
  }
#ifdef __FLT16_MAX__
  // The compiler's own conversion agrees on random floats of every magnitude.
  std::mt19937 rng(5);
  for (int i = 0; i < 1000000; ++i) {
    uint32_t bits = rng();
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f)) continue;
    const _Float16 h = static_cast<_Float16>(f);
    uint16_t hb;
    std::memcpy(&hb, &h, 2);
    if (hb != float_to_half(f))
      FAIL("float bits " << bits << ": compiler " << hb << " ours " << float_to_half(f));
  }
#endif
}

TEST_CASE("shards: the writer's shards read back exactly, partial last shard included",
          "[shards]") {
  for (int players : {2, 4}) {
    TempDir dir("roundtrip" + std::to_string(players));
    const ShardMeta meta = test_meta(players);
    std::mt19937_64 rng(players);
    std::vector<GameRecord> games;
    std::vector<std::vector<Sample>> samples;
    ShardWriter writer(dir.path.string(), "sp", meta, 3);
    for (int g = 0; g < 8; ++g) {
      samples.emplace_back();
      games.push_back(random_game(rng, meta, 1000 * players + g, samples.back(), g == 0 ? 0 : 6));
      writer.add_game(games.back(), samples.back());
      REQUIRE(writer.buffered_games() == (g + 1) % 3);
    }
    REQUIRE(writer.written().size() == 2);
    writer.close();
    REQUIRE(writer.written().size() == 3);  // 3 + 3 + 2
    REQUIRE(writer.games_written() == 8);
    REQUIRE_THROWS_AS(writer.add_game(games[0], samples[0]), Error);
    REQUIRE(list_shards(dir.path.string()) == writer.written());
    for (size_t s = 0; s < 3; ++s) {
      const std::string& path = writer.written()[s];
      REQUIRE(path.find("sp-" + std::to_string(::getpid()) + "-") != std::string::npos);
      REQUIRE_FALSE(fs::exists(path + ".tmp"));
      require_same_meta(read_shard_meta(path), meta);
      const ShardData d = read_shard(path);
      require_same_meta(d.meta, meta);
      const size_t first = 3 * s, last = std::min<size_t>(first + 3, 8);
      REQUIRE(same_data(d, {games.begin() + first, games.begin() + last},
                        {samples.begin() + first, samples.begin() + last}));
    }
  }
}

TEST_CASE("shards: bad games, metas and paths are rejected with Error", "[shards]") {
  TempDir dir("bad");
  const ShardMeta meta = test_meta(2);
  std::mt19937_64 rng(3);
  std::vector<Sample> samples;
  GameRecord game;
  do game = random_game(rng, meta, 1, samples);
  while (samples.size() < 2 || samples[0].policy_index.size() < 2);
  REQUIRE_NOTHROW(check_game(meta, game, samples));
  auto rejects = [&](auto change) {
    GameRecord g = game;
    std::vector<Sample> s = samples;
    change(g, s);
    REQUIRE_THROWS_AS(check_game(meta, g, s), Error);
  };
  rejects([](GameRecord&, std::vector<Sample>& s) { s[0].planes.pop_back(); });
  rejects([](GameRecord&, std::vector<Sample>& s) { s[0].scalars.push_back(1); });
  rejects([](GameRecord&, std::vector<Sample>& s) { s[0].policy_weight.pop_back(); });
  rejects([](GameRecord&, std::vector<Sample>& s) {
    std::swap(s[0].policy_index[0], s[0].policy_index[1]);
  });
  rejects([](GameRecord&, std::vector<Sample>& s) { s[0].policy_index.back() = 50; });
  rejects([](GameRecord&, std::vector<Sample>& s) { s[0].policy_weight[0] = NAN; });
  rejects([](GameRecord&, std::vector<Sample>& s) { s[1].player = 2; });
  rejects([](GameRecord&, std::vector<Sample>& s) { s[1].game_id = 2; });
  rejects([](GameRecord&, std::vector<Sample>& s) { s[1].root_value.push_back(0); });
  rejects([](GameRecord& g, std::vector<Sample>&) { g.result.pop_back(); });
  rejects([](GameRecord& g, std::vector<Sample>&) { g.actions.push_back(-1); });
  rejects([](GameRecord& g, std::vector<Sample>&) { g.start_fen += '\0'; });

  ShardMeta bad = meta;
  bad.planes = 0;
  REQUIRE_THROWS_AS(ShardWriter(dir.path.string(), "x", bad, 2), Error);
  bad = meta;
  bad.format_version = 2;
  REQUIRE_THROWS_AS(check_shard_meta(bad), Error);
  REQUIRE_THROWS_AS(ShardWriter(dir.path.string(), "x", meta, 0), Error);
  REQUIRE_THROWS_AS(ShardWriter(dir.path.string(), "a/b", meta, 2), Error);

  ShardWriter writer(dir.path.string(), "x", meta, 5);
  writer.add_game(game, samples);
  REQUIRE_THROWS_AS(writer.add_game(game, samples), Error);  // the same game_id twice in a shard
  const std::string path = dir.file("one.h5");
  write_shard(path, meta, {game}, {samples});
  REQUIRE_THROWS_AS(write_shard(path, meta, {game}, {samples}), Error);  // never overwrites
  REQUIRE_THROWS_AS(list_shards(dir.file("missing")), Error);
}

TEST_CASE("shards: files that are not shards are rejected with a clear Error", "[shards]") {
  TempDir dir("foreign");
  const std::string text = dir.file("text.h5"), empty = dir.file("empty.h5");
  write_bytes(text, "this is not an HDF5 file\n");
  write_bytes(empty, "");
  REQUIRE_THROWS_WITH(read_shard(text),
                      Catch::Contains("not an HDF5 file") && Catch::Contains(text));
  REQUIRE_THROWS_AS(read_shard(empty), Error);
  REQUIRE_THROWS_AS(read_shard_meta(text), Error);
  REQUIRE_THROWS_WITH(read_shard(dir.file("missing.h5")), Catch::Contains("no such file"));
  // An HDF5 file that is not a shard.
  const std::string other = dir.file("other.h5");
  hid_t f = H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(f >= 0);
  H5Fclose(f);
  REQUIRE_THROWS_WITH(read_shard(other), Catch::Contains("not a vzero shard"));
}

TEST_CASE("shards: truncated copies are rejected", "[shards]") {
  TempDir dir("truncated");
  const std::string path = dir.file("full.h5");
  write_random_shard(path, test_meta(2), 4, 11);
  const std::string bytes = read_bytes(path);
  const size_t size = bytes.size();
  for (size_t cut : {size_t(0), size_t(1), size_t(8), size_t(100), size_t(512), size / 4, size / 2,
                     size * 3 / 4, size - 100, size - 8, size - 1}) {
    const std::string copy = dir.file("cut" + std::to_string(cut) + ".h5");
    write_bytes(copy, bytes.substr(0, cut));
    INFO("cut at " << cut << " of " << size);
    REQUIRE_THROWS_WITH(read_shard(copy), Catch::Contains(copy));
  }
}

// The user block of an open file: HDF5's addresses count from its end.
hsize_t user_block(hid_t f) {
  hid_t fcpl = H5Fget_create_plist(f);
  hsize_t size = 0;
  REQUIRE(H5Pget_userblock(fcpl, &size) >= 0);
  H5Pclose(fcpl);
  return size;
}

TEST_CASE("shards: a flipped byte in chunk data fails the Fletcher32 checksum", "[shards]") {
  TempDir dir("fletcher");
  const std::string path = dir.file("shard.h5");
  write_random_shard(path, test_meta(2), 4, 12);
  // Find the first chunk of planes on disk.
  haddr_t address = 0;
  hsize_t chunk_bytes = 0;
  {
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "planes", H5P_DEFAULT);
    hsize_t offset[4];
    unsigned mask = 0;
    hid_t space = H5Dget_space(d);
    REQUIRE(H5Dget_chunk_info(d, space, 0, offset, &mask, &address, &chunk_bytes) >= 0);
    address += user_block(f);
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
  }
  REQUIRE(chunk_bytes > 16);
  std::string bytes = read_bytes(path);
  bytes[address + chunk_bytes / 2] ^= 0x01;
  const std::string copy = dir.file("flipped.h5");
  write_bytes(copy, bytes);
  REQUIRE_THROWS_WITH(read_shard(copy),
                      Catch::Contains("damaged") && Catch::Contains("checksum does not match"));
  shard_detail::seal_file(copy);  // past the whole-file checksum: Fletcher32 sees it
  REQUIRE_THROWS_WITH(read_shard(copy), Catch::Contains("checksum") && Catch::Contains("planes"));
}

// Where the chunks of every dataset lie in the file: (offset in the file, bytes).
std::vector<std::pair<haddr_t, hsize_t>> chunk_regions(const std::string& path) {
  std::vector<std::pair<haddr_t, hsize_t>> out;
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hsize_t base = user_block(f);
  for (const char* name :
       {"planes",        "scalars",      "policy_offset",    "policy_index",
        "policy_weight", "root_value",   "result",           "player",
        "ply",           "game_id",      "generation",       "full_search",
        "games/game_id", "games/seed",   "games/start_fen",  "games/action_offset",
        "games/actions", "games/result", "games/end_reason", "games/resigned"}) {
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(d);
    hsize_t chunks = 0;
    REQUIRE(H5Dget_num_chunks(d, space, &chunks) >= 0);
    for (hsize_t i = 0; i < chunks; ++i) {
      hsize_t offset[4];
      unsigned mask = 0;
      haddr_t address = 0;
      hsize_t bytes = 0;
      REQUIRE(H5Dget_chunk_info(d, space, i, offset, &mask, &address, &bytes) >= 0);
      out.emplace_back(base + address, bytes);
    }
    H5Sclose(space);
    H5Dclose(d);
  }
  H5Fclose(f);
  return out;
}

TEST_CASE("shards: no flipped byte in any dataset's data changes the data silently", "[shards]") {
  TempDir dir("flips");
  const std::string path = dir.file("shard.h5");
  const ShardMeta meta = test_meta(2);
  const auto [games, samples] = write_random_shard(path, meta, 2, 13);
  const std::string bytes = read_bytes(path);
  const std::string copy = dir.file("flipped.h5");
  int flips = 0, rejected = 0;
  for (const auto& [address, size] : chunk_regions(path)) {
    for (hsize_t at = address; at < address + size; ++at) {
      std::string changed = bytes;
      changed[at] = char(changed[at] ^ (1 << (at % 8)));
      write_bytes(copy, changed);
      shard_detail::seal_file(copy);  // past the whole-file checksum
      ++flips;
      try {
        if (!same_data(read_shard(copy), games, samples))
          FAIL("byte " << at << " flipped: different data read without an error");
      } catch (const Error& e) {
        ++rejected;
      }
    }
  }
  INFO(flips << " flips, " << rejected << " rejected");
  REQUIRE(flips > 100);
  REQUIRE(rejected == flips);  // Fletcher32 sees every changed byte of a chunk
}

TEST_CASE("shards: a wrong version, a changed attribute or a missing dataset is rejected",
          "[shards]") {
  TempDir dir("version");
  const std::string path = dir.file("shard.h5");
  write_random_shard(path, test_meta(2), 3, 14);
  REQUIRE_NOTHROW(read_shard(path));
  auto edit = [&](const std::string& name, auto change) {
    const std::string copy = dir.file(name + ".h5");
    fs::copy_file(path, copy);
    hid_t f = H5Fopen(copy.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(f >= 0);
    change(f);
    REQUIRE(H5Fclose(f) >= 0);
    REQUIRE_THROWS_WITH(read_shard(copy),
                        Catch::Contains("damaged"));  // any change, before libhdf5 opens it
    shard_detail::seal_file(copy);  // past the whole-file checksum: the checks behind it
    return copy;
  };
  auto set_int = [](hid_t f, const char* name, int value) {
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    REQUIRE(a >= 0);
    REQUIRE(H5Awrite(a, H5T_NATIVE_INT, &value) >= 0);
    H5Aclose(a);
  };
  const std::string v2 = edit("v2", [&](hid_t f) { set_int(f, "format_version", 2); });
  REQUIRE_THROWS_WITH(read_shard(v2), Catch::Contains("format version 2") && Catch::Contains(v2));
  REQUIRE_THROWS_WITH(read_shard_meta(v2), Catch::Contains("format version 2"));
  const std::string gen = edit("gen", [&](hid_t f) { set_int(f, "generation", 8); });
  REQUIRE_THROWS_WITH(read_shard(gen), Catch::Contains("meta_hash"));
  const std::string no_ply =
      edit("noply", [](hid_t f) { REQUIRE(H5Ldelete(f, "ply", H5P_DEFAULT) >= 0); });
  REQUIRE_THROWS_WITH(read_shard(no_ply), Catch::Contains("missing dataset ply"));
  const std::string no_games =
      edit("nogames", [](hid_t f) { REQUIRE(H5Ldelete(f, "games", H5P_DEFAULT) >= 0); });
  REQUIRE_THROWS_WITH(read_shard(no_games), Catch::Contains("missing group games"));
  const std::string ply = edit("plyvalue", [](hid_t f) {
    hid_t d = H5Dopen2(f, "ply", H5P_DEFAULT);
    std::vector<int32_t> v(100);
    hid_t space = H5Dget_space(d);
    v.resize(H5Sget_simple_extent_npoints(space));
    H5Sclose(space);
    REQUIRE(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0);
    v[0] += 1;
    REQUIRE(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0);
    H5Dclose(d);
  });
  REQUIRE_THROWS_WITH(read_shard(ply), Catch::Contains("content_hash"));
}

// Where HDF5 keeps what is not chunk data (superblock, object headers, B-trees, heaps): every byte
// of the file after the checksum header outside the chunks.
std::vector<size_t> metadata_bytes(const std::string& path, size_t size) {
  std::vector<bool> chunk(size, false);
  for (const auto& [address, bytes] : chunk_regions(path))
    for (hsize_t at = address; at < address + bytes && at < size; ++at) chunk[at] = true;
  std::vector<size_t> out;
  for (size_t at = shard_detail::kSealBytes; at < size; ++at)
    if (!chunk[at]) out.push_back(at);
  return out;
}

TEST_CASE(
    "shards: random damage to the checksum header, HDF5 metadata or data is refused before libhdf5",
    "[shards][checksum]") {
  TempDir dir("damage");
  const std::string path = dir.file("shard.h5");
  const ShardMeta meta = test_meta(2);
  const auto [games, samples] = write_random_shard(path, meta, 3, 21);
  REQUIRE(same_data(read_shard(path), games, samples));
  const std::string bytes = read_bytes(path);
  REQUIRE(bytes.compare(0, 8, "VZSHARD1") == 0);
  REQUIRE(bytes.compare(shard_detail::kSealBytes, 8, "\x89HDF\r\n\x1a\n") ==
          0);  // HDF5 after the user block

  std::vector<size_t> header, data;
  for (size_t at = 0; at < shard_detail::kSealBytes; ++at) header.push_back(at);
  for (const auto& [address, size] : chunk_regions(path))
    for (hsize_t at = address; at < address + size; ++at) data.push_back(size_t(at));
  const std::vector<size_t> metadata = metadata_bytes(path, bytes.size());
  REQUIRE(metadata.size() > 100);
  REQUIRE(data.size() > 100);

  std::mt19937_64 rng(2024);
  int damaged = 0;
  for (const auto& [region, places] : std::vector<std::pair<std::string, std::vector<size_t>>>{
           {"checksum header", header}, {"metadata", metadata}, {"data", data}}) {
    for (int round = 0; round < 150; ++round) {
      std::string changed = bytes;
      const int count = 1 + int(rng() % 3);  // 1 to 3 bytes, each flipped by a random non-zero mask
      for (int k = 0; k < count; ++k) {
        const size_t at = places[rng() % places.size()];
        changed[at] = char(uint8_t(changed[at]) ^ uint8_t(1 + rng() % 255));
      }
      if (changed == bytes) continue;
      const std::string copy = dir.file(region.substr(0, 4) + std::to_string(round) + ".h5");
      write_bytes(copy, changed);
      INFO(region << ", round " << round);
      REQUIRE_THROWS_WITH(read_shard(copy), Catch::Contains(copy) && Catch::Contains("damaged"));
      REQUIRE_THROWS_WITH(read_shard_meta(copy), Catch::Contains("damaged"));
      REQUIRE_THROWS_WITH(read_shard_counts(copy), Catch::Contains("damaged"));
      ++damaged;
      fs::remove(copy);
    }
  }
  REQUIRE(damaged > 440);  // (two changes of one byte may cancel out)

  // The header wiped (a tool that rewrote the user block), or the file cut or grown.
  std::string wiped = bytes;
  std::fill(wiped.begin(), wiped.begin() + shard_detail::kSealBytes, '\0');
  write_bytes(dir.file("wiped.h5"), wiped);
  REQUIRE_THROWS_WITH(read_shard(dir.file("wiped.h5")),
                      Catch::Contains("checksum header is broken"));
  write_bytes(dir.file("grown.h5"), bytes + "x");
  REQUIRE_THROWS_WITH(read_shard(dir.file("grown.h5")),
                      Catch::Contains("differs from its checksum header"));
  write_bytes(dir.file("cut.h5"), bytes.substr(0, bytes.size() - 1));
  REQUIRE_THROWS_WITH(read_shard(dir.file("cut.h5")),
                      Catch::Contains("differs from its checksum header"));
}

TEST_CASE("shards: legacy shards without a checksum header still read, with the checks behind it",
          "[shards][checksum]") {
  TempDir dir("legacy");
  const std::string path = dir.file("legacy.h5");
  const ShardMeta meta = test_meta(2);
  std::mt19937_64 rng(5);
  std::vector<GameRecord> games;
  std::vector<std::vector<Sample>> samples(2);
  for (int g = 0; g < 2; ++g) games.push_back(random_game(rng, meta, 40 + g, samples[g]));
  {
    auto lock = shard_detail::lock_hdf5();
    shard_detail::write_file(path, meta, shard_detail::gather(games, samples), false);
  }
  const std::string bytes = read_bytes(path);
  REQUIRE(bytes.compare(0, 8, "\x89HDF\r\n\x1a\n") == 0);  // as vzero wrote shards before checksums
  REQUIRE(same_data(read_shard(path), games, samples));
  require_same_meta(read_shard_meta(path), meta);
  REQUIRE(read_shard_counts(path).games == 2);
  // Damaged data of a legacy shard is still caught by Fletcher32.
  const auto chunks = chunk_regions(path);
  std::string changed = bytes;
  changed[chunks[0].first + chunks[0].second / 2] ^= 0x10;
  write_bytes(dir.file("legacy-flipped.h5"), changed);
  REQUIRE_THROWS_WITH(read_shard(dir.file("legacy-flipped.h5")),
                      Catch::Contains("checksum failure"));
}

TEST_CASE("shards: the async writer takes games from many threads and flushes on close",
          "[shards]") {
  TempDir dir("async");
  const ShardMeta meta = test_meta(3);
  std::map<int64_t, std::pair<GameRecord, std::vector<Sample>>> expected;
  std::mutex expected_mutex;
  {
    AsyncShardWriter writer(dir.path.string(), "async", meta, 4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        std::mt19937_64 rng(t);
        for (int g = 0; g < 10; ++g) {
          std::vector<Sample> samples;
          GameRecord game = random_game(rng, meta, 100 * t + g, samples);
          {
            std::lock_guard<std::mutex> lock(expected_mutex);
            expected[game.game_id] = {game, samples};
          }
          writer.add_game(game, samples);
        }
      });
    }
    for (auto& th : threads) th.join();
    writer.flush();
    REQUIRE(writer.games_written() == 40);
    REQUIRE(writer.written().size() == 10);
    std::vector<Sample> samples;
    std::mt19937_64 rng(99);
    GameRecord last = random_game(rng, meta, 9999, samples);
    expected[last.game_id] = {last, samples};
    writer.add_game(last, samples);
    // the destructor flushes the partial shard holding the last game
  }
  const auto shards = list_shards(dir.path.string());
  REQUIRE(shards.size() == 11);
  size_t seen = 0;
  for (const auto& path : shards) {
    const ShardData d = read_shard(path);
    for (const GameRecord& g : d.games) {
      const auto& [game, samples] = expected.at(g.game_id);
      ShardData one;
      one.games = {g};
      for (const Sample& s : d.samples)
        if (s.game_id == g.game_id) one.samples.push_back(s);
      REQUIRE(same_data(one, {game}, {samples}));
      ++seen;
    }
  }
  REQUIRE(seen == expected.size());
}

TEST_CASE("shards: SIGKILL while writing leaves only complete shards", "[shards][kill]") {
  TempDir dir("kill");
  const ShardMeta meta = test_meta(2);
  int tmp_seen = 0;
  for (int round = 0; round < 4; ++round) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {  // write shards until killed
      try {
        AsyncShardWriter writer(dir.path.string(), "kill" + std::to_string(round), meta, 2);
        std::mt19937_64 rng(round);
        for (int64_t id = 0;; ++id) {
          std::vector<Sample> samples;
          GameRecord game = random_game(rng, meta, id, samples, 60);
          writer.add_game(std::move(game), std::move(samples));
          if (writer.queued_games() > 8) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      } catch (...) {
      }
      ::_exit(1);
    }
    const auto start = std::chrono::steady_clock::now();
    const size_t before = list_shards(dir.path.string()).size();
    while (list_shards(dir.path.string()).size() < before + 3 &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(30))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::microseconds(1000 * round + 300));
    ::kill(child, SIGKILL);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    for (const auto& entry : fs::directory_iterator(dir.path))
      if (entry.path().extension() == ".tmp") ++tmp_seen;
  }
  const auto shards = list_shards(dir.path.string());
  REQUIRE(shards.size() >= 12);
  for (const auto& path : shards) {
    REQUIRE(fs::path(path).extension() == ".h5");
    const ShardData d = read_shard(path);
    REQUIRE(d.games.size() == 2);
  }
  INFO("temporary files left by the kills: " << tmp_seen);
  SUCCEED();
}

// Writes the fixed shard that tests/check_shard.py and h5dump check (the
// shards_interop CTest); the path comes from VZERO_SHARD_OUT.
TEST_CASE("shards: write the interop shard", "[.interop]") {
  const char* out = std::getenv("VZERO_SHARD_OUT");
  REQUIRE(out != nullptr);
  fs::remove(out);
  const ShardMeta m = shard_meta("interop", 42, 7, 2, 2, 3, 3, 20, 2, 5);
  std::vector<GameRecord> games(2);
  std::vector<std::vector<Sample>> samples(2);
  for (int g = 0; g < 2; ++g) {
    games[g].game_id = 10 + g;
    games[g].seed = 0xffffffffffffff00ull + g;
    games[g].start_fen = g == 0 ? "start fen zero" : "fen one";
    games[g].actions = g == 0 ? std::vector<int32_t>{1, 2, 3} : std::vector<int32_t>{19};
    games[g].result = {g == 0 ? 1.0f : 0.0f, g == 0 ? -1.0f : 0.0f};
    games[g].end_reason = g == 0 ? "checkmate" : "cap";
    games[g].resigned = g == 1;
    for (int s = 0; s < (g == 0 ? 2 : 1); ++s) {
      Sample x;
      for (int k = 0; k < 18; ++k) x.planes.push_back(uint8_t((k + s + g) % 4));
      x.scalars = {0.25f * (s + 1), -1.5f};
      x.policy_index = {3, 7, 19};
      x.policy_weight = {0.1f, 0.3f, 0.6f};
      x.root_value = {0.5f, -0.5f};
      x.result = games[g].result;
      x.player = s % 2;
      x.ply = s;
      x.game_id = games[g].game_id;
      x.generation = 5;
      x.full_search = s == 0;
      samples[g].push_back(x);
    }
  }
  write_shard(out, m, games, samples);
  REQUIRE(same_data(read_shard(out), games, samples));
}
