#include "engine/decode/decodemodel.h"

#include "engine/gguf/llama2ccheckpoint.h"
#include "engine/model/ggufhyperparams.h"
#include "engine/model/ggufmodelimporter.h"
#include "engine/model/modelfileimporter.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ws {

std::optional<uint64_t> availableMemoryBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        unsigned long long kib = 0;
        if (std::sscanf(line.c_str(), "MemAvailable: %llu kB", &kib) == 1)
            return uint64_t(kib) * 1024;
    }
    return std::nullopt;
}

namespace {

std::string gigabytes(uint64_t bytes)
{
    std::ostringstream s;
    s.precision(bytes >= 10'000'000'000ull ? 0 : 1);
    s << std::fixed << double(bytes) / 1e9 << " GB";
    return s.str();
}

} // namespace

Expected<DecodeModel> DecodeModel::load(const std::string& path)
{
    auto isGguf = isGgufFile(path);
    if (!isGguf)
        return isGguf.error();
    // The weights are mapped and read every token: a file larger than the memory this machine has
    // available would page from disk at every step. Refuse it before anything is mapped.
    std::error_code ec;
    const uint64_t fileBytes = std::filesystem::file_size(path, ec);
    if (const auto available = availableMemoryBytes(); !ec && available && fileBytes > *available) {
        Error e = makeError(ErrorCode::OutOfRange, "the model needs " + gigabytes(fileBytes) +
                                                       " of memory for its weights, but this machine has " +
                                                       gigabytes(*available) + " available");
        e.file = path;
        return e;
    }
    DecodeModel m;
    m.m_path = path;
    if (*isGguf) {
        auto file = GgufFile::open(path);
        if (!file)
            return file.error();
        auto params = GgufHyperParams::read(*file);
        if (!params)
            return params.error();
        auto config = TransformerConfig::fromHyperParams(*params, *file);
        if (!config)
            return config.error();
        auto modelConfig = importGgufModel(*params, *file);
        if (!modelConfig)
            return modelConfig.error();
        auto weights = TransformerWeights::fromGguf(*file, *config);
        if (!weights)
            return weights.error();
        m.m_config = std::move(*config);
        m.m_modelConfig = std::move(*modelConfig);
        m.m_weights = std::move(*weights);
        m.m_gguf = std::move(*file);
        return m;
    }
    auto checkpoint = Llama2cCheckpoint::open(path);
    if (!checkpoint)
        return checkpoint.error();
    auto config = TransformerConfig::fromLlama2c(checkpoint->header());
    if (!config)
        return config.error();
    auto modelConfig = importLlama2cModel(checkpoint->header(), path);
    if (!modelConfig)
        return modelConfig.error();
    auto weights = TransformerWeights::fromLlama2c(*checkpoint, *config);
    if (!weights)
        return weights.error();
    m.m_config = std::move(*config);
    m.m_modelConfig = std::move(*modelConfig);
    m.m_weights = std::move(*weights);
    return m;
}

} // namespace ws
