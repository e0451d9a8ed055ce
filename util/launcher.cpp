// Reading the launcher's environment variables.
#include "util/launcher.h"

#include <cstdlib>

#include "util/error.h"

namespace vzero {

namespace {

// The value of an environment variable, or "" when it is unset.
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// A whole number in [low, high] from the environment variable name.
int env_int(const char* name, int low, int high) {
  const std::string v = env(name);
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || x < low || x > high)
    throw Error(std::string("environment variable ") + name + "='" + v +
                "' is not a whole number in [" + std::to_string(low) + ", " + std::to_string(high) +
                "]");
  return int(x);
}

}  // namespace

LaunchPlace read_launch_place() {
  LaunchPlace e;
  constexpr int kMaxRanks = 1 << 20;
  if (!env("RANK").empty() || !env("WORLD_SIZE").empty()) {
    e.source = "torchrun";
    e.world = env_int("WORLD_SIZE", 1, kMaxRanks);
    e.rank = env_int("RANK", 0, e.world - 1);
    e.local_rank = env("LOCAL_RANK").empty() ? 0 : env_int("LOCAL_RANK", 0, kMaxRanks);
    e.job_id = env("TORCHELASTIC_RUN_ID");
  } else if (!env("OMPI_COMM_WORLD_RANK").empty()) {
    e.source = "openmpi";
    e.world = env_int("OMPI_COMM_WORLD_SIZE", 1, kMaxRanks);
    e.rank = env_int("OMPI_COMM_WORLD_RANK", 0, e.world - 1);
    e.local_rank = env("OMPI_COMM_WORLD_LOCAL_RANK").empty()
                       ? 0
                       : env_int("OMPI_COMM_WORLD_LOCAL_RANK", 0, kMaxRanks);
    e.job_id = env("OMPI_MCA_ess_base_jobid");
  } else if (!env("SLURM_PROCID").empty() && !env("SLURM_STEP_ID").empty()) {
    // Only inside a job step (srun): a batch script itself has SLURM_NTASKS but is one process.
    e.source = "slurm";
    e.world = env_int("SLURM_NTASKS", 1, kMaxRanks);
    e.rank = env_int("SLURM_PROCID", 0, e.world - 1);
    e.local_rank = env("SLURM_LOCALID").empty() ? 0 : env_int("SLURM_LOCALID", 0, kMaxRanks);
    e.job_id = env("SLURM_JOB_ID") + "." + env("SLURM_STEP_ID");
  }
  e.master_addr = env("MASTER_ADDR");
  if (!env("MASTER_PORT").empty()) e.master_port = env_int("MASTER_PORT", 1, 65535);
  if (!e.master_addr.empty() && e.master_port == 0)
    throw Error("MASTER_ADDR is set but MASTER_PORT is not");
  return e;
}

MpiLaunch read_mpi_launch() {
  MpiLaunch m;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(name)) {
      m.launched = true;
      m.ranks = std::atoi(v);
      break;
    }
  if (!m.launched) m.launched = std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
  const char* step = std::getenv("SLURM_STEP_ID");
  const char* tasks = std::getenv("SLURM_STEP_NUM_TASKS");
  m.slurm_step_tasks = step && tasks ? std::atoi(tasks) : 0;
  return m;
}

}  // namespace vzero
