// Rank detection and the c10d process group of data-parallel training.
#include "training/distributed.h"

#include <torch/torch.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "net/model.h"
#include "training/run_dir.h"
#include "util/error.h"

#ifdef VZERO_WITH_C10D
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef VZERO_WITH_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#endif

namespace vzero {

namespace fs = std::filesystem;

namespace {

// Collectives and rendezvous time out after this long (a rank that died, a rank 0 that works
// alone).
constexpr std::chrono::minutes kTimeout{30};
// How long the other ranks wait for rank 0's next decision (a following trainer waits for data).
constexpr std::chrono::hours kDecisionTimeout{24 * 7};

}  // namespace

DistributedEnv detect_distributed_env() { return read_launch_place(); }

#ifdef VZERO_WITH_C10D

namespace {

// Sums t over the ranks of group in place.
void allreduce_in(c10d::ProcessGroup& group, torch::Tensor& t) {
  std::vector<torch::Tensor> one{t};
  group.allreduce(one)->wait();
}

// The all-reduced sum whose gradient is the all-reduced sum of the gradients.
struct AllReduceSum : torch::autograd::Function<AllReduceSum> {
  // group: the address of the c10d group (autograd keeps plain values only).
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                               int64_t group) {
    ctx->saved_data["group"] = group;
    torch::Tensor y = x.clone();
    allreduce_in(*reinterpret_cast<c10d::ProcessGroup*>(group), y);
    return y;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad) {
    torch::Tensor g = grad[0].clone();
    allreduce_in(*reinterpret_cast<c10d::ProcessGroup*>(ctx->saved_data["group"].toInt()), g);
    return {g, torch::Tensor()};
  }
};

}  // namespace

struct ProcessGroup::Impl {
  DistributedEnv env;
  std::string backend, device_name = "cpu";
  c10::intrusive_ptr<c10d::Store> store;  // for rank 0's texts
  c10::intrusive_ptr<c10d::ProcessGroup> group;
  torch::Device device{torch::kCPU};  // where the collectives' tensors live
  int64_t texts = 0;                  // broadcast_text calls so far

  void allreduce(torch::Tensor& t) { allreduce_in(*group, t); }
};

std::unique_ptr<ProcessGroup> ProcessGroup::join(const DistributedEnv& env,
                                                 const std::string& run_dir,
                                                 const std::string& device) {
  check(env.distributed(), "a process group needs more than one rank");
  auto impl = std::make_unique<Impl>();
  impl->env = env;
  try {
    if (!env.master_addr.empty()) {
      c10d::TCPStoreOptions o;
      o.port = uint16_t(env.master_port);
      o.isServer = env.rank == 0;
      o.numWorkers = size_t(env.world);
      o.timeout = kTimeout;
      impl->store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, o);
    } else {
      if (env.job_id.empty() || env.job_id == ".")
        throw Error(env.source +
                    " gives no job id to meet by: set MASTER_ADDR and MASTER_PORT (rank 0's host "
                    "and a free port)");
      const fs::path dir = RunFolder(run_dir).rendezvous_dir();
      fs::create_directories(dir);
      impl->store = c10::make_intrusive<c10d::FileStore>(
          (dir / (env.source + "-" + env.job_id)).string(), env.world);
      impl->store->setTimeout(kTimeout);
    }
    const auto prefixed = c10::make_intrusive<c10d::PrefixStore>("group", impl->store);
    if (device.rfind("cuda", 0) == 0) {
#ifdef VZERO_WITH_NCCL
      impl->backend = "nccl";
      const int gpus = int(torch::cuda::device_count());
      check(gpus > 0, "device '" + device + "': no GPU is visible");
      impl->device = parse_device(device);
      impl->device_name =
          "cuda:" +
          std::to_string((std::max<int>(0, impl->device.index()) + env.local_rank) % gpus);
      impl->device = parse_device(impl->device_name);
      impl->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(
          prefixed, env.rank, env.world, c10d::ProcessGroupNCCL::Options::create());
#else
      throw Error("device '" + device +
                  "': this build of vzero has no NCCL for distributed training on GPUs");
#endif
    } else {
      impl->backend = "gloo";
      auto options = c10d::ProcessGroupGloo::Options::create(kTimeout);
      const std::string interface =
          std::getenv("GLOO_SOCKET_IFNAME") ? std::getenv("GLOO_SOCKET_IFNAME") : "";
      options->devices.push_back(interface.empty()
                                     ? c10d::ProcessGroupGloo::createDefaultDevice()
                                     : c10d::ProcessGroupGloo::createDeviceForInterface(interface));
      options->threads = 2;
      impl->group =
          c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, env.rank, env.world, options);
    }
  } catch (const c10::Error& e) {
    throw Error("distributed training: rank " + std::to_string(env.rank) + " of " +
                std::to_string(env.world) +
                " could not join its group: " + e.what_without_backtrace());
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const Error*>(&e)) throw;
    throw Error("distributed training: rank " + std::to_string(env.rank) + " of " +
                std::to_string(env.world) + " could not join its group: " + e.what());
  }
  return std::unique_ptr<ProcessGroup>(new ProcessGroup(std::move(impl)));
}

void ProcessGroup::barrier() {
  torch::Tensor t = torch::zeros({1}, torch::TensorOptions().device(impl_->device));
  impl_->allreduce(t);
}

std::string ProcessGroup::broadcast_text(const std::string& text) {
  const std::string key = "text/" + std::to_string(impl_->texts++);
  if (rank() == 0) {
    impl_->store->set(key, std::vector<uint8_t>(text.begin(), text.end()));
    return text;
  }
  impl_->store->wait({key}, kDecisionTimeout);
  const std::vector<uint8_t> v = impl_->store->get(key);
  return std::string(v.begin(), v.end());
}

std::vector<double> ProcessGroup::sum(const std::vector<double>& values) {
  torch::Tensor t = torch::tensor(values, torch::kDouble).to(impl_->device);
  impl_->allreduce(t);
  t = t.cpu();
  return std::vector<double>(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
}

void ProcessGroup::average(const std::vector<at::Tensor>& tensors) {
  std::vector<torch::Tensor> flat;
  for (const torch::Tensor& t : tensors) flat.push_back(t.reshape(-1));
  if (flat.empty()) return;
  torch::Tensor all = torch::cat(flat);
  impl_->allreduce(all);
  all.div_(double(world()));
  int64_t at = 0;
  for (const torch::Tensor& t : tensors) {
    t.copy_(all.narrow(0, at, t.numel()).view_as(t));
    at += t.numel();
  }
}

at::Tensor ProcessGroup::sum_differentiable(const at::Tensor& t) {
  return AllReduceSum::apply(t, reinterpret_cast<int64_t>(impl_->group.get()));
}

at::Tensor ProcessGroup::batch_norm(torch::nn::BatchNorm2dImpl& bn, const at::Tensor& x) {
  const int64_t channels = x.size(1);
  const std::vector<int64_t> shape{1, channels, 1, 1};
  const double n = double(x.numel() / channels) * world();  // every rank holds as many samples
  // Two passes, as the mean and the variance of one process.
  const torch::Tensor mean = sum_differentiable(x.sum({0, 2, 3})) / n;
  const torch::Tensor centred = x - mean.view(shape);
  const torch::Tensor var = sum_differentiable(centred.pow(2).sum({0, 2, 3})) / n;
  torch::Tensor y = centred * torch::rsqrt(var + bn.options.eps()).view(shape);
  if (bn.options.affine()) y = y * bn.weight.view(shape) + bn.bias.view(shape);
  if (bn.options.track_running_stats()) {
    torch::NoGradGuard no_grad;
    bn.num_batches_tracked += 1;
    const double m = bn.options.momentum() ? *bn.options.momentum()
                                           : 1.0 / bn.num_batches_tracked.item<double>();
    bn.running_mean.mul_(1.0 - m).add_(mean.detach() * m);
    bn.running_var.mul_(1.0 - m).add_(var.detach() * (n / std::max(1.0, n - 1.0)) * m);
  }
  return y;
}

#else  // a LibTorch without c10d headers: single-process training only

struct ProcessGroup::Impl {
  DistributedEnv env;
  std::string backend, device_name;
};

std::unique_ptr<ProcessGroup> ProcessGroup::join(const DistributedEnv& env, const std::string&,
                                                 const std::string&) {
  throw Error(
      "rank " + std::to_string(env.rank) + " of " + std::to_string(env.world) +
      ": this build of vzero has no distributed training (c10d and Gloo headers were not found)");
}
void ProcessGroup::barrier() {}
std::string ProcessGroup::broadcast_text(const std::string& text) { return text; }
std::vector<double> ProcessGroup::sum(const std::vector<double>& values) { return values; }
void ProcessGroup::average(const std::vector<at::Tensor>&) {}
at::Tensor ProcessGroup::sum_differentiable(const at::Tensor& t) { return t; }
at::Tensor ProcessGroup::batch_norm(torch::nn::BatchNorm2dImpl& bn, const at::Tensor& x) {
  return bn.forward(x);
}

#endif

ProcessGroup::ProcessGroup(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ProcessGroup::~ProcessGroup() = default;
int ProcessGroup::rank() const { return impl_->env.rank; }
int ProcessGroup::world() const { return impl_->env.world; }
const std::string& ProcessGroup::backend() const { return impl_->backend; }
const std::string& ProcessGroup::device() const { return impl_->device_name; }

}  // namespace vzero
