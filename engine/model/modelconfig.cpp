#include "engine/model/modelconfig.h"

#include <array>
#include <cctype>
#include <charconv>
#include <string_view>

namespace ws {

namespace {
constexpr std::array<std::string_view, 11> kArchitectures{
    "llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen3moe", "gemma3", "gpt-oss", "llama4", "deepseek2", "glm4moe"};

constexpr int kMaxLayers = 10000;
constexpr double kMaxParameters = 1e15;

Error shapeError(const std::string& file, const std::string& field, std::string text)
{
    Error e = makeError(ErrorCode::InvalidArgument, std::move(text), field);
    e.file = file;
    return e;
}
} // namespace

std::string importedModelId(const std::string& path)
{
    std::string stem = path.substr(path.find_last_of('/') + 1);
    if (const auto dot = stem.rfind('.'); dot != std::string::npos)
        stem = stem.substr(0, dot);
    std::string id = "import-";
    for (char ch : stem)
        id += (ch >= 'A' && ch <= 'Z')
                  ? char(ch - 'A' + 'a')
                  : ((std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-') ? ch : '-');
    return id;
}

std::string importedModelName(const std::string& ownName, const std::string& path, const std::string& fallback)
{
    const std::string file = path.substr(path.find_last_of('/') + 1);
    std::string stem = file;
    if (const auto dot = stem.rfind('.'); dot != std::string::npos && dot > 0)
        stem = stem.substr(0, dot);
    const std::string name = !ownName.empty() ? ownName : (!fallback.empty() ? fallback : stem);
    const auto lower = [](std::string s) {
        for (char& ch : s)
            ch = char(std::tolower(static_cast<unsigned char>(ch)));
        return s;
    };
    if (file.empty() || lower(file).find(lower(name)) != std::string::npos)
        return name;
    return name + " (" + file + ")";
}

bool isKnownArchitecture(const std::string& architecture)
{
    for (const auto a : kArchitectures)
        if (a == architecture)
            return true;
    return false;
}

int64_t ModelConfig::kvTokens(int layer, int64_t context) const
{
    if (slidingWindow <= 0)
        return context;
    const bool global = globalLayerPeriod > 0 && (layer + 1) % globalLayerPeriod == 0;
    return global ? context : std::min<int64_t>(context, slidingWindow);
}

Status validateModelConfig(ModelConfig& c, const std::string& file)
{
    const struct
    {
        const char* name;
        int value;
    } positive[] = {{"layers", c.layers},           {"hiddenSize", c.hiddenSize}, {"headCount", c.headCount},
                    {"kvHeadCount", c.kvHeadCount}, {"vocabSize", c.vocabSize},   {"moeLayerStep", c.moeLayerStep}};
    for (const auto& p : positive)
        if (p.value <= 0)
            return shapeError(file, p.name, "must be greater than zero, got " + std::to_string(p.value));
    if (!isKnownArchitecture(c.architecture))
        return shapeError(file, "architecture", "unknown architecture '" + c.architecture + "'");
    if (c.headDim < 0)
        return shapeError(file, "headDim", "must not be negative, got " + std::to_string(c.headDim));
    if (c.kvLoraRank < 0 || c.qLoraRank < 0 || c.qkNopeHeadDim < 0 || c.qkRopeHeadDim < 0 || c.vHeadDim < 0 ||
        c.denseLayersFirst < 0 || c.mtpLayers < 0)
        return shapeError(file, "fields", "latent-attention widths, dense layers and MTP layers must not be negative");
    if (c.isMla()) {
        if (c.qkNopeHeadDim <= 0 || c.qkRopeHeadDim <= 0 || c.vHeadDim <= 0)
            return shapeError(file, "kvLoraRank",
                              "latent attention needs qkNopeHeadDim, qkRopeHeadDim and vHeadDim above zero");
        const int qk = c.qkNopeHeadDim + c.qkRopeHeadDim;
        if (c.headDim == 0)
            c.headDim = qk;
        if (c.headDim != qk)
            return shapeError(file, "headDim",
                              "with latent attention headDim is qkNopeHeadDim + qkRopeHeadDim (" + std::to_string(qk) +
                                  "), got " + std::to_string(c.headDim));
    } else if (c.qLoraRank > 0 || c.qkNopeHeadDim > 0 || c.qkRopeHeadDim > 0 || c.vHeadDim > 0) {
        return shapeError(file, "kvLoraRank", "latent-attention widths need kvLoraRank above zero");
    }
    if (c.denseLayersFirst > c.layers)
        return shapeError(file, "denseLayersFirst",
                          "must be at most layers (" + std::to_string(c.layers) + "), got " +
                              std::to_string(c.denseLayersFirst));
    if (c.headDim == 0) {
        if (c.hiddenSize % c.headCount != 0)
            return shapeError(file, "headCount",
                              std::to_string(c.headCount) + " heads do not divide hiddenSize " +
                                  std::to_string(c.hiddenSize) + " and no headDim is given");
        c.headDim = c.hiddenSize / c.headCount;
    }
    if (c.headCount % c.kvHeadCount != 0)
        return shapeError(file, "kvHeadCount",
                          std::to_string(c.kvHeadCount) + " KV heads do not divide " + std::to_string(c.headCount) +
                              " query heads");
    if (c.expertCount < 0 || c.expertsPerToken < 0 || c.expertFfnSize < 0 || c.sharedExpertCount < 0 ||
        c.sharedExpertFfnSize < 0 || c.slidingWindow < 0 || c.globalLayerPeriod < 0 || c.normsPerLayer < 0)
        return shapeError(file, "fields", "expert, window and norm counts must not be negative");
    if (c.expertCount > 0) {
        if (c.expertsPerToken <= 0 || c.expertsPerToken > c.expertCount)
            return shapeError(file, "expertsPerToken",
                              "must be from 1 to expertCount (" + std::to_string(c.expertCount) + "), got " +
                                  std::to_string(c.expertsPerToken));
        if (c.expertFfnSize <= 0)
            return shapeError(file, "expertFfnSize", "must be greater than zero for a mixture-of-experts model");
    }
    // Dense FFN is needed unless every layer is MoE.
    const bool anyDense = c.expertCount == 0 || c.moeLayerStep > 1 || c.denseLayersFirst > 0;
    if (anyDense && c.ffnSize <= 0)
        return shapeError(file, "ffnSize", "must be greater than zero, got " + std::to_string(c.ffnSize));
    if (c.ffnSize < 0)
        return shapeError(file, "ffnSize", "must not be negative");
    if (c.contextLength < 0)
        return shapeError(file, "contextLength", "must not be negative");
    // A preset or config.json is a user's file. Bounds far above any published model (about 130 layers,
    // 2e12 parameters) keep every count ModelShape makes inside int64_t and its tensor list small (2e9 layers
    // asked for gigabytes of tensor list before anything was placed).
    if (c.layers > kMaxLayers)
        return shapeError(file, "layers",
                          "must be at most " + std::to_string(kMaxLayers) + ", got " + std::to_string(c.layers));
    const double hidden = c.hiddenSize;
    const double ffnWidth = double(c.ffnSize) + double(c.expertCount) * c.expertFfnSize +
                            double(c.sharedExpertCount) * c.sharedFfn() + c.expertCount;
    const double perLayer = hidden * (2.0 * double(c.qDim()) + 2.0 * double(c.kvDim())) + 3.0 * hidden * ffnWidth;
    const double parameters = double(c.layers + c.mtpLayers) * perLayer + 2.0 * double(c.vocabSize) * hidden;
    if (parameters > kMaxParameters) {
        char about[32];
        const auto end = std::to_chars(about, about + sizeof about, parameters, std::chars_format::scientific, 1).ptr;
        return shapeError(file, "fields",
                          "the sizes give about " + std::string(about, end) + " parameters; at most 1e15 are read");
    }
    return Ok{};
}

} // namespace ws
