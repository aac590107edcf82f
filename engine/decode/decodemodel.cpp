#include "engine/decode/decodemodel.h"

#include "engine/gguf/llama2ccheckpoint.h"
#include "engine/gguf/modelfileformat.h"
#include "engine/model/ggufhyperparams.h"
#include "engine/model/ggufmodelimporter.h"
#include "engine/model/modelfileimporter.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

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

// The summary's need against the memory available: an OutOfRange error naming both, or nothing.
std::optional<Error> refusal(ModelSummary& summary, const std::string& path)
{
    summary.availableBytes = availableMemoryBytes();
    if (summary.fits())
        return std::nullopt;
    std::string what = "the model";
    if (!summary.architecture.empty())
        what += " (" + summary.architecture + ", " + std::to_string(summary.parameters) + " parameters)";
    Error e = makeError(ErrorCode::OutOfRange, what + " " + describeNeed(summary));
    e.file = path;
    return e;
}

} // namespace

Expected<DecodeModel> DecodeModel::load(const std::string& path, const LoadBudget& budget)
{
    auto format = modelFileFormat(path); // an empty file, or one of neither format, is refused here
    if (!format)
        return format.error();
    const bool isGguf = *format == ModelFileFormat::Gguf;
    // The weights are read every token: a file larger than the memory this machine has available would
    // page from disk at every step. Refuse it before anything is read or mapped.
    std::error_code ec;
    const uint64_t fileBytes = std::filesystem::file_size(path, ec);
    ModelSummary fileOnly;
    fileOnly.weightBytes = ec ? 0 : fileBytes;
    if (auto refused = refusal(fileOnly, path))
        return *refused;
    DecodeModel m;
    m.m_path = path;
    const std::optional<uint64_t> available = fileOnly.availableBytes; // as the refusal just read it
    const FileResidency residency = budget.mapWeights || (available && fileBytes > *available / 2)
                                        ? FileResidency::Mapped
                                        : FileResidency::Resident;
    if (isGguf) {
        // What the model needs (weights + KV cache at the chosen context) comes from the header alone, read
        // with plain reads: a file this machine cannot hold is refused before it is mapped.
        {
            auto header = GgufFile::readHeader(path);
            if (!header)
                return header.error();
            auto params = GgufHyperParams::read(*header);
            if (!params)
                return params.error();
            auto config = TransformerConfig::fromHyperParams(*params, *header);
            if (!config)
                return config.error();
            m.m_summary = summarizeModel(&*header, fileBytes, *config, budget.contextLength, budget.kvCacheType);
            if (auto refused = refusal(m.m_summary, path))
                return *refused;
        }
        auto file = GgufFile::open(path, residency);
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
        if (Status packed = weights->packForKernels(); !packed)
            return packed.error();
        m.m_config = std::move(*config);
        m.m_modelConfig = std::move(*modelConfig);
        m.m_weights = std::move(*weights);
        m.m_gguf = std::move(*file);
        return m;
    }
    {
        auto header = Llama2cCheckpoint::readHeader(path); // plain reads: refused before anything is mapped
        if (!header)
            return header.error();
        auto config = TransformerConfig::fromLlama2c(*header);
        if (!config)
            return config.error();
        m.m_summary = summarizeModel(nullptr, fileBytes, *config, budget.contextLength, budget.kvCacheType);
        if (auto refused = refusal(m.m_summary, path))
            return *refused;
    }
    auto checkpoint = Llama2cCheckpoint::open(path, residency);
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

bool DecodeModel::weightsResident() const
{
    return m_weights.mapping && m_weights.mapping->isResident();
}

} // namespace ws
