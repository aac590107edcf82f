#include "app/compare/compareinputs.h"

#include "engine/calibration/calibrationprofile.h"
#include "engine/model/precision.h"
#include "views/charts/chartformat.h"

#include <QRegularExpression>

namespace ws {

namespace {
QString sourceOf(const std::map<std::string, std::string>& sources, const char* field)
{
    const auto it = sources.find(field);
    return it != sources.end() ? QString::fromStdString(it->second) : CompareInputs::tr("preset (no source given)");
}

QString withUnit(double value, double scale, const QString& unit)
{
    return views::formatSignificant(value / scale) + QLatin1Char(' ') + unit;
}
} // namespace

std::vector<views::ComparisonInput> CompareInputs::model(const ModelConfig& m)
{
    const QString g = QString::fromStdString(m.name);
    std::vector<views::ComparisonInput> rows;
    auto add = [&](const QString& name, const QString& value, const char* field) {
        rows.push_back({g, name, value, sourceOf(m.sources, field)});
    };
    add(tr("Layers"), QString::number(m.layers), "layers");
    add(tr("Hidden size"), QString::number(m.hiddenSize), "hiddenSize");
    add(tr("FFN size"), QString::number(m.ffnSize), "ffnSize");
    add(tr("Attention heads"), QString::number(m.headCount), "headCount");
    add(tr("KV heads"), QString::number(m.kvHeadCount), "kvHeadCount");
    if (m.isMla()) // multi-head latent attention: the cache holds the latent and a shared RoPE key
        add(tr("KV cache (latent attention)"),
            tr("%1 + %2 values per token per layer").arg(m.kvLoraRank).arg(m.qkRopeHeadDim), "kvLoraRank");
    add(tr("Vocabulary"), QString::number(m.vocabSize), "vocabSize");
    if (m.isMoe()) {
        add(tr("Experts"), QString::number(m.expertCount), "expertCount");
        add(tr("Experts per token"), QString::number(m.expertsPerToken), "expertsPerToken");
    }
    return rows;
}

std::vector<views::ComparisonInput> CompareInputs::hardware(const HardwareSpec& h, const QString& g)
{
    std::vector<views::ComparisonInput> rows;
    auto add = [&](const QString& name, const QString& value, const char* field) {
        rows.push_back({g, name, value, sourceOf(h.sources, field)});
    };
    switch (h.kind) {
    case HardwareKind::Wafer:
        add(tr("Cores (mesh)"), tr("%1 × %2").arg(h.wafer.meshCols).arg(h.wafer.meshRows), "meshCols");
        add(tr("SRAM per core"), withUnit(double(h.wafer.sramBytesPerCore), 1024, tr("KiB")), "sramBytesPerCore");
        add(tr("Clock"), withUnit(h.wafer.clockHz, 1e9, tr("GHz")), "clockHz");
        add(tr("Hop latency"), withUnit(h.wafer.hopLatencyCycles, 1, tr("cycles")), "hopLatencyCycles");
        if (h.wafer.powerWatts > 0)
            add(tr("System power"), withUnit(h.wafer.powerWatts, 1000, tr("kW")), "powerWatts");
        break;
    case HardwareKind::Gpu:
        add(tr("HBM"), withUnit(double(h.gpu.hbmBytes), 1e9, tr("GB")), "hbmBytes");
        add(tr("HBM bandwidth"), withUnit(h.gpu.hbmBandwidthBytesPerS, 1e12, tr("TB/s")), "hbmBandwidthBytesPerS");
        add(tr("BF16 dense"), withUnit(h.gpu.bf16Flops, 1e12, tr("TFLOPS")), "bf16Flops");
        add(tr("NVLink"), withUnit(h.gpu.nvlinkBandwidthBytesPerS, 1e9, tr("GB/s")), "nvlinkBandwidthBytesPerS");
        if (h.gpu.powerWatts > 0)
            add(tr("Power per GPU"), withUnit(h.gpu.powerWatts, 1, tr("W")), "powerWatts");
        break;
    case HardwareKind::Lpu:
        add(tr("SRAM per chip"), withUnit(double(h.lpu.sramBytesPerChip), 1e6, tr("MB")), "sramBytesPerChip");
        add(tr("SRAM bandwidth"), withUnit(h.lpu.sramBandwidthBytesPerS, 1e12, tr("TB/s")), "sramBandwidthBytesPerS");
        add(tr("Chip-to-chip links"), QString::number(h.lpu.c2cLinks), "c2cLinks");
        if (h.lpu.powerWatts > 0)
            add(tr("Power per chip"), withUnit(h.lpu.powerWatts, 1, tr("W")), "powerWatts");
        break;
    }
    return rows;
}

std::vector<views::ComparisonInput> CompareInputs::workload(const views::ComparisonSettings& s,
                                                            const views::ReadingSpeed& reading,
                                                            const QString& tokensPerCharacterSource)
{
    const QString g = tr("Workload");
    const QString yours = tr("your setting");
    return {
        {g, tr("Users decoding at once"), QString::number(s.workload.concurrency), yours},
        {g, tr("Context in the KV cache"), tr("%1 tokens").arg(s.workload.contextTokens), yours},
        {g, tr("Prompt"), tr("%1 tokens").arg(s.workload.promptTokens), yours},
        {g, tr("Agent workflow"),
         tr("%1 steps × %2 tokens").arg(s.workload.agentSteps).arg(s.workload.agentTokensPerStep),
         tr("your setting (default: an example, 5 rounds × 500 tokens)")},
        {g, tr("Chinese answer"), tr("%1 characters").arg(s.workload.answerCharacters),
         tr("your setting (default: an example, a 1,000-character article)")},
        {g, tr("Tokens per Chinese character"),
         tr("%1 – %2").arg(s.workload.tokensPerCharacterLow).arg(s.workload.tokensPerCharacterHigh),
         tokensPerCharacterSource},
        {g, tr("Human reading speed"),
         tr("%1 – %2 characters/min").arg(reading.charactersPerMinuteLow).arg(reading.charactersPerMinuteHigh),
         reading.source},
    };
}

views::ComparisonInput CompareInputs::profile(const Prediction& p, const QString& group)
{
    QString source = tr("engine default");
    for (const CalibrationProfile& c : shippedProfiles())
        if (c.id == p.profile)
            source = QString::fromStdString(c.source);
    return {group, tr("Calibration profile"), QString::fromStdString(p.profile), source};
}

// "NVIDIA H100 SXM5" -> "H100", "Cerebras WSE-3 (CS-3)" -> "WSE-3", "Groq LPU (GroqChip 1 / TSP v1)" -> "Groq LPU":
// bar and legend labels must fit under a bar; the full name stays in tooltips and the inputs table.
QString CompareInputs::shortName(const QString& name)
{
    QString s = name;
    s.remove(QRegularExpression(QStringLiteral("\\s*\\(.*\\)")));
    s.remove(QRegularExpression(QStringLiteral("^(NVIDIA|Cerebras|AMD)\\s+")));
    s.remove(QRegularExpression(QStringLiteral("\\s+(SXM\\d*|PCIe|HGX.*)$")));
    return s.trimmed().isEmpty() ? name : s.trimmed();
}

} // namespace ws
