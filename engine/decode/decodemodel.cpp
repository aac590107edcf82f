#include "engine/decode/decodemodel.h"

#include "engine/gguf/llama2ccheckpoint.h"
#include "engine/model/ggufhyperparams.h"
#include "engine/model/ggufmodelimporter.h"
#include "engine/model/modelfileimporter.h"

namespace ws {

Expected<DecodeModel> DecodeModel::load(const std::string& path)
{
    auto isGguf = isGgufFile(path);
    if (!isGguf)
        return isGguf.error();
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
