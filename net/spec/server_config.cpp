#include "net/spec/server_config.h"

#include <algorithm>

#include "util/error.h"
#include "util/toml_reader.h"

namespace vzero {

ServerConfig read_server_config(TomlReader& in, ServerConfig c) {
  c.max_batch = in.get_range("max_batch", c.max_batch, 1, 65536);
  c.max_wait_us = in.get_range("max_wait_us", c.max_wait_us, 0, 10000000);
  c.workers = in.get_range("workers", c.workers, 1, 64);
  c.threads_per_worker = in.get_range("threads_per_worker", c.threads_per_worker, 1, 256);
  c.cache_entries = in.get_range("cache_entries", c.cache_entries, 0, 100000000);
  c.device = in.get<std::string>("device", c.device);
  c.form = in.get<std::string>("form", c.form);
  check(is_inference_form(c.form),
        "[inference] form = '" + c.form + "': expected " + inference_forms_text());
  c.random_symmetry = in.get<bool>("random_symmetry", c.random_symmetry);
  in.finish();
  return c;
}

const std::vector<std::string>& inference_forms() {
  static const std::vector<std::string> forms = {"winograd",      "frozen", "folded",
                                                 "channels_last", "int8",   "unfolded"};
  return forms;
}

bool is_inference_form(const std::string& form) {
  const auto& forms = inference_forms();
  return std::find(forms.begin(), forms.end(), form) != forms.end();
}

std::string inference_forms_text() {
  const auto& forms = inference_forms();
  std::string text;
  for (size_t i = 0; i < forms.size(); ++i)
    text += (i == 0 ? "" : i + 1 == forms.size() ? " or " : ", ") + forms[i];
  return text;
}

bool inference_speed_key(const std::string& key) {
  return key == "max_batch" || key == "max_wait_us" || key == "workers" ||
         key == "threads_per_worker" || key == "cache_entries" || key == "device" || key == "form";
}

}  // namespace vzero
