#include "app/cli/specoptions.h"

#include "app/cli/cliutil.h"
#include "app/common/presetlibrary.h"

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/precision.h"

namespace ws::cli {

namespace {

constexpr const char* kPrecisionChoices = "fp32, bf16, fp16, fp8, int8, int4 or fp4";

// The hardware presets `which` accepts, for the help and the error: the wafers, or every preset.
QStringList hardwareIds(const PresetLibrary& library, SpecOptions which)
{
    QStringList ids;
    for (const QString& id : library.hardwareIds()) {
        auto h = library.hardware(id);
        if (h && (which.testFlag(SpecOption::AnyHardware) || h->kind == HardwareKind::Wafer))
            ids << id;
    }
    return ids;
}

// --name's value as one of the ids `parse` knows, or nullopt after "--name must be <choices>, got '<value>'".
template <typename T, typename Parse>
std::optional<T> choiceOption(const QCommandLineParser& parser, const QString& name, T fallback, const char* choices,
                              Parse parse)
{
    if (!parser.isSet(name))
        return fallback;
    const QString value = parser.value(name);
    if (const std::optional<T> parsed = parse(value.toStdString()))
        return *parsed;
    fail(QStringLiteral("--%1 must be %2, got '%3'").arg(name, QLatin1String(choices), value));
    return std::nullopt;
}

std::optional<KvPlacement> parseKv(std::string_view id)
{
    if (id == "shift")
        return KvPlacement::Shift;
    if (id == "concat")
        return KvPlacement::Concat;
    return std::nullopt;
}

} // namespace

void addSpecOptions(QCommandLineParser& parser, SpecOptions which)
{
    const ScenarioSpec d; // the defaults
    const PresetLibrary library;
    auto add = [&](SpecOption option, const QString& name, const QString& help, const QString& value = {}) {
        if (which.testFlag(option))
            parser.addOption(value.isEmpty() ? QCommandLineOption(name, help) : QCommandLineOption(name, help, value));
    };
    add(SpecOption::Model, QStringLiteral("model"), QStringLiteral("Model preset id, config.json or .gguf file."),
        QStringLiteral("PRESET|FILE"));
    add(SpecOption::Hardware, QStringLiteral("hardware"),
        QStringLiteral("Hardware preset id (%1).").arg(hardwareIds(library, which).join(QStringLiteral(", "))),
        QStringLiteral("PRESET"));
    add(SpecOption::Devices, QStringLiteral("devices"),
        QStringLiteral("Wafers, GPUs or chips (default: the fewest that hold the model)."), QStringLiteral("N"));
    add(SpecOption::Precision, QStringLiteral("precision"),
        QStringLiteral("%1 (default: the model's).").arg(QLatin1String(kPrecisionChoices)), QStringLiteral("P"));
    add(SpecOption::Context, QStringLiteral("context"),
        QStringLiteral("Tokens in the KV cache while decoding (default %1).").arg(d.workload.contextTokens),
        QStringLiteral("N"));
    add(SpecOption::Batch, QStringLiteral("batch"),
        QStringLiteral("Concurrent requests (default %1).").arg(d.workload.concurrency), QStringLiteral("B"));
    add(SpecOption::Lengths, QStringLiteral("prompt-tokens"),
        QStringLiteral("Prompt length for the time to first token (default %1).").arg(d.workload.promptTokens),
        QStringLiteral("N"));
    add(SpecOption::Lengths, QStringLiteral("output-tokens"),
        QStringLiteral("Answer length (default %1).").arg(d.workload.outputTokens), QStringLiteral("N"));
    add(SpecOption::Defects, QStringLiteral("defect-rate"),
        QStringLiteral("Fraction of dead cores on each wafer, 0 to 0.5 (default 0)."), QStringLiteral("R"));
    add(SpecOption::Defects, QStringLiteral("seed"),
        QStringLiteral("Seed for the defect maps (default %1; wafer i draws with seed + i).").arg(d.defects.seed),
        QStringLiteral("S"));
    add(SpecOption::Kv, QStringLiteral("kv"), QStringLiteral("Wafer KV cache placement: shift (default) or concat."),
        QStringLiteral("MODE"));
    add(SpecOption::Experts, QStringLiteral("experts"),
        QStringLiteral("Wafer MoE layers: blocks (default; each expert on its own block of the layer's cores) or "
                       "sliced (every expert cut across all of them, so all work for the active experts)."),
        QStringLiteral("L"));
    add(SpecOption::Layout, QStringLiteral("strategy"), QStringLiteral("pipelined (default) or tensor-parallel."),
        QStringLiteral("S"));
    add(SpecOption::Layout, QStringLiteral("weight-fill"),
        QStringLiteral("Weight fill fraction phi_w per core (default %1).").arg(d.weightFill), QStringLiteral("F"));
    add(SpecOption::Layout, QStringLiteral("order"),
        QStringLiteral("Layer order on the mesh: snake (default), row-major or column-major."), QStringLiteral("O"));
    add(SpecOption::Layout, QStringLiteral("bands"),
        QStringLiteral("Bands of layer regions per wafer (region aspect; default: the squarest)."),
        QStringLiteral("N"));
}

std::optional<ScenarioSpec> specFromOptions(const QCommandLineParser& parser, const QString& command, SpecOptions which)
{
    ScenarioSpec spec;
    for (const char* required : {"model", "hardware"})
        if (!parser.isSet(QLatin1String(required))) {
            fail(QStringLiteral("%1: --%2 is required").arg(command, QLatin1String(required)));
            return std::nullopt;
        }
    const PresetLibrary library;
    auto model = library.resolveModel(parser.value(QStringLiteral("model")));
    if (!model) {
        fail(QStringLiteral("%1: %2").arg(command, QString::fromStdString(model.error().message())));
        return std::nullopt;
    }
    auto hardware = library.hardware(parser.value(QStringLiteral("hardware")));
    if (!hardware) {
        fail(QStringLiteral("%1: %2").arg(command, QString::fromStdString(hardware.error().message())));
        return std::nullopt;
    }
    if (hardware->kind != HardwareKind::Wafer && !which.testFlag(SpecOption::AnyHardware)) {
        fail(QStringLiteral("%1 needs wafer hardware (%2); '%3' is a %4")
                 .arg(command, hardwareIds(library, which).join(QStringLiteral(", ")),
                      QString::fromStdString(hardware->id), QLatin1String(hardwareKindId(hardware->kind))));
        return std::nullopt;
    }
    spec.model = std::move(*model);
    spec.hardware = std::move(*hardware);

    Workload& w = spec.workload;
    // An option the command does not take keeps its default (and is not asked of the parser, which would warn).
    auto integer = [&](SpecOption o, const char* name, long long fallback, long long lo, long long hi) {
        return which.testFlag(o) ? intOption(parser, QLatin1String(name), fallback, lo, hi)
                                 : std::optional<long long>(fallback);
    };
    auto number = [&](SpecOption o, const char* name, double fallback, double lo, double hi) {
        return which.testFlag(o) ? doubleOption(parser, QLatin1String(name), fallback, lo, hi)
                                 : std::optional<double>(fallback);
    };
    auto choice = [&](SpecOption o, const char* name, auto fallback, const char* choices, auto parse) {
        return which.testFlag(o) ? choiceOption(parser, QLatin1String(name), fallback, choices, parse)
                                 : std::optional<decltype(fallback)>(fallback);
    };
    const auto devices = integer(SpecOption::Devices, "devices", spec.devices, 1, 1000000);
    const auto precision =
        choice(SpecOption::Precision, "precision", spec.model.nativePrecision, kPrecisionChoices, parsePrecision);
    const auto context = integer(SpecOption::Context, "context", w.contextTokens, 1, 100000000);
    const auto batch = integer(SpecOption::Batch, "batch", w.concurrency, 1, 1000000);
    const auto prompt = integer(SpecOption::Lengths, "prompt-tokens", w.promptTokens, 1, 100000000);
    const auto output = integer(SpecOption::Lengths, "output-tokens", w.outputTokens, 1, 100000000);
    const auto rate = number(SpecOption::Defects, "defect-rate", spec.defects.rate, 0.0, 0.5);
    const auto seed = integer(SpecOption::Defects, "seed", (long long)spec.defects.seed, 0, 4294967295LL);
    const auto kv = choice(SpecOption::Kv, "kv", spec.kv, "shift or concat", parseKv);
    const auto strategy =
        choice(SpecOption::Layout, "strategy", spec.strategy, "pipelined or tensor-parallel", parsePlacementStrategy);
    const auto experts = choice(SpecOption::Experts, "experts", spec.experts, "blocks or sliced", parseExpertLayout);
    const auto fill = number(SpecOption::Layout, "weight-fill", spec.weightFill, 0.01, 1.0);
    const auto order =
        choice(SpecOption::Layout, "order", spec.order, "snake, row-major or column-major", parseLayerOrder);
    const auto bands = integer(SpecOption::Layout, "bands", spec.bandsPerDevice, 1, 100000);
    if (!devices || !precision || !context || !batch || !prompt || !output || !rate || !seed || !kv || !strategy ||
        !experts || !fill || !order || !bands)
        return std::nullopt;
    spec.devices = int(*devices);
    w.precision = *precision;
    w.contextTokens = *context;
    w.concurrency = int(*batch);
    w.promptTokens = *prompt;
    w.outputTokens = *output;
    spec.defects.rate = *rate;
    spec.defects.seed = uint64_t(*seed);
    spec.kv = *kv;
    spec.strategy = *strategy;
    spec.experts = *experts;
    spec.weightFill = *fill;
    spec.order = *order;
    spec.bandsPerDevice = int(*bands);
    return spec;
}

} // namespace ws::cli
