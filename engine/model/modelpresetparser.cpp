#include "engine/model/modelpresetparser.h"

#include "engine/core/presetreader.h"

namespace ws {

Expected<ModelConfig> parseModelPreset(std::string_view jsonText, const std::string& fileName)
{
    using Need = PresetReader::Need;
    using Bound = PresetReader::Bound;
    constexpr Need kReq = Need::Required;
    constexpr Need kOpt = Need::Optional;

    PresetReader r(jsonText, fileName, "model");
    if (!r.ok())
        return r.error();
    ModelConfig c;
    c.id = r.id();
    c.name = r.name();
    c.architecture = r.topString("architecture", kReq);
    r.integer("layers", c.layers, kReq, Bound::Positive);
    r.integer("hiddenSize", c.hiddenSize, kReq, Bound::Positive);
    r.integer("ffnSize", c.ffnSize, kOpt, Bound::NonNegative);
    r.integer("headCount", c.headCount, kReq, Bound::Positive);
    r.integer("kvHeadCount", c.kvHeadCount, kReq, Bound::Positive);
    r.integer("headDim", c.headDim, kOpt, Bound::Positive);
    r.integer("vocabSize", c.vocabSize, kReq, Bound::Positive);
    r.integer("kvLoraRank", c.kvLoraRank, kOpt, Bound::NonNegative);
    r.integer("qLoraRank", c.qLoraRank, kOpt, Bound::NonNegative);
    r.integer("qkNopeHeadDim", c.qkNopeHeadDim, kOpt, Bound::NonNegative);
    r.integer("qkRopeHeadDim", c.qkRopeHeadDim, kOpt, Bound::NonNegative);
    r.integer("vHeadDim", c.vHeadDim, kOpt, Bound::NonNegative);
    r.boolean("tiedEmbeddings", c.tiedEmbeddings, kOpt);
    r.boolean("attentionBias", c.attentionBias, kOpt);
    r.boolean("attentionOutputBias", c.attentionOutputBias, kOpt);
    r.boolean("qkNorm", c.qkNorm, kOpt);
    r.boolean("attentionSinks", c.attentionSinks, kOpt);
    r.integer("normsPerLayer", c.normsPerLayer, kOpt, Bound::NonNegative);
    r.integer("expertCount", c.expertCount, kOpt, Bound::NonNegative);
    r.integer("expertsPerToken", c.expertsPerToken, kOpt, Bound::NonNegative);
    r.integer("expertFfnSize", c.expertFfnSize, kOpt, Bound::NonNegative);
    r.integer("sharedExpertCount", c.sharedExpertCount, kOpt, Bound::NonNegative);
    r.integer("sharedExpertFfnSize", c.sharedExpertFfnSize, kOpt, Bound::NonNegative);
    r.integer("moeLayerStep", c.moeLayerStep, kOpt, Bound::Positive);
    r.integer("denseLayersFirst", c.denseLayersFirst, kOpt, Bound::NonNegative);
    r.integer("mtpLayers", c.mtpLayers, kOpt, Bound::NonNegative);
    r.boolean("expertBias", c.expertBias, kOpt);
    r.boolean("routerBias", c.routerBias, kOpt);
    r.integer("slidingWindow", c.slidingWindow, kOpt, Bound::NonNegative);
    r.integer("globalLayerPeriod", c.globalLayerPeriod, kOpt, Bound::NonNegative);
    r.integer64("contextLength", c.contextLength, kReq, Bound::Positive);
    r.number("ropeTheta", c.ropeTheta, kOpt, Bound::Positive);
    r.number("rmsNormEps", c.rmsNormEps, kOpt, Bound::Positive);
    std::string precision;
    r.text("precision", precision, kOpt);
    if (r.ok() && !precision.empty()) {
        const auto p = parsePrecision(precision);
        if (!p)
            r.fail(ErrorCode::InvalidArgument, "precision",
                   "unknown precision '" + precision + "' (expected fp32, bf16, fp16, fp8, int8, int4 or fp4)");
        else
            c.nativePrecision = *p;
    }
    r.rejectUnknownFields();
    if (!r.ok())
        return r.error();
    c.sources = r.sources();
    if (auto s = validateModelConfig(c, fileName); !s)
        return s.error();
    return c;
}

} // namespace ws
