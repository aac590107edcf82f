#pragma once
// Imports a transformer's shape from a Hugging Face config.json: llama,
// mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma3 (fields nested under
// "text_config"), gpt_oss and llama4 (text_config). The keys differ per
// family (num_local_experts vs num_experts, moe_intermediate_size,
// intermediate_size_mlp, interleave_moe_layer_step, sliding_window_pattern,
// attention_chunk_size ...); family facts that a config does not state (Qwen2's
// q/k/v biases, Qwen3's and Gemma3's q/k norms, Gemma3's four norms per layer,
// gpt-oss's sinks and expert biases) come from the family's modelling code.
// The result is validated like a preset; every field's source names the file.

#include "engine/core/error.h"
#include "engine/model/modelconfig.h"

#include <string>
#include <string_view>

namespace ws {

Expected<ModelConfig> importHfConfig(std::string_view jsonText, const std::string& fileName);

} // namespace ws
