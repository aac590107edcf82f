// Hugging Face config.json files (`--model config.json`, Model > Import): importHfConfig reads one into a model
// config or gives an error. An accepted config is sized as every prediction sizes it (ModelShape: parameters,
// bytes, KV cache), so a config the reader lets through cannot overflow what comes after.
#include "engine/model/hfconfigimporter.h"
#include "engine/model/modelshape.h"

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto config = ws::importHfConfig(text, "fuzz/config.json");
    if (!config)
        return 0;
    const ws::ModelShape shape(*config);
    if (shape.totalParameters() <= 0 || shape.activeParameters() > shape.totalParameters())
        std::abort();
    for (ws::Precision p : {ws::Precision::Fp32, ws::Precision::Bf16, ws::Precision::Int4})
        (void)shape.totalBytes(p);
    (void)shape.bytesReadPerToken(config->nativePrecision);
    (void)shape.kvBytes(config->contextLength, 2);
    return 0;
}
