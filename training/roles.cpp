// The shared run folder's protocol and the self-play worker.
#include "training/roles.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "net/server.h"
#include "selfplay/selfplay.h"
#include "selfplay/shard.h"
#include "training/loop.h"
#include "training/run_dir.h"
#include "training/train_run.h"
#include "util/error.h"
#include "util/files.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

// How long a worker's temporary shard may lie untouched before it counts as left by a killed
// worker.
constexpr auto kStaleTemporary = std::chrono::minutes(10);

// The run a resolved config describes, without the settings of where and how
// fast a role runs, which differ between hosts (device, threads, games in
// flight, the [inference] keys of speed: batching, cache, form), and without
// the number of generations, which a restart may raise.
std::string role_identity(const std::string& resolved) {
  return run_identity(resolved, {"/device", "selfplay/parallel_games", "train/threads"});
}

// Writes text to path under a temporary name of this process, then renames it
// (several processes may publish the same file at once).
void publish_text(const std::string& path, const std::string& text) {
  const std::string tmp = path + "." + process_name() + "-" + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) throw Error("cannot write '" + tmp + "'");
  }
  sync_and_rename(tmp, path);
}

}  // namespace

std::string process_name() {
  static const std::string name = [] {
    char host[256] = {0};
    if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') std::strcpy(host, "host");
    std::string h(host);
    for (char& c : h)
      if (c == '/' || c == ' ') c = '_';
    char digits[16];
    std::snprintf(digits, sizeof digits, "%08x", unsigned(std::random_device{}()));
    return h + "-" + digits;
  }();
  return name;
}

void prepare_shared_run_dir(const RunContext& run) {
  const RunFolder& folder = run.folder;
  check_init_model(run);
  for (const std::string& sub : {folder.shards_dir(), folder.models_dir(), folder.game_ids_dir()})
    fs::create_directories(sub);
  const std::string cfg = folder.config_path();
  if (!fs::exists(cfg)) publish_text(cfg, run.config.resolved);
  if (role_identity(read_text_file(cfg)) != role_identity(run.config.resolved))
    throw Error("run folder '" + folder.dir() + "' holds a run of another config (" + cfg +
                "); use a new folder or the same config");
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(folder.shards_dir())) {
    const std::string name = entry.path().filename().string();
    std::error_code ec;
    const auto written = fs::last_write_time(entry.path(), ec);
    if (!ec && name.rfind("w-", 0) == 0 && entry.path().extension() == ".tmp" &&
        now - written > kStaleTemporary)
      fs::remove(entry.path(), ec);
  }
}

bool stop_requested(const RunFolder& folder, const RoleOptions& options) {
  return (options.signal && options.signal->load()) || fs::exists(folder.stop_path());
}

int64_t reserve_game_block(const RunFolder& folder, const std::string& owner) {
  const fs::path ids = folder.game_ids_dir();
  fs::create_directories(ids);
  int64_t n = 0;  // after every block reserved so far
  for (const auto& entry : fs::directory_iterator(ids)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && name.size() < 18 &&
        name.find_first_not_of("0123456789") == std::string::npos)
      n = std::max<int64_t>(n, std::stoll(name) + 1);
  }
  for (;; ++n) {
    const std::string path = (ids / std::to_string(n)).string();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == EEXIST) continue;  // another worker was faster
      throw Error("cannot reserve game ids in '" + ids.string() + "': " + std::strerror(errno));
    }
    const std::string text = owner + "\n";
    const bool ok =
        ::write(fd, text.data(), text.size()) == ssize_t(text.size()) && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok) throw Error("cannot write '" + path + "'");
    sync_path(ids.string(), true);
    return n;
  }
}

void run_worker(const RunContext& run, const RoleOptions& options) {
  const RunConfig& config = run.config;
  const RunFolder& folder = run.folder;
  std::ostream& log = run.log;
  prepare_shared_run_dir(run);
  // With loop.init_model the first games need gen-000, which the trainer may not have written yet
  // (both write the same files).
  if (!config.loop.init_model.empty()) save_fresh_model(run);
  const std::string name = process_name(), shards = folder.shards_dir();
  const std::string owner = name + " pid " + std::to_string(::getpid());
  const int block_size = config.selfplay.games_per_shard;
  std::unique_ptr<InferenceServer> server;
  int served = -1;
  std::set<std::string> mine;  // the shards written so far
  int64_t played = 0;
  log << "worker " << name << " pid " << ::getpid() << " in " << folder.dir() << std::endl;
  while (!stop_requested(folder, options) &&
         (options.max_games == 0 || played < options.max_games)) {
    const int current = folder.read_current();
    // The games of the generation after the current model's (the first is the bootstrap's).
    const bool bootstrap = network_free_generation(config.loop, current + 1, current);
    if (current != served) {
      server.reset();
      if (!bootstrap)
        server = std::make_unique<InferenceServer>(run.game, config.inference,
                                                   folder.model_path(current));
      served = current;
      log << "worker " << name << " plays with "
          << (!bootstrap ? "gen-" + std::to_string(current) : "the bootstrap evaluator")
          << std::endl;
    }
    const int64_t block = reserve_game_block(folder, owner);
    SelfplayJob job = generation_job(run.game, config, current, bootstrap);
    if (server) job.evaluator = server.get();
    job.out_dir = shards;
    job.file_prefix = "w-" + name;
    job.first_game_id = kWorkerGameIds + block * block_size;
    job.selfplay.games =
        int(options.max_games > 0 ? std::min<int64_t>(block_size, options.max_games - played)
                                  : block_size);
    // Games not yet begun are left out when the role is to stop or a new model is promoted.
    std::atomic<bool> cut{false};
    job.stop = &cut;
    job.progress_seconds = options.poll_seconds;
    job.progress = [&](const SelfplayStats&) {
      try {
        if (stop_requested(folder, options) || folder.read_current() != current) cut = true;
      } catch (const Error&) {
        // A malformed current.txt: the next block reports it.
      }
    };
    const SelfplayStats s = run_selfplay(job);
    played += s.games;
    std::string written;
    for (const std::string& path : list_shards(shards))
      if (fs::path(path).filename().string().rfind(job.file_prefix + "-", 0) == 0 &&
          mine.insert(path).second)
        written += " " + fs::path(path).filename().string();
    log << "worker " << name << " block " << block << " model gen-" << current << " games "
        << s.games << " positions " << s.positions << " pos/s " << int(s.positions_per_s())
        << " shards" << written << std::endl;
  }
  log << "worker " << name << " stops after " << played << " games" << std::endl;
}

}  // namespace vzero
