// The caching CPU tensor allocator (net/tensor_allocator.h): freed blocks come back for the same
// size class, small and odd sizes work, many threads share it, and a network gives the same
// outputs through it.

#include <c10/core/CPUAllocator.h>
#include <torch/torch.h>

#include <atomic>
#include <limits>
#include <thread>
#include <vector>

#include "game/builtin/games.h"
#include "net/model.h"
#include "net/tensor_allocator.h"
#include "net_test_util.h"

// glog (through LibTorch) defines CHECK; Catch's must win.
#undef CHECK
#include <catch.hpp>

using namespace vzero;

TEST_CASE("net: the tensor allocator hands a freed block out again for the same size class",
          "[net][allocator]") {
  install_tensor_allocator();
  install_tensor_allocator();     // a second call changes nothing
  const int64_t floats = 100000;  // 400 KB, past kMinCachedBytes
  void* first = nullptr;
  {
    torch::Tensor t = torch::empty({floats});
    first = t.data_ptr();
    REQUIRE(reinterpret_cast<uintptr_t>(first) % 64 == 0);
  }
  const TensorAllocatorStats before = tensor_allocator_stats();
  CHECK(before.cached_bytes >= floats * 4);
  {
    // A slightly smaller request falls in the same class.
    torch::Tensor t = torch::empty({floats - 100});
    CHECK(t.data_ptr() == first);
    t.fill_(3.0f);
    CHECK(t.sum().item<float>() == 3.0f * float(floats - 100));
  }
  const TensorAllocatorStats after = tensor_allocator_stats();
  CHECK(after.reused == before.reused + 1);
  CHECK(after.fresh == before.fresh);

  // Small tensors (not cached), an empty one, and sizes around the class edges all work.
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(1000), int64_t(kMinCachedBytes / 4 - 1),
                    int64_t(kMinCachedBytes / 4), int64_t(kMinCachedBytes / 4 + 1),
                    int64_t(1) << 20, (int64_t(1) << 20) + 1, (int64_t(3) << 20) - 1}) {
    torch::Tensor t = torch::arange(n, torch::kFloat32);
    REQUIRE(t.numel() == n);
    if (n > 0) CHECK(t[n - 1].item<float>() == float(n - 1));
    CHECK(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64 == 0);
  }
}

TEST_CASE("net: the tensor allocator refuses a size it cannot hold", "[net][allocator]") {
  install_tensor_allocator();
  // A request near SIZE_MAX must fail cleanly, not wrap around to a small block.
  CHECK_THROWS(c10::GetCPUAllocator()->allocate(std::numeric_limits<size_t>::max() - 8));
  CHECK_THROWS(torch::empty({int64_t(1) << 61}, torch::kFloat32));
}

TEST_CASE("net: the tensor allocator is shared safely by many threads", "[net][allocator]") {
  install_tensor_allocator();
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&wrong, k] {
      for (int i = 0; i < 300; ++i) {
        const int64_t n = 5000 + 997 * ((i * 7 + k) % 40);
        torch::Tensor a = torch::full({n}, float(k + 1));
        torch::Tensor b = torch::full({n}, float(i));
        const double sum = (a + b).sum().item<double>();
        if (sum != double(n) * (k + 1 + i)) ++wrong;
      }
    });
  for (std::thread& t : threads) t.join();
  CHECK(wrong == 0);
  CHECK(tensor_allocator_stats().reused > 0);
}

TEST_CASE("net: a network's outputs do not depend on what reused blocks held before",
          "[net][allocator]") {
  install_tensor_allocator();
  const Game& game = game_by_id("losalamos");
  auto model = vzero::testing::small_model(game);
  torch::NoGradGuard no_grad;
  const torch::Tensor x = vzero::testing::inputs(game, vzero::testing::sample_states(game, 64, 5));
  const NetOutput first = model->forward(x);
  const torch::Tensor policy = first.policy.clone(), values = first.values.clone();
  // Another batch fills the cached blocks with other numbers; then the first again.
  model->forward(torch::randn_like(x) * 10.0);
  const NetOutput again = model->forward(x);
  CHECK(torch::equal(again.policy, policy));
  CHECK(torch::equal(again.values, values));
}
