// vzero export | bench nn: TorchScript export and the inference ceiling.
#include <ATen/Parallel.h>

#include <chrono>
#include <iostream>

#include "cli/commands.h"
#include "game/error.h"
#include "net/checkpoint.h"
#include "net/export.h"
#include "net/model.h"

namespace vzero::cli {

namespace {

// The model of a checkpoint, or a fresh one of the default config.
PolicyValueNet model_or_fresh(const Game& game, const std::string& path, uint64_t seed) {
  const ModelIdentity id = ModelIdentity::of(game);
  if (path.empty()) return make_model(ModelConfig{}, id, seed);
  return load_checkpoint(path, &id).model;
}

void bench_nn(const std::string& variant, const std::string& model_path, const std::string& device_name,
              int threads, double seconds) {
  const Game& game = game_by_id(variant);
  PolicyValueNet model = model_or_fresh(game, model_path, 1);
  const torch::Device device = parse_device(device_name);
  at::set_num_threads(threads);
  model->to(device);
  model->eval();
  c10::InferenceMode guard;
  const ModelIdentity& id = model->identity;
  std::cout << "model " << variant << " blocks "
            << model->config.blocks << " filters " << model->config.filters << " device " << device_name
            << " threads " << threads << std::endl;
  for (int batch : {1, 8, 32, 128, 256}) {
    const torch::Tensor x = torch::rand({batch, id.channels, id.height, id.width}).to(device);
    for (int i = 0; i < 2; ++i) model->forward(x);  // warm up
    int iters = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0.0;
    while (elapsed < seconds || iters < 3) {
      auto out = model->forward(x);
      if (device.is_cuda()) out.first.to(torch::kCPU);  // wait for the device
      ++iters;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::cout << "batch " << batch << " evals_per_s " << uint64_t(batch * iters / elapsed) << std::endl;
  }
}

}  // namespace

void add_net_commands(CLI::App& app) {
  struct ExportOptions {
    std::string variant, model, format = "torchscript", out;
    uint64_t seed = 1;
  };
  auto o = std::make_shared<ExportOptions>();
  CLI::App* ex = app.add_subcommand("export", "Export a model for other frontends");
  ex->add_option("--variant", o->variant, "Variant id")->required();
  ex->add_option("--model", o->model, "Checkpoint (default: a fresh model of the default config)");
  ex->add_option("--format", o->format, "Export format")->check(CLI::IsMember({"torchscript"}));
  ex->add_option("--out", o->out, "Output file")->required();
  ex->add_option("--seed", o->seed, "Seed of a fresh model");
  ex->callback([o] {
    const Game& game = game_by_id(o->variant);
    PolicyValueNet model = model_or_fresh(game, o->model, o->seed);
    export_torchscript(model, game, o->out);
    std::cout << "exported " << o->variant << " to " << o->out << std::endl;
  });

  struct BenchOptions {
    std::string variant = "chess", model, device = "cpu";
    int threads = 1;
    double seconds = 1.0;
  };
  auto b = std::make_shared<BenchOptions>();
  CLI::App* nn = app.get_subcommand("bench")->add_subcommand("nn", "Network evaluations/s by batch size");
  nn->add_option("--variant", b->variant, "Variant id");
  nn->add_option("--model", b->model, "Checkpoint (default: a fresh model of the default config)");
  nn->add_option("--device", b->device, "cpu or cuda:N");
  nn->add_option("--threads", b->threads, "Intra-op threads (at::set_num_threads)")->check(CLI::Range(1, 256));
  nn->add_option("--seconds", b->seconds, "Seconds per batch size")->check(CLI::Range(0.05, 600.0));
  nn->callback([b] { bench_nn(b->variant, b->model, b->device, b->threads, b->seconds); });
}

}  // namespace vzero::cli
