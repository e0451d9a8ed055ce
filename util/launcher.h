#pragma once
// The one reader of the launcher's environment: where this process stands in
// its job as torchrun (RANK, WORLD_SIZE, LOCAL_RANK), Open MPI's mpirun
// (OMPI_COMM_WORLD_*), Slurm's srun (SLURM_*) or a PMI/PMIx launcher
// describe it. Nothing is joined here: no MPI, no LibTorch.
#include <string>

namespace vzero {

// The place of this process in a job, as its launcher describes it.
struct LaunchPlace {
  int rank = 0, world = 1, local_rank = 0;
  std::string source = "single";  // "torchrun" (RANK/WORLD_SIZE), "openmpi", "slurm" or "single"
  std::string master_addr;        // MASTER_ADDR/MASTER_PORT: the TCP store of rank 0
  int master_port = 0;
  std::string job_id;  // the launcher's job identity (names the file store without MASTER_ADDR)
  // Whether the job has more than one rank.
  bool distributed() const { return world > 1; }
};

// Reads RANK/WORLD_SIZE/LOCAL_RANK (torchrun style) first, then Open MPI's
// OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK, then Slurm's
// SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID (inside a job step only);
// MASTER_ADDR and MASTER_PORT with any of them. Throws Error naming the
// variable on a malformed or inconsistent value.
LaunchPlace read_launch_place();

// What the environment says about an MPI launcher, for joining its MPI job.
struct MpiLaunch {
  bool launched = false;  // an MPI launcher (mpirun, srun with PMIx or PMI) started this process
  int ranks = 0;          // the ranks it says the job has (0: not said)
  int slurm_step_tasks =
      0;  // the tasks of the Slurm job step (srun) this process is one of; 0 outside a step
};
// Reads OMPI_COMM_WORLD_SIZE, PMIX_SIZE or PMI_SIZE (else PMIX_RANK or
// PMI_RANK), and SLURM_STEP_ID with SLURM_STEP_NUM_TASKS. Never throws: a
// malformed number reads as 0, as atoi reads it.
MpiLaunch read_mpi_launch();

}  // namespace vzero
