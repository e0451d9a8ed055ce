// Fuzz target: shard files through the checked reader (read_shard, which
// reads the attributes as read_shard_meta does). The first byte picks the mode:
//   even: games and samples made from the input (any values: sizes, ranges,
//         ids, offsets), flattened, then up to 8 single values of the columns
//         overwritten, and written unchecked with valid hashes
//         (shard_detail::write_file), so that the reader's checks after the
//         hashes are reached. Records the writer accepts must read back
//         exactly; others must be refused with vzero::Error.
//   1 mod 4: bytes of a valid shard's dataset chunks (the data that Fletcher32
//         guards) changed at input-chosen places and the file resealed (a
//         valid whole-file checksum): refused, or read back the same.
//   3 mod 4: bytes anywhere in a valid shard changed, HDF5's own metadata
//         included, not resealed: always refused by the whole-file checksum,
//         before libhdf5 parses anything (docs/shards.md, "Checks on reading").
// Not fuzzed: resealed changes to HDF5's own metadata (object headers,
// B-trees, heaps), which libhdf5 parses before any check of ours behind the
// checksum and on which it can crash (docs/shards.md, "Limit").
#include <fuzzer/FuzzedDataProvider.h>

#include <fstream>
#include <iterator>
#include <set>

#include "fuzz/fuzz_util.h"
#include "selfplay/shard.h"
#include "selfplay/shard_internal.h"

using namespace vzero;
using namespace vzero::shard_detail;

namespace {

ShardMeta small_meta() {
  ShardMeta m;
  m.variant = "fuzz";
  m.rules_hash = 1;
  m.encoding_hash = 2;
  m.config_hash = 3;
  m.planes = 2;
  m.scalars = 1;
  m.height = m.width = 2;
  m.num_actions = 6;
  m.players = 2;
  return m;
}

// Games and samples of the meta's shape, their values from the input (often out of range).
void make_records(FuzzedDataProvider& in, const ShardMeta& m, std::vector<GameRecord>& games,
                  std::vector<std::vector<Sample>>& samples) {
  const int n_games = in.ConsumeIntegralInRange(0, 3);
  for (int g = 0; g < n_games; ++g) {
    GameRecord r;
    r.game_id = in.ConsumeIntegralInRange<int64_t>(-1, 4);
    r.seed = in.ConsumeIntegral<uint64_t>();
    r.start_fen = in.ConsumeRandomLengthString(12);
    for (int a = in.ConsumeIntegralInRange(0, 4); a > 0; --a)
      r.actions.push_back(in.ConsumeIntegralInRange(-1, m.num_actions));
    r.result.assign(size_t(in.ConsumeIntegralInRange(m.players - 1, m.players + 1)),
                    in.ConsumeFloatingPoint<float>());
    r.end_reason = in.ConsumeRandomLengthString(8);
    r.resigned = in.ConsumeBool();
    std::vector<Sample> ss;
    for (int k = in.ConsumeIntegralInRange(0, 3); k > 0; --k) {
      Sample s;
      s.planes.assign(size_t(m.planes * m.height * m.width), in.ConsumeIntegral<uint8_t>());
      s.scalars.assign(size_t(m.scalars), in.ConsumeFloatingPoint<float>());
      for (int p = in.ConsumeIntegralInRange(0, 3); p > 0; --p) {
        s.policy_index.push_back(in.ConsumeIntegralInRange(-1, m.num_actions));
        s.policy_weight.push_back(in.ConsumeFloatingPoint<float>());
      }
      s.root_value.assign(size_t(m.players), in.ConsumeFloatingPoint<float>());
      s.result = r.result;
      s.player = in.ConsumeIntegralInRange(-1, m.players);
      s.ply = in.ConsumeIntegralInRange(-1, 9);
      s.game_id = in.ConsumeBool() ? r.game_id : in.ConsumeIntegralInRange<int64_t>(-1, 4);
      s.generation = in.ConsumeIntegralInRange(-1, 2);
      s.full_search = in.ConsumeBool();
      ss.push_back(std::move(s));
    }
    games.push_back(std::move(r));
    samples.push_back(std::move(ss));
  }
}

// Overwrites one value of a numeric column (chosen by the input) with input bytes.
void overwrite_one(FuzzedDataProvider& in, Columns& c) {
  int column = in.ConsumeIntegralInRange(0, 17);
  const auto edit = [&](const char*, auto& v) {
    if (column-- != 0 || v.empty()) return;
    auto& x = v[in.ConsumeIntegralInRange<size_t>(0, v.size() - 1)];
    const std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(sizeof x);
    if (!bytes.empty()) std::memcpy(&x, bytes.data(), std::min(bytes.size(), sizeof x));
  };
  for_each_column(c, edit, [](const char*, auto&) {});
}

// A valid shard's bytes and the byte ranges of its datasets' chunks.
struct Template {
  std::string bytes;
  std::vector<std::pair<uint64_t, uint64_t>> chunks;  // (offset, size)
  ShardData data;
};

const Template& valid_shard() {
  static const Template t = [] {
    Template t;
    const ShardMeta m = small_meta();
    std::vector<GameRecord> games(2);
    std::vector<std::vector<Sample>> samples(2);
    for (int g = 0; g < 2; ++g) {
      games[g].game_id = g + 10;
      games[g].start_fen = "start";
      games[g].actions = {1, 2, 3};
      games[g].result = {1.0f, -1.0f};
      games[g].end_reason = "checkmate";
      for (int k = 0; k < 3; ++k) {
        Sample s;
        s.planes.assign(8, uint8_t(k));
        s.scalars = {0.5f};
        s.policy_index = {0, 2, 5};
        s.policy_weight = {0.25f, 0.25f, 0.5f};
        s.root_value = {0.1f, -0.1f};
        s.result = games[g].result;
        s.player = k % 2;
        s.ply = k;
        s.game_id = games[g].game_id;
        samples[g].push_back(s);
      }
    }
    const std::string path = fuzz::temp_file("template.h5");
    write_shard(path, m, games, samples);
    std::ifstream f(path, std::ios::binary);
    t.bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    t.data = read_shard(path);
    auto lock = lock_hdf5();
    H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    H5Id fcpl(H5Fget_create_plist(file.get()), H5Pclose);
    hsize_t base =
        0;  // HDF5's addresses count from the end of the user block (the checksum header)
    H5Pget_userblock(fcpl.get(), &base);
    Columns none;
    for_each_column(
        none,
        [&](const char* name, auto&) {
          H5Id d(H5Dopen2(file.get(), name, H5P_DEFAULT), H5Dclose);
          H5Id space(H5Dget_space(d.get()), H5Sclose);
          hsize_t count = 0;
          H5Dget_num_chunks(d.get(), space.get(), &count);
          for (hsize_t i = 0; i < count; ++i) {
            haddr_t addr = 0;
            hsize_t size = 0;
            unsigned mask = 0;
            if (H5Dget_chunk_info(d.get(), space.get(), i, nullptr, &mask, &addr, &size) >= 0 &&
                size > 0)
              t.chunks.emplace_back(base + addr, size);
          }
        },
        [](const char*, auto&) {});
    std::remove(path.c_str());
    fuzz::require(!t.chunks.empty(), "the template shard has chunks");
    return t;
  }();
  return t;
}

bool same(const ShardData& a, const ShardData& b) {
  if (a.games.size() != b.games.size() || a.samples.size() != b.samples.size()) return false;
  for (size_t i = 0; i < a.games.size(); ++i) {
    const GameRecord &x = a.games[i], &y = b.games[i];
    if (x.game_id != y.game_id || x.seed != y.seed || x.start_fen != y.start_fen ||
        x.actions != y.actions || x.result != y.result || x.end_reason != y.end_reason ||
        x.resigned != y.resigned)
      return false;
  }
  for (size_t i = 0; i < a.samples.size(); ++i) {
    const Sample &x = a.samples[i], &y = b.samples[i];
    if (x.planes != y.planes || x.scalars != y.scalars || x.policy_index != y.policy_index ||
        x.policy_weight != y.policy_weight || x.root_value != y.root_value ||
        x.result != y.result || x.player != y.player || x.ply != y.ply || x.game_id != y.game_id ||
        x.generation != y.generation || x.full_search != y.full_search)
      return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = fuzz::temp_file("shard.h5");
  // HDF5 keeps freed blocks for reuse instead of handing them back (each file's
  // metadata cache is a large calloc that costs fresh pages under ASan).
  static const herr_t limits = H5set_free_list_limits(-1, -1, -1, -1, -1, -1);
  (void)limits;
  if (size < 1 || size > 4096) return 0;
  FuzzedDataProvider in(data + 1, size - 1);
  std::remove(path.c_str());
  if (data[0] % 2 == 0) {
    const ShardMeta m = small_meta();
    std::vector<GameRecord> games;
    std::vector<std::vector<Sample>> samples;
    make_records(in, m, games, samples);
    bool valid = true;  // what write_shard would accept (its checks, without writing)
    try {
      std::set<int64_t> ids;
      for (size_t g = 0; g < games.size(); ++g) {
        check_game(m, games[g], samples[g]);
        valid = valid && ids.insert(games[g].game_id).second;
      }
    } catch (const Error&) {
      valid = false;
    }
    // Columns must have the lengths of their shapes (write_file writes them as they are).
    for (GameRecord& g : games) g.result.resize(size_t(m.players));
    for (auto& list : samples)
      for (Sample& s : list) s.result.resize(size_t(m.players));
    Columns c = gather(games, samples);
    const int edits = in.ConsumeIntegralInRange(0, 8);
    for (int e = 0; e < edits; ++e) overwrite_one(in, c);
    {
      auto lock = lock_hdf5();
      write_file(path, m, c);
    }
    try {
      const ShardData d = read_shard(path);
      for (size_t g = 0; g < d.games.size(); ++g)
        fuzz::require(d.games[g].result.size() == size_t(m.players), "results per seat");
      if (valid && edits == 0) {
        fuzz::require(d.games.size() == games.size(), "a valid shard reads back every game");
        for (size_t g = 0; g < games.size(); ++g)
          fuzz::require(
              d.games[g].actions == games[g].actions && d.games[g].game_id == games[g].game_id,
              "games read back");
      }
    } catch (const Error&) {
      fuzz::require(!(valid && edits == 0), "a shard the writer accepts reads back");
    }
  } else if (data[0] % 4 == 3) {
    const Template& t = valid_shard();
    std::string bytes = t.bytes;
    for (int k = in.ConsumeIntegralInRange(1, 8); k > 0 && in.remaining_bytes() > 0; --k) {
      const size_t at = in.ConsumeIntegralInRange<size_t>(0, bytes.size() - 1);
      const uint8_t x = in.ConsumeIntegral<uint8_t>();
      bytes[at] = char(uint8_t(bytes[at]) ^ (x ? x : 1));
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), std::streamsize(bytes.size()));
    bool refused = false;
    try {
      read_shard(path);
    } catch (const Error&) {
      refused = true;
    }
    fuzz::require(refused || bytes == t.bytes, "a changed shard is refused by its checksum");
  } else {
    const Template& t = valid_shard();
    std::string bytes = t.bytes;
    uint64_t total = 0;
    for (const auto& c : t.chunks) total += c.second;
    for (int k = in.ConsumeIntegralInRange(1, 8); k > 0 && in.remaining_bytes() > 0; --k) {
      uint64_t at = in.ConsumeIntegralInRange<uint64_t>(0, total - 1);
      const uint8_t x = in.ConsumeIntegral<uint8_t>();
      for (const auto& c : t.chunks) {
        if (at < c.second) {
          bytes[c.first + at] = char(uint8_t(bytes[c.first + at]) ^ (x ? x : 1));
          break;
        }
        at -= c.second;
      }
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), std::streamsize(bytes.size()));
    seal_file(path);  // past the whole-file checksum, to the checks behind it
    try {
      fuzz::require(same(read_shard(path), t.data),
                    "a changed shard is refused or reads back the same");
    } catch (const Error&) {
    }
  }
  return 0;
}
