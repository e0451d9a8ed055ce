// Growing a network into a larger one with the same function (net/spec/grow.h).
#include "net/spec/grow.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "game/zobrist.h"
#include "util/error.h"

namespace vzero {

namespace {

// What each output entry (channel or feature) of a layer of the grown network copies from the
// layer list it grew from.
struct Sources {
  bool added = false;   // the layer is new: its outputs copy nothing
  std::vector<int> of;  // per entry, the entry of the old layer it copies
  int old_size = 0;     // entries of the old layer

  static Sources identity(int n) {
    Sources s;
    s.old_size = n;
    for (int i = 0; i < n; ++i) s.of.push_back(i);
    return s;
  }
  bool same(const Sources& o) const { return old_size == o.old_size && of == o.of; }
};

class Grower {
 public:
  Grower(const NetworkGraph& from, const Weights& from_w, const NetworkGraph& to,
         const Weights& fresh, uint64_t seed)
      : from_(from), from_w_(from_w), to_(to), fresh_(fresh), state_(seed) {
    for (size_t i = 0; i < from.layers.size(); ++i) from_index_[from.layers[i].name] = int(i);
  }

  Weights run() {
    check(from_.channels == to_.channels && from_.height == to_.height && from_.width == to_.width,
          "the grown network reads other input planes than the one it grows from");
    size_t matched = 0;
    for (size_t i = 0; i < to_.layers.size(); ++i) {
      const Layer& l = to_.layers[i];
      const auto old = from_index_.find(l.name);
      const bool has_weights = !NetworkGraph::parameters(l).empty();
      if (has_weights && old == from_index_.end()) {
        sources_.push_back(added(l));
        continue;
      }
      if (has_weights) ++matched;
      sources_.push_back(has_weights ? copied(l, from_.layers[size_t(old->second)])
                                     : weightless(l));
    }
    size_t old_with_weights = 0;
    for (const Layer& l : from_.layers) old_with_weights += !NetworkGraph::parameters(l).empty();
    check(matched == old_with_weights,
          "the grown network lacks layers of the one it grows from (only blocks and filters may "
          "grow)");
    return std::move(out_);
  }

 private:
  const FloatTensor& get(const Weights& w, const std::string& name) const {
    const auto it = w.find(name);
    check(it != w.end(), "weight '" + name + "' is missing");
    return it->second;
  }

  double uniform() { return double(splitmix64(state_) >> 11) * 0x1.0p-53; }

  // Entries 0..old-1 copy themselves, each added one a random old entry; one draw per pair of
  // widths, so every layer of a width agrees (the tower's residual sums need that).
  const std::vector<int>& widening(int old_n, int new_n) {
    check(new_n >= old_n, "a layer of the grown network is narrower than the one it grows from");
    auto [it, fresh] = widenings_.try_emplace({old_n, new_n});
    if (fresh) {
      for (int i = 0; i < new_n; ++i)
        it->second.push_back(i < old_n ? i : int(splitmix64(state_) % uint64_t(old_n)));
    }
    return it->second;
  }

  // Per input entry, the share of its old weight it takes: random, summing to 1 over the copies
  // of each old entry (1 exactly for an entry with no copies).
  std::vector<double> shares(const Sources& in) {
    std::vector<double> draw(in.of.size()), total(size_t(in.old_size), 0.0);
    for (size_t j = 0; j < draw.size(); ++j) {
      draw[j] = 0.5 + uniform();
      total[size_t(in.of[j])] += draw[j];
    }
    for (size_t j = 0; j < draw.size(); ++j) draw[j] /= total[size_t(in.of[j])];
    return draw;
  }

  const Sources& input(int index) const {
    return index == kNetworkInput ? network_input_ : sources_[size_t(index)];
  }

  Sources added(const Layer& l) {
    for (const std::string& name : NetworkGraph::parameters(l)) out_[name] = get(fresh_, name);
    Sources s;
    s.added = true;
    return s;
  }

  // A layer with weights that the old network has: its weights gathered from the old ones.
  Sources copied(const Layer& l, const Layer& old) {
    check(l.kind == old.kind && l.kernel == old.kernel && l.bias == old.bias,
          "layer '" + l.name + "' is not the same kind of layer as in the network it grows from");
    const Sources& in = input(l.inputs[0]);
    check(!in.added, "layer '" + l.name + "' would read an added layer");
    if (l.kind == LayerKind::BatchNorm) {
      check(old.out == in.old_size && l.out == int(in.of.size()),
            "layer '" + l.name + "' reads other inputs than in the network it grows from");
      for (const char* p : {".weight", ".bias", ".running_mean", ".running_var"})
        out_[l.name + p] = gathered(get(from_w_, l.name + p), in.of);
      return in;
    }
    // Conv [out, in, k, k] or Linear [out, in].
    check(old.in == in.old_size && l.in == int(in.of.size()),
          "layer '" + l.name + "' reads other inputs than in the network it grows from");
    Sources s;
    s.old_size = old.out;
    s.of = widening(old.out, l.out);
    const FloatTensor& w = get(from_w_, l.name + ".weight");
    const size_t per = size_t(l.kind == LayerKind::Conv ? l.kernel * l.kernel : 1);
    check(w.data.size() == size_t(old.out) * size_t(old.in) * per,
          "weight '" + l.name + ".weight' has the wrong size");
    const std::vector<double> share = shares(in);
    FloatTensor grown = w;
    grown.shape[0] = l.out;
    grown.shape[1] = l.in;
    grown.data.assign(size_t(l.out) * size_t(l.in) * per, 0.0f);
    for (size_t o = 0; o < size_t(l.out); ++o)
      for (size_t c = 0; c < size_t(l.in); ++c) {
        const float* src = &w.data[(size_t(s.of[o]) * size_t(old.in) + size_t(in.of[c])) * per];
        float* dst = &grown.data[(o * size_t(l.in) + c) * per];
        for (size_t k = 0; k < per; ++k) dst[k] = float(double(src[k]) * share[c]);
      }
    out_[l.name + ".weight"] = std::move(grown);
    if (l.bias || l.kind == LayerKind::Linear)
      out_[l.name + ".bias"] = gathered(get(from_w_, l.name + ".bias"), s.of);
    return s;
  }

  static FloatTensor gathered(const FloatTensor& t, const std::vector<int>& of) {
    FloatTensor g;
    g.shape = {int64_t(of.size())};
    for (int i : of) {
      check(size_t(i) < t.data.size(), "a weight has the wrong size");
      g.data.push_back(t.data[size_t(i)]);
    }
    return g;
  }

  // A layer without weights: its entries follow from its inputs'.
  Sources weightless(const Layer& l) {
    const Sources& a = input(l.inputs[0]);
    switch (l.kind) {
      case LayerKind::Relu:
      case LayerKind::Tanh:
      case LayerKind::Softplus:
        return a;
      case LayerKind::Add:
      case LayerKind::ChannelBias: {
        const Sources& b = input(l.inputs[1]);
        if (a.added && b.added) return a;
        if (l.kind == LayerKind::Add && (a.added || b.added)) {
          zero_branch(l.inputs[a.added ? 0 : 1], l.name);
          return a.added ? b : a;
        }
        check(!a.added && !b.added && a.same(b),
              "the inputs of '" + l.name + "' would not copy the same channels");
        return a;
      }
      case LayerKind::GlobalPool: {
        if (a.added) return a;
        Sources s;
        s.old_size = 2 * a.old_size;
        for (int half = 0; half < 2; ++half)
          for (int i : a.of) s.of.push_back(i + half * a.old_size);
        return s;
      }
      case LayerKind::Flatten: {
        if (a.added) return a;
        const int area = to_.height * to_.width;
        Sources s;
        s.old_size = a.old_size * area;
        for (int c : a.of)
          for (int q = 0; q < area; ++q) s.of.push_back(c * area + q);
        return s;
      }
      case LayerKind::Gather:
      case LayerKind::WdlValues:
        check(!a.added && a.same(Sources::identity(a.old_size)),
              "layer '" + l.name + "' would read grown channels");
        return Sources::identity(l.kind == LayerKind::Gather ? int(l.index.size()) : 2);
      default:
        throw Error("layer '" + l.name + "' cannot be grown");
    }
  }

  // An added residual branch starts at 0: the batch norm that ends it gets scale and shift 0.
  void zero_branch(int index, const std::string& sum) {
    const Layer& l = to_.layers[size_t(index)];
    check(l.kind == LayerKind::BatchNorm,
          "the added branch of '" + sum + "' does not end in a batch norm");
    for (const char* p : {".weight", ".bias"})
      for (float& v : out_[l.name + p].data) v = 0.0f;
  }

  const NetworkGraph& from_;
  const Weights& from_w_;
  const NetworkGraph& to_;
  const Weights& fresh_;
  uint64_t state_;
  std::map<std::string, int> from_index_;
  std::map<std::pair<int, int>, std::vector<int>> widenings_;
  std::vector<Sources> sources_;
  Sources network_input_ = Sources::identity(to_.channels);
  Weights out_;
};

}  // namespace

void check_growable(const ModelConfig& from, const ModelConfig& to) {
  check(to.blocks >= from.blocks, "a grown network cannot have fewer blocks (" +
                                      std::to_string(to.blocks) + " < " +
                                      std::to_string(from.blocks) + ")");
  check(to.filters >= from.filters, "a grown network cannot have fewer filters (" +
                                        std::to_string(to.filters) + " < " +
                                        std::to_string(from.filters) + ")");
  ModelConfig same = to;
  same.blocks = from.blocks;
  same.filters = from.filters;
  check(same.to_text() == from.to_text(),
        "only [model] blocks and filters can grow; the other fields must stay as they are");
}

Weights grow_weights(const NetworkGraph& from, const Weights& from_weights, const NetworkGraph& to,
                     const Weights& fresh_weights, uint64_t seed) {
  return Grower(from, from_weights, to, fresh_weights, seed).run();
}

}  // namespace vzero
