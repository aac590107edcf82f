// waferscope-cli sweep, sweep-merge and optimize: the design-space sweep of a wafer layout (one or two
// parameters, --shard I/N), the merge of its shards, and the layout optimiser (engine/explore/layoutsweep.h,
// layoutoptimizer.h). The engine does the work and the formatting; these only parse and print.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/layoutfile.h"
#include "app/cli/specoptions.h"

#include "engine/explore/layoutoptimizer.h"
#include "engine/explore/layoutsweep.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonObject>

#include <cstdio>

namespace ws::cli {

namespace {
// The model, hardware and workload a sweep or an optimisation starts from.
constexpr SpecOptions kBaseOptions =
    SpecOption::Model | SpecOption::Hardware | SpecOption::Precision | SpecOption::Context | SpecOption::Batch;

void addBaseOptions(QCommandLineParser& parser)
{
    parser.addHelpOption();
    addSpecOptions(parser, kBaseOptions);
}
} // namespace

int runSweep(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sweep one or two layout parameters (fill, context, precision, "
                                                    "wafers, concurrency, order, aspect, hop-latency, experts)."));
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
    const auto base = specFromOptions(parser, QStringLiteral("sweep"), kBaseOptions);
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
    const auto base = specFromOptions(parser, QStringLiteral("optimize"), kBaseOptions);
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
