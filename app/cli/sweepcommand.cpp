// waferscope-cli sweep, sweep-merge and optimize: the design-space sweep of a wafer layout (one or two
// parameters, --shard I/N), the merge of its shards, and the layout optimiser (engine/explore/layoutsweep.h,
// layoutoptimizer.h). The engine does the work and the formatting; these only parse and print.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/layoutfile.h"
#include "app/common/presetlibrary.h"

#include "engine/explore/layoutoptimizer.h"
#include "engine/explore/layoutsweep.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonObject>

#include <cstdio>

namespace ws::cli {

namespace {
void addBaseOptions(QCommandLineParser& parser)
{
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("model"), QStringLiteral("Model preset id, config.json or .gguf file."),
         QStringLiteral("PRESET|FILE")},
        {QStringLiteral("hardware"), QStringLiteral("Wafer preset id (wse2, wse3)."), QStringLiteral("PRESET")},
        {QStringLiteral("precision"),
         QStringLiteral("fp32, bf16, fp16, fp8, int8, int4 or fp4 (default: the model's)."), QStringLiteral("P")},
        {QStringLiteral("context"), QStringLiteral("Tokens in the KV cache (default 4096)."), QStringLiteral("N")},
        {QStringLiteral("batch"), QStringLiteral("Concurrent requests (default 1)."), QStringLiteral("B")},
    });
}

// The model, hardware and workload of a sweep or an optimisation; nullopt after printing the error.
std::optional<ScenarioSpec> baseFrom(const QCommandLineParser& parser, const QString& command)
{
    if (!parser.isSet(QStringLiteral("model")) || !parser.isSet(QStringLiteral("hardware"))) {
        fail(QStringLiteral("%1: --model and --hardware are required").arg(command));
        return std::nullopt;
    }
    const auto context = intOption(parser, QStringLiteral("context"), 4096, 1, 100000000);
    const auto batch = intOption(parser, QStringLiteral("batch"), 1, 1, 1000000);
    if (!context || !batch)
        return std::nullopt;
    const PresetLibrary library;
    auto model = library.resolveModel(parser.value(QStringLiteral("model")));
    auto hardware = library.hardware(parser.value(QStringLiteral("hardware")));
    if (!model || !hardware) {
        fail(QString::fromStdString((!model ? model.error() : hardware.error()).message()));
        return std::nullopt;
    }
    if (hardware->kind != HardwareKind::Wafer) {
        fail(QStringLiteral("%1 needs wafer hardware (wse2, wse3)").arg(command));
        return std::nullopt;
    }
    ScenarioSpec b;
    b.model = *model;
    b.hardware = *hardware;
    b.workload.precision = model->nativePrecision;
    if (parser.isSet(QStringLiteral("precision"))) {
        const auto p = parsePrecision(parser.value(QStringLiteral("precision")).toStdString());
        if (!p) {
            fail(QStringLiteral("--precision must be fp32, bf16, fp16, fp8, int8, int4 or fp4"));
            return std::nullopt;
        }
        b.workload.precision = *p;
    }
    b.workload.contextTokens = *context;
    b.workload.concurrency = int(*batch);
    return b;
}
} // namespace

int runSweep(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sweep one or two layout parameters (fill, context, precision, "
                                                    "wafers, concurrency, order, aspect, hop-latency)."));
    addBaseOptions(parser);
    parser.addOptions({
        {QStringLiteral("param"), QStringLiteral("NAME=V1,V2,... or NAME=LO:HI:STEP; once or twice."),
         QStringLiteral("SPEC")},
        {QStringLiteral("shard"), QStringLiteral("Run only part I of N (contiguous points); merge with sweep-merge."),
         QStringLiteral("I/N")},
        {QStringLiteral("csv"), QStringLiteral("Print CSV (default).")},
        {QStringLiteral("json"), QStringLiteral("Print JSON.")},
    });
    if (!parseArgs(parser, QStringLiteral("sweep"), args))
        return kExitBadInput;
    std::vector<SweepAxis> axes;
    for (const QString& spec : parser.values(QStringLiteral("param"))) {
        auto axis = parseSweepAxis(spec.toStdString());
        if (!axis)
            return fail(QString::fromStdString(axis.error().text));
        axes.push_back(*axis);
    }
    if (axes.empty() || axes.size() > 2)
        return fail(QStringLiteral("sweep: give --param once or twice"));
    int shard = 1, shards = 1;
    if (parser.isSet(QStringLiteral("shard"))) {
        const QStringList parts = parser.value(QStringLiteral("shard")).split(QLatin1Char('/'));
        bool ok1 = false, ok2 = false;
        if (parts.size() == 2) {
            shard = parts[0].toInt(&ok1);
            shards = parts[1].toInt(&ok2);
        }
        if (!ok1 || !ok2 || shards < 1 || shard < 1 || shard > shards)
            return fail(QStringLiteral("--shard must be I/N with 1 <= I <= N, got '%1'")
                            .arg(parser.value(QStringLiteral("shard"))));
    }
    const auto base = baseFrom(parser, QStringLiteral("sweep"));
    if (!base)
        return kExitBadInput;
    auto result = runSweep(*base, axes, shard, shards);
    if (!result)
        return fail(QString::fromStdString(result.error().text));
    const std::string text = parser.isSet(QStringLiteral("json")) ? sweepJson(*result) : sweepCsv(*result);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
}

int runSweepMerge(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Merge the shards of one sweep (CSV or JSON) into the whole sweep."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("The shards' outputs, in any order."));
    if (!parseArgs(parser, QStringLiteral("sweep-merge"), args, true))
        return kExitBadInput;
    std::vector<std::string> shards;
    for (const QString& path : parser.positionalArguments()) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("%1: cannot open: %2").arg(path, f.errorString()));
        shards.push_back(f.readAll().toStdString());
    }
    auto merged = mergeSweeps(shards);
    if (!merged)
        return fail(QString::fromStdString(merged.error().text));
    std::fwrite(merged->data(), 1, merged->size(), stdout);
    return kExitOk;
}

int runOptimize(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Search region shapes, layer order and fill for the lowest time "
                                                    "per token under the SRAM limit and a wafer budget."));
    addBaseOptions(parser);
    parser.addOptions({
        {QStringLiteral("max-wafers"), QStringLiteral("Wafer budget (default: the default placement's)."),
         QStringLiteral("N")},
        {QStringLiteral("layout-out"), QStringLiteral("Write the best layout to FILE."), QStringLiteral("FILE")},
        {QStringLiteral("json"), QStringLiteral("Print JSON.")},
    });
    if (!parseArgs(parser, QStringLiteral("optimize"), args))
        return kExitBadInput;
    const auto maxWafers = intOption(parser, QStringLiteral("max-wafers"), 0, 1, 100000);
    if (!maxWafers)
        return kExitBadInput;
    const auto base = baseFrom(parser, QStringLiteral("optimize"));
    if (!base)
        return kExitBadInput;
    OptimizeOptions options;
    options.maxWafers = int(*maxWafers);
    auto r = optimizeLayout(*base, options);
    if (!r)
        return fail(QString::fromStdString(r.error().text));
    if (parser.isSet(QStringLiteral("layout-out"))) {
        QString error;
        if (!writeLayoutFile(parser.value(QStringLiteral("layout-out")), r->best, &error))
            return fail(error);
    }
    if (!parser.isSet(QStringLiteral("json"))) {
        std::printf(
            "default: %.4f ms per token on %d wafers\nbest:    %.4f ms per token on %d wafers (%s order, fill %.2f)\n"
            "%d candidates\n",
            r->defaultMsPerToken, r->defaultWafers, r->bestMsPerToken, r->bestWafers, layerOrderId(r->best.order),
            r->best.weightFill, r->candidates);
        return kExitOk;
    }
    printJson(QJsonObject{{QStringLiteral("model"), QString::fromStdString(base->model.id)},
                          {QStringLiteral("hardware"), QString::fromStdString(base->hardware.id)},
                          {QStringLiteral("default_ms_per_token"), r->defaultMsPerToken},
                          {QStringLiteral("best_ms_per_token"), r->bestMsPerToken},
                          {QStringLiteral("default_wafers"), r->defaultWafers},
                          {QStringLiteral("best_wafers"), r->bestWafers},
                          {QStringLiteral("best_order"), QString::fromLatin1(layerOrderId(r->best.order))},
                          {QStringLiteral("best_weight_fill"), r->best.weightFill},
                          {QStringLiteral("candidates"), r->candidates}});
    return kExitOk;
}

} // namespace ws::cli
