// ONNX export: one or a few ONNX nodes per layer of the layer list.
#include "net/spec/onnx_writer.h"

#include <onnx/onnx_pb.h>

#include <cstring>

#include "net/spec/export_info.h"
#include "util/error.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ONNX raw_data is little-endian");

namespace vzero {

namespace {

// WdlValues: softmax(logits) [B, 3] times this [3, 2] matrix gives (W - L, L - W).
const float kWdlToValues[6] = {1.0f, -1.0f, 0.0f, 0.0f, -1.0f, 1.0f};

class OnnxGraph {
 public:
  explicit OnnxGraph(onnx::GraphProto& g) : g_(g) {}

  // A float initializer.
  void initializer(const std::string& name, const std::vector<int64_t>& shape, const float* data,
                   size_t n) {
    onnx::TensorProto* t = g_.add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto_DataType_FLOAT);
    size_t count = 1;
    for (int64_t d : shape) t->add_dims(d), count *= size_t(d);
    check(count == n, "weight '" + name + "' has the wrong size");
    t->set_raw_data(std::string(reinterpret_cast<const char*>(data), n * sizeof(float)));
  }
  // A 1-d int64 initializer (shapes, axes, gather indices).
  void initializer_ints(const std::string& name, const std::vector<int64_t>& values) {
    onnx::TensorProto* t = g_.add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto_DataType_INT64);
    t->add_dims(int64_t(values.size()));
    t->set_raw_data(
        std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t)));
  }
  // A node with its inputs and one output; attributes are added to what it returns.
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::string& output) {
    onnx::NodeProto* n = g_.add_node();
    n->set_op_type(op);
    n->set_name(output);
    for (const std::string& in : inputs) n->add_input(in);
    n->add_output(output);
    return *n;
  }
  static void ints(onnx::NodeProto& n, const std::string& name,
                   const std::vector<int64_t>& values) {
    onnx::AttributeProto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto_AttributeType_INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  static void integer(onnx::NodeProto& n, const std::string& name, int64_t value) {
    onnx::AttributeProto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto_AttributeType_INT);
    a->set_i(value);
  }
  // A float tensor value (graph input or output) of shape [batch, dims...].
  static void value(onnx::ValueInfoProto* v, const std::string& name,
                    const std::vector<int64_t>& dims) {
    v->set_name(name);
    onnx::TypeProto_Tensor* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto_DataType_FLOAT);
    onnx::TensorShapeProto* shape = t->mutable_shape();
    shape->add_dim()->set_dim_param("batch");
    for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  }

 private:
  onnx::GraphProto& g_;
};

// The ONNX operator of an element-wise layer.
const char* elementwise_op(LayerKind kind) {
  switch (kind) {
    case LayerKind::Relu:
      return "Relu";
    case LayerKind::Tanh:
      return "Tanh";
    case LayerKind::Softplus:
      return "Softplus";
    default:
      return "Add";
  }
}

const FloatTensor& weight(const Weights& w, const std::string& name) {
  const auto it = w.find(name);
  check(it != w.end(), "weight '" + name + "' is missing");
  return it->second;
}

}  // namespace

void write_onnx(const NetworkGraph& graph, const Weights& weights,
                const std::vector<std::pair<std::string, std::string>>& metadata,
                const std::string& graph_name, const std::string& path) {
  onnx::ModelProto model;
  model.set_ir_version(kOnnxIrVersion);
  model.set_producer_name("vzero");
  model.set_producer_version(vzero_version());
  onnx::OperatorSetIdProto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(kOnnxOpset);
  for (const auto& [key, value] : metadata) {
    onnx::StringStringEntryProto* p = model.add_metadata_props();
    p->set_key(key);
    p->set_value(value);
  }
  onnx::GraphProto& g = *model.mutable_graph();
  g.set_name(graph_name);
  OnnxGraph b(g);
  OnnxGraph::value(g.add_input(), "input", {graph.channels, graph.height, graph.width});

  // Each layer's output value: the output's name for outputs, the layer's name otherwise.
  std::vector<std::string> names;
  for (const Layer& l : graph.layers) names.push_back(l.name);
  for (const NetworkOutput& o : graph.outputs) names[size_t(o.layer)] = o.name;
  const auto param = [&](const std::string& name) {
    const FloatTensor& t = weight(weights, name);
    b.initializer(name, t.shape, t.data.data(), t.data.size());
    return name;
  };
  bool wdl_matrix = false, bias_axes = false;
  for (size_t i = 0; i < graph.layers.size(); ++i) {
    const Layer& l = graph.layers[i];
    std::vector<std::string> in;
    for (int k : l.inputs) in.push_back(k == kNetworkInput ? "input" : names[size_t(k)]);
    const std::string& out = names[i];
    switch (l.kind) {
      case LayerKind::Conv: {
        std::vector<std::string> inputs = {in[0], param(l.name + ".weight")};
        if (l.bias) inputs.push_back(param(l.name + ".bias"));
        onnx::NodeProto& n = b.node("Conv", inputs, out);
        const int64_t pad = l.kernel / 2;
        OnnxGraph::ints(n, "kernel_shape", {l.kernel, l.kernel});
        OnnxGraph::ints(n, "pads", {pad, pad, pad, pad});
        OnnxGraph::ints(n, "strides", {1, 1});
        break;
      }
      case LayerKind::BatchNorm:
        throw Error("ONNX export: batch norm '" + l.name + "' was not folded");
      case LayerKind::Relu:
      case LayerKind::Tanh:
      case LayerKind::Softplus:
      case LayerKind::Add:
        b.node(elementwise_op(l.kind), in, out);
        break;
      case LayerKind::GlobalPool:
        b.node("GlobalAveragePool", in, out + "/mean");
        b.node("GlobalMaxPool", in, out + "/max");
        OnnxGraph::integer(b.node("Concat", {out + "/mean", out + "/max"}, out + "/cat"), "axis",
                           1);
        OnnxGraph::integer(b.node("Flatten", {out + "/cat"}, out), "axis", 1);
        break;
      case LayerKind::ChannelBias:
        if (!bias_axes) b.initializer_ints("channel_bias_axes", {2, 3});
        bias_axes = true;
        b.node("Unsqueeze", {in[1], "channel_bias_axes"}, out + "/bias");
        b.node("Add", {in[0], out + "/bias"}, out);
        break;
      case LayerKind::Flatten:
        OnnxGraph::integer(b.node("Flatten", in, out), "axis", 1);
        break;
      case LayerKind::Linear:
        OnnxGraph::integer(
            b.node("Gemm", {in[0], param(l.name + ".weight"), param(l.name + ".bias")}, out),
            "transB", 1);
        break;
      case LayerKind::Gather:
        b.initializer_ints(l.name + ".index", l.index);
        OnnxGraph::integer(b.node("Flatten", in, out + "/flat"), "axis", 1);
        OnnxGraph::integer(b.node("Gather", {out + "/flat", l.name + ".index"}, out), "axis", 1);
        break;
      case LayerKind::WdlValues:
        if (!wdl_matrix) b.initializer("wdl_to_values", {3, 2}, kWdlToValues, 6);
        wdl_matrix = true;
        OnnxGraph::integer(b.node("Softmax", in, out + "/probabilities"), "axis", 1);
        b.node("MatMul", {out + "/probabilities", "wdl_to_values"}, out);
        break;
    }
  }
  for (const NetworkOutput& o : graph.outputs) {
    OnnxGraph::value(g.add_output(), o.name, {o.width});
    g.mutable_output()->rbegin()->set_doc_string(o.meaning);
  }
  std::string bytes;
  check(model.SerializeToString(&bytes), "cannot serialize the ONNX model of '" + path + "'");
  write_file_atomically(path, bytes, "ONNX model");
}

}  // namespace vzero
