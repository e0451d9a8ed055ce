// Growing a LibTorch model (net/grown.h).
#include "net/grown.h"

#include "net/spec/grow.h"
#include "util/error.h"

namespace vzero {

PolicyValueNet grown_model(PolicyValueNet& from, ModelConfig to, uint64_t seed) {
  if (to.encoding == 0) to.encoding = from->config.encoding;  // 0: the encoding `from` reads
  check_growable(from->config, to);
  PolicyValueNet grown = make_model(to, from->identity, seed);
  grown->input_plies = from->input_plies;
  const Weights w =
      grow_weights(from->graph, from->weights(), grown->graph, grown->weights(), seed);
  torch::NoGradGuard no_grad;
  const torch::Device device = from->parameters().front().device();
  for (auto& p : grown->named_parameters()) p.value().set_data(tensor_of(w.at(p.key())));
  for (auto& b : grown->named_buffers())
    if (w.count(b.key())) b.value().set_data(tensor_of(w.at(b.key())));
  grown->to(device);
  grown->train(from->is_training());
  return grown;
}

}  // namespace vzero
