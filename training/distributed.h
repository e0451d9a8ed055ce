#pragma once
// Data-parallel training across processes with LibTorch's c10d: where a
// process stands in its job (rank, world size, local rank, rendezvous) read
// from the launcher's environment, and a process group over Gloo (CPU) or
// NCCL (a CUDA LibTorch, CUDA devices) that all-reduces gradients and
// batch-norm statistics and hands rank 0's decisions to the other ranks.
// This header holds no LibTorch (tensors are only declared).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "util/launcher.h"

namespace at {
class Tensor;
}
namespace torch::nn {
class BatchNorm2dImpl;
}

namespace vzero {

// The place of this process in a job, as its launcher describes it (util/launcher.h).
using DistributedEnv = LaunchPlace;

// Reads the environment: RANK/WORLD_SIZE/LOCAL_RANK (torchrun style) first,
// then Open MPI's OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK, then Slurm's
// SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID; MASTER_ADDR and MASTER_PORT with
// any of them (read_launch_place). Throws Error on a malformed or inconsistent value.
DistributedEnv detect_distributed_env();

// A group of training processes that agree on every step. Collectives must be
// called by every rank in the same order.
class ProcessGroup {
 public:
  // Joins the job of env: a TCP store at MASTER_ADDR:MASTER_PORT (rank 0
  // serves it) when both are set, else a file store in
  // <run_dir>/rendezvous/<source>-<job id> (a shared file system). Gloo,
  // or NCCL when device is a CUDA device and this LibTorch has it. Throws
  // Error when env is not distributed or the rendezvous is impossible.
  static std::unique_ptr<ProcessGroup> join(const DistributedEnv& env, const std::string& run_dir,
                                            const std::string& device);
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int rank() const;
  int world() const;
  const std::string& backend() const;  // "gloo" or "nccl"
  // The device of this rank: "cpu", or for a CUDA device "cuda:N" of the job,
  // "cuda:((N + local rank) % visible GPUs)", so that the ranks of a host share its GPUs out.
  const std::string& device() const;

  // Waits until every rank has called it.
  void barrier();
  // Rank 0's text on every rank (the others' argument is ignored).
  std::string broadcast_text(const std::string& text);
  // The element-wise sums of values over the ranks.
  std::vector<double> sum(const std::vector<double>& values);

  // Replaces each tensor by its mean over the ranks (gradients; one all-reduce for all).
  void average(const std::vector<at::Tensor>& tensors);
  // The sum over the ranks of t, differentiable: its gradient is the sum over
  // the ranks of the gradients (synchronized batch norm).
  at::Tensor sum_differentiable(const at::Tensor& t);
  // Batch norm of x over the samples of every rank (training mode): the
  // same outputs, running statistics and gradients as one process with all
  // the samples, when every rank has the same number of samples.
  at::Tensor batch_norm(torch::nn::BatchNorm2dImpl& bn, const at::Tensor& x);

 private:
  struct Impl;
  explicit ProcessGroup(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vzero
