#include "engine/model/modelfileimporter.h"

#include "engine/gguf/gguffile.h"
#include "engine/gguf/llama2ccheckpoint.h"
#include "engine/gguf/modelfileformat.h"
#include "engine/model/ggufhyperparams.h"
#include "engine/model/ggufmodelimporter.h"

namespace ws {

Expected<ModelConfig> importLlama2cModel(const Llama2cHeader& header, const std::string& path)
{
    const GgufHyperParams defaults; // the same RMS epsilon and RoPE base a GGUF file without them gets
    ModelConfig c;
    c.id = importedModelId(path);
    c.name = importedModelName({}, path); // the file's name without its extension
    c.architecture = "llama";
    c.layers = header.layerCount;
    c.hiddenSize = header.dim;
    c.ffnSize = header.hiddenDim;
    c.headCount = header.headCount;
    c.kvHeadCount = header.kvHeadCount;
    c.headDim = header.headCount > 0 ? header.headSize() : 0;
    c.vocabSize = header.vocabSize;
    c.tiedEmbeddings = header.sharedClassifier;
    c.contextLength = header.seqLen;
    c.rmsNormEps = double(defaults.rmsNormEps);
    c.ropeTheta = double(defaults.ropeFreqBase);
    c.nativePrecision = Precision::Fp32;
    for (const char* field : {"layers", "hiddenSize", "ffnSize", "headCount", "kvHeadCount", "headDim", "vocabSize",
                              "tiedEmbeddings", "contextLength"})
        c.sources[field] = "llama2.c header: " + path;
    if (auto s = validateModelConfig(c, path); !s)
        return s.error();
    return c;
}

Expected<ModelConfig> importModelFile(const std::string& path)
{
    auto format = modelFileFormat(path); // an empty file, or one of neither format, is refused here
    if (!format)
        return format.error();
    if (*format == ModelFileFormat::Gguf)
        return importGgufModel(path);
    auto checkpoint = Llama2cCheckpoint::open(path);
    if (!checkpoint)
        return checkpoint.error();
    return importLlama2cModel(checkpoint->header(), path);
}

} // namespace ws
