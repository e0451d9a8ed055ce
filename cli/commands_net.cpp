// vzero export | grow | bench nn: TorchScript and ONNX export, growing a
// model into a larger one, and the inference ceiling.
#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "game/builtin/games.h"
#include "net/checkpoint.h"
#include "net/export.h"
#include "net/grown.h"
#include "net/model.h"
#include "net/spec/server_config.h"
#include "training/run_config.h"
#include "util/error.h"

namespace vzero::cli {

namespace {

// The model of a checkpoint, or a fresh one of config.
PolicyValueNet model_or_fresh(const Game& game, const std::string& path, uint64_t seed,
                              const ModelConfig& config = {}) {
  if (path.empty()) return make_model(config, ModelIdentity::of(game, config.encoding), seed);
  return load_checkpoint_for(game, path).model;
}

struct ExportOptions {
  std::string variant, model, format = "torchscript", out, config;
  std::vector<std::string> set;
  uint64_t seed = 1;
  int golden = 0;
};

// The files of an export: the model file(s), the sidecar and the golden folder.
struct ExportPaths {
  std::string torchscript, onnx, sidecar, golden;
};

ExportPaths export_paths(const std::string& format, const std::string& out) {
  const std::filesystem::path p(out);
  const std::string stem = (p.parent_path() / p.stem()).string();
  ExportPaths paths;
  if (format == "all") {
    paths.torchscript = stem + ".ts";
    paths.onnx = stem + ".onnx";
  } else {
    (format == "onnx" ? paths.onnx : paths.torchscript) = out;
  }
  if (!paths.onnx.empty()) paths.sidecar = stem + ".json";
  check(
      paths.sidecar.empty() || (paths.sidecar != paths.onnx && paths.sidecar != paths.torchscript),
      "--out '" + out + "' would be overwritten by the sidecar (use another extension than .json)");
  paths.golden = stem + ".golden";
  return paths;
}

// vzero export: the formats asked for from one model, each with the time it took on stdout.
void export_model(const ExportOptions& o) {
  const Game& game = game_by_id(o.variant);
  const ExportPaths paths = export_paths(o.format, o.out);
  check(o.model.empty() || (o.config.empty() && o.set.empty()),
        "--config and --set shape a fresh model; the checkpoint '" + o.model + "' has its own");
  const ModelConfig fresh = read_run_config(o.config, o.set).model;
  PolicyValueNet model = model_or_fresh(game, o.model, o.seed, fresh);
  auto start = std::chrono::steady_clock::now();
  const auto done = [&](const std::string& what, const std::string& path) {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - start).count();
    start = now;
    std::cout << "exported " << o.variant << " " << what << " to " << path << " in " << s << " s"
              << std::endl;
  };
  if (!paths.torchscript.empty()) {
    export_torchscript(model, game, paths.torchscript);
    done("torchscript", paths.torchscript);
  }
  if (!paths.onnx.empty()) {
    export_onnx(model, game, paths.onnx, paths.sidecar);
    done("onnx", paths.onnx + " and " + paths.sidecar);
  }
  if (o.golden > 0) {
    write_golden(model, game, o.golden, o.seed, paths.golden);
    done("golden set of " + std::to_string(o.golden) + " positions", paths.golden);
  }
}

// GFLOP/s of one thread's fused multiply-adds: 12 independent accumulators of 16 floats
// (512 bits; the compiler splits them where the CPU has narrower vectors), each step one
// multiply-add per float, the best of several timed rounds. The fp32 peak a core reaches.
double fma_gflops_one_thread(double seconds) {
  typedef float v16 __attribute__((vector_size(64)));
  constexpr int kAcc = 12;
  constexpr int64_t kSteps = 1 << 22;
  v16 acc[kAcc];
  for (int k = 0; k < kAcc; ++k) acc[k] = v16{} + float(k) * 1e-3f;
  v16 mul = v16{} + 0.999999f, add = v16{} + 1e-7f;
  double best = 0.0, total = 0.0;
  for (int round = 0; round < 3 || total < seconds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < kSteps; ++i) {
      for (int k = 0; k < kAcc; ++k) acc[k] = acc[k] * mul + add;
      asm volatile("" : "+x"(mul), "+x"(add));  // keeps the loop from being folded away
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total += s;
    best = std::max(best, 2.0 * 16 * kAcc * double(kSteps) / s / 1e9);
  }
  float sum = 0.0f;
  for (int k = 0; k < kAcc; ++k)
    for (int j = 0; j < 16; ++j) sum += acc[k][j];
  volatile float sink = sum;  // the result is used
  (void)sink;
  return best;
}

// The fp32 peak of threads cores, GFLOP/s: the FMA loop on that many threads at once, summed.
double fma_peak_gflops(int threads, double seconds) {
  std::vector<double> rates(size_t(threads), 0.0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&rates, t, seconds] { rates[size_t(t)] = fma_gflops_one_thread(seconds); });
  for (std::thread& t : pool) t.join();
  double total = 0.0;
  for (double r : rates) total += r;
  return total;
}

// GFLOP/s of LibTorch's 1024x1024 matmul on the calling thread's intra-op threads, the best of
// several (what the library's GEMM reaches, for comparison with the peak).
double measured_peak_gflops(const torch::Device& device, double seconds) {
  constexpr int64_t n = 1024;
  const torch::Tensor a = torch::rand({n, n}).to(device), b = torch::rand({n, n}).to(device);
  torch::Tensor c = torch::mm(a, b);  // warm up
  double best = 0.0, total = 0.0;
  for (int i = 0; i < 3 || total < seconds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    c = torch::mm(a, b);
    if (device.is_cuda()) c = c.to(torch::kCPU);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total += s;
    best = std::max(best, 2.0 * double(n) * double(n) * double(n) / s / 1e9);
  }
  return best;
}

// How far a form's outputs lie from the trained model's on real positions.
struct Accuracy {
  double policy_max = 0, value_max = 0, value_mean = 0;  // absolute differences
  double top1 = 0;  // share of positions whose highest policy logit is the same action
};

Accuracy accuracy(const NetOutput& want, const NetOutput& got) {
  Accuracy a;
  a.policy_max = (want.policy - got.policy).abs().max().item<double>();
  const torch::Tensor dv = (want.values - got.values).abs();
  a.value_max = dv.max().item<double>();
  a.value_mean = dv.mean().item<double>();
  a.top1 = (want.policy.argmax(1) == got.policy.argmax(1)).to(torch::kDouble).mean().item<double>();
  return a;
}

// The number of trained parameters of model.
int64_t parameter_count(PolicyValueNet& model) {
  int64_t n = 0;
  for (const auto& p : model->parameters()) n += p.numel();
  return n;
}

// vzero bench nn: for each form, its accuracy against the model as trained on seeded positions
// of random play, then evals/s, GFLOP/s and their share of the measured fp32 peak per batch.
void bench_nn(const std::string& variant, const std::string& model_path,
              const std::string& device_name, int threads, double seconds, const std::string& form,
              const std::string& config_path, const std::vector<std::string>& set) {
  const Game& game = game_by_id(variant);
  check(model_path.empty() || (config_path.empty() && set.empty()),
        "--config and --set shape a fresh model; the checkpoint '" + model_path + "' has its own");
  PolicyValueNet trained =
      model_or_fresh(game, model_path, 1, read_run_config(config_path, set).model);
  const torch::Device device = parse_device(device_name);
  at::set_num_threads(threads);
  trained->to(device);
  trained->eval();
  // "all": the model as trained first (each form's accuracy is measured against it), then the rest.
  std::vector<std::string> forms{form == "all" ? "unfolded" : form};
  if (form == "all")
    for (const std::string& f : inference_forms())
      if (f != "unfolded") forms.push_back(f);
  const ModelIdentity& id = trained->identity;
  const double flops = trained->graph.flops_per_eval();
  std::cout << "model " << variant << " blocks " << trained->config.blocks << " filters "
            << trained->config.filters << " policy_head " << trained->config.policy_head
            << " params " << parameter_count(trained) << " device " << device_name << " threads "
            << threads << " mflop_per_eval " << flops / 1e6 << std::endl;
  const torch::Tensor golden =
      golden_inputs(game, 256, 1, trained->input_plies, trained->identity.encoding).to(device);
  NetOutput want;
  {
    c10::InferenceMode guard;
    want = trained->forward(golden);
  }
  // The peak is measured before and after the batches (the best of both: a
  // busy machine lowers either); each batch's share of it comes at the end.
  double peak = fma_peak_gflops(threads, std::min(seconds, 0.5));
  double matmul = measured_peak_gflops(device, std::min(seconds, 1.0));
  struct Row {
    std::string form;
    int batch;
    double rate;
  };
  std::vector<Row> rows;
  for (const std::string& f : forms) {
    PolicyValueNet model = inference_model(trained, f);
    c10::InferenceMode guard;
    const Accuracy a = accuracy(want, model->forward(golden));
    std::cout << "form " << f << " against unfolded on 256 positions: policy_max_diff "
              << a.policy_max << " value_max_diff " << a.value_max << " value_mean_diff "
              << a.value_mean << " top1_agreement " << a.top1 << std::endl;
    for (int batch : {1, 8, 32, 128, 256}) {
      const torch::Tensor x = torch::rand({batch, id.channels, id.height, id.width}).to(device);
      for (int i = 0; i < 3; ++i) model->forward(x);  // warm up (and let TorchScript profile)
      int iters = 0;
      const auto start = std::chrono::steady_clock::now();
      double elapsed = 0.0;
      while (elapsed < seconds || iters < 3) {
        auto out = model->forward(x);
        if (device.is_cuda()) out.policy.to(torch::kCPU);  // wait for the device
        ++iters;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      rows.push_back({f, batch, batch * iters / elapsed});
    }
  }
  peak = std::max(peak, fma_peak_gflops(threads, std::min(seconds, 0.5)));
  matmul = std::max(matmul, measured_peak_gflops(device, std::min(seconds, 1.0)));
  std::cout << "peak_fp32_gflops " << peak << " (measured: a loop of 512-bit fused multiply-adds, "
            << threads << " threads) matmul_gflops " << matmul << " (LibTorch 1024x1024 matmul)"
            << std::endl;
  for (const Row& r : rows) {
    const double gflops = r.rate * flops / 1e9;
    std::cout << "form " << r.form << " batch " << r.batch << " evals_per_s " << uint64_t(r.rate)
              << " gflops " << gflops << " of_peak " << gflops / peak << std::endl;
  }
}

struct GrowOptions {
  std::string model, out;
  int blocks = 0, filters = 0;
  uint64_t seed = 1;
};

// vzero grow: a checkpoint grown into a larger network with the same outputs (net/grown.h),
// saved as the start of a new network's training (step 0, no optimizer state) with the
// generation of the checkpoint it grew from.
void grow(const GrowOptions& o) {
  check(o.blocks > 0 || o.filters > 0, "give --blocks or --filters (or both)");
  Checkpoint in = load_checkpoint(o.model);
  ModelConfig to = in.model->config;
  if (o.blocks > 0) to.blocks = o.blocks;
  if (o.filters > 0) to.filters = o.filters;
  PolicyValueNet grown = grown_model(in.model, model_config_from_text(to.to_text()), o.seed);
  save_checkpoint(o.out, grown, 0, in.generation);
  const auto shape = [](PolicyValueNet& m) {
    return std::to_string(m->config.blocks) + "x" + std::to_string(m->config.filters) + " (" +
           std::to_string(parameter_count(m)) + " parameters, " +
           std::to_string(int64_t(m->graph.flops_per_eval() / 1e6)) + " MFLOP an evaluation)";
  };
  std::cout << "grew " << o.model << ": " << shape(in.model) << " -> " << shape(grown) << "; wrote "
            << o.out << std::endl;
}

}  // namespace

void add_net_commands(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* ex = app.add_subcommand("export", "Export a model for other frontends");
  ex->add_option("--variant", o->variant, "Variant id")->required();
  ex->add_option("--model", o->model, "Checkpoint (default: a fresh model of the [model] table)");
  ex->add_option("--config", o->config, "Run config whose [model] table shapes a fresh model");
  ex->add_option("--set", o->set, "Config override table.key=value for a fresh model (repeatable)");
  ex->add_option("--format", o->format, "torchscript, onnx (with a JSON sidecar) or all")
      ->check(CLI::IsMember({"torchscript", "onnx", "all"}));
  ex->add_option("--out", o->out,
                 "Output file; with onnx the sidecar is its name with .json, with all it is a "
                 "stem: STEM.ts, "
                 "STEM.onnx, STEM.json")
      ->required();
  ex->add_option("--seed", o->seed, "Seed of a fresh model and of the golden positions");
  ex->add_option("--golden", o->golden,
                 "Also write N positions of random play with the model's outputs to STEM.golden/")
      ->check(CLI::Range(0, 1000000));
  ex->callback([o] { export_model(*o); });

  auto g = std::make_shared<GrowOptions>();
  CLI::App* gr = app.add_subcommand(
      "grow", "Grow a model into a larger network (more blocks or filters) with the same outputs");
  gr->add_option("--model", g->model, "Checkpoint to grow")->required();
  gr->add_option("--out", g->out, "Checkpoint to write")->required();
  gr->add_option("--blocks", g->blocks, "Residual blocks of the grown network (added at the end)")
      ->check(CLI::Range(1, 64));
  gr->add_option("--filters", g->filters, "Channels of the grown tower")
      ->check(CLI::Range(1, 1024));
  gr->add_option("--seed", g->seed, "Seed of the added blocks and of the copied channels");
  gr->callback([g] { grow(*g); });

  struct BenchOptions {
    std::string variant = "chess", model, device = "cpu", form = ServerConfig{}.form, config;
    std::vector<std::string> set;
    int threads = 1;
    double seconds = 1.0;
  };
  auto b = std::make_shared<BenchOptions>();
  CLI::App* nn =
      app.get_subcommand("bench")->add_subcommand("nn", "Network evaluations/s by batch size");
  nn->add_option("--variant", b->variant, "Variant id");
  nn->add_option("--model", b->model, "Checkpoint (default: a fresh model of the default config)");
  nn->add_option("--device", b->device, "cpu or cuda:N");
  nn->add_option("--threads", b->threads, "Intra-op threads (at::set_num_threads)")
      ->check(CLI::Range(1, 256));
  nn->add_option("--seconds", b->seconds, "Seconds per batch size")->check(CLI::Range(0.05, 600.0));
  std::vector<std::string> forms = inference_forms();
  forms.push_back("all");
  nn->add_option("--form", b->form, "Inference form: " + inference_forms_text() + "; or all")
      ->check(CLI::IsMember(forms));
  nn->add_option("--config", b->config, "Run config whose [model] table shapes a fresh model");
  nn->add_option("--set", b->set, "Config override table.key=value for a fresh model (repeatable)");
  nn->callback([b] {
    bench_nn(b->variant, b->model, b->device, b->threads, b->seconds, b->form, b->config, b->set);
  });
}

}  // namespace vzero::cli
