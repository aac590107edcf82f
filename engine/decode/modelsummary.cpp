#include "engine/decode/modelsummary.h"

#include "engine/decode/runstate.h"
#include "engine/gguf/gguffile.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ws {

ModelSummary summarizeModel(const GgufFile* gguf, uint64_t fileBytes, const TransformerConfig& config, int context,
                            KvCacheType kvType)
{
    ModelSummary s;
    s.weightBytes = fileBytes;
    s.trainedContext = config.contextLength;
    s.context = context > 0 ? std::min(context, std::max(1, config.contextLength)) : 0;
    s.kvCacheType = kvType;
    s.kvCacheBytes = kvCacheBytes(config, s.context, kvType);
    if (gguf) {
        const Expected<std::string_view> architecture = gguf->getString("general.architecture");
        s.architecture = architecture ? std::string(*architecture) : std::string("unknown");
        std::map<std::string, TensorTypeShare> byType;
        for (const GgufTensorInfo& t : gguf->tensors()) {
            s.parameters += t.elementCount();
            TensorTypeShare& share = byType[ggmlTypeName(t.type)];
            share.type = ggmlTypeName(t.type);
            ++share.tensors;
            share.bytes += t.sizeBytes;
        }
        for (auto& [name, share] : byType)
            s.types.push_back(share);
    } else {
        s.architecture = "llama2.c";
        s.parameters = fileBytes / sizeof(float); // an F32 checkpoint: the header is a few bytes
        s.types.push_back({"F32", 0, fileBytes});
    }
    std::stable_sort(s.types.begin(), s.types.end(),
                     [](const TensorTypeShare& a, const TensorTypeShare& b) { return a.bytes > b.bytes; });
    return s;
}

std::string formatBytes(uint64_t bytes)
{
    std::ostringstream out;
    out << std::fixed;
    if (bytes < 1'000'000'000ull) {
        out.precision(bytes < 10'000'000ull ? 1 : 0);
        out << double(bytes) / 1e6 << " MB";
    } else {
        out.precision(bytes >= 10'000'000'000ull ? 0 : 1);
        out << double(bytes) / 1e9 << " GB";
    }
    return out.str();
}

std::string describeNeed(const ModelSummary& s)
{
    std::string text = "needs " + formatBytes(s.neededBytes()) + " of memory (weights " + formatBytes(s.weightBytes);
    if (s.context > 0)
        text += " + KV cache " + formatBytes(s.kvCacheBytes) + " for " + std::to_string(s.context) + " tokens, " +
                kvCacheTypeName(s.kvCacheType);
    text += ")";
    if (s.availableBytes)
        text += std::string(s.fits() ? "; this machine has " : ", but this machine has ") +
                formatBytes(*s.availableBytes) + " available";
    return text;
}

} // namespace ws
