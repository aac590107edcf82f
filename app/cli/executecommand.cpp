// waferscope-cli execute: one decode step executed core by core on the wafer's mesh (engine/wafer/mesh), with
// the engine's cycles beside the closed forms' per phase. A model file runs in values mode (the real weights;
// the logits compared with the dense decoder's over the prompt and --tokens generated tokens); a preset runs
// timing only, the whole token or one --layer.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/executejson.h"
#include "app/cli/specoptions.h"

#include "engine/session/chatturn.h"
#include "engine/session/generatorsessionmodel.h"
#include "engine/wafer/mesh/meshvalues.h"
#include "engine/wafer/placement/placer.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>

namespace ws::cli {

namespace {
// A preset runs timing only (the context is how many cached tokens the token attends over); a model file runs
// in values mode.
constexpr SpecOptions kExecuteOptions = SpecOption::Model | SpecOption::Hardware | SpecOption::Context;

// Above this many cores a whole token's events would take more than about 2 GB (some 3 KB per core: its
// events, links, statistics and tiles; qwen3-0.6b's whole token on wse3, 886,370 cores, took 2.7 GB), so a
// preset that large runs one layer at a time.
constexpr long long kWholeTokenCores = 600000;

long long layerCores(const Placement& p)
{
    long long n = 0;
    for (const PlacedRegion& r : p.regions)
        if (r.layer >= 0)
            n += r.rect.cores();
    return n;
}
} // namespace

int runExecute(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Execute one decode step core by core on the wafer's mesh and compare it with the closed forms."));
    parser.addHelpOption();
    addSpecOptions(parser, kExecuteOptions);
    parser.addOptions({
        {QStringLiteral("tokens"), QStringLiteral("Values mode: tokens to generate after the prompt (default 8)."),
         QStringLiteral("N")},
        {QStringLiteral("prompt"), QStringLiteral("Values mode: prompt text (default: empty, BOS only)."),
         QStringLiteral("TEXT")},
        {QStringLiteral("layer"), QStringLiteral("Execute only this layer's phases (default: the whole token)."),
         QStringLiteral("L")},
        {QStringLiteral("wafers"), QStringLiteral("At most this many wafers (default: as many as the model needs)."),
         QStringLiteral("N")},
        {QStringLiteral("json"), QStringLiteral("Print JSON.")},
    });
    if (!parseArgs(parser, QStringLiteral("execute"), args))
        return kExitBadInput;
    auto spec = specFromOptions(parser, QStringLiteral("execute"), kExecuteOptions);
    if (!spec)
        return kExitBadInput;
    const auto tokens = intOption(parser, QStringLiteral("tokens"), 8, 1, 4096);
    const auto layer = intOption(parser, QStringLiteral("layer"), -1, 0, 1 << 20);
    const auto wafers = intOption(parser, QStringLiteral("wafers"), 1024, 1, 1024);
    if (!tokens || !layer || !wafers)
        return kExitBadInput;
    const QString modelArg = parser.value(QStringLiteral("model"));
    const ModelConfig* model = &spec->model;
    const HardwareSpec* hardware = &spec->hardware;
    if (*layer >= model->layers)
        return fail(QStringLiteral("execute: layer %1 is out of range (the model has %2 layers)")
                        .arg(*layer)
                        .arg(model->layers));
    if (model->isMoe())
        return fail(QStringLiteral("execute: the mesh engine runs dense models only (this one has experts)"));
    const bool values = QFileInfo(modelArg).isFile();
    const MeshParams params = MeshParams::fromHardware(hardware->wafer);

    spec->fitSubMesh = values; // a model file's values on the smallest sub-mesh that holds it
    PlacementOptions po = placementOptions(*spec);
    po.maxDevices = int(*wafers);
    std::unique_ptr<GeneratorSessionModel> session;
    std::vector<TokenId> prompt;
    if (values) {
        GeneratorSessionModel::Options so;
        so.threads = 1;
        auto loaded = GeneratorSessionModel::load(modelArg.toStdString(), so);
        if (!loaded)
            return fail(QStringLiteral("execute: ") + QString::fromStdString(loaded.error().message()));
        session = std::move(*loaded);
        TurnRequest request;
        request.messages = {{ChatRole::User, parser.value(QStringLiteral("prompt")).toStdString()}};
        request.mode = PromptMode::Completion;
        auto ids = session->promptTokens(request);
        if (!ids)
            return fail(QStringLiteral("execute: ") + QString::fromStdString(ids.error().message()));
        prompt = *ids;
        po.contextTokens = int64_t(prompt.size()) + *tokens;
    }
    auto placement = placeModel(*model, hardware->wafer, po);
    if (!placement)
        return fail(QStringLiteral("execute: the model does not fit: ") +
                    QString::fromStdString(placement.error().message()));

    QJsonObject out;
    if (!values) {
        if (*layer < 0 && layerCores(*placement) > kWholeTokenCores)
            return fail(QStringLiteral("execute: a whole token of %1 takes %2 cores; pass --layer L")
                            .arg(modelArg)
                            .arg(layerCores(*placement)));
        MeshOptions o;
        o.context = spec->workload.contextTokens;
        o.layer = int(*layer);
        auto run = executeMeshToken(*placement, *model, params, o);
        if (!run)
            return fail(QStringLiteral("execute: ") + QString::fromStdString(run.error().message()));
        out = meshRunJson(*run);
        addCalibratedClosedForms(out, *placement, *model, hardware->wafer, spec->workload.contextTokens, int(*layer));
        out.insert(QStringLiteral("mode"), QStringLiteral("timing"));
    } else {
        auto engine = MeshValues::create(*placement, session->model(), params, int(po.contextTokens));
        if (!engine)
            return fail(QStringLiteral("execute: ") + QString::fromStdString(engine.error().message()));
        engine->setTimedLayer(int(*layer));
        float worst = 0, largest = 0;
        QJsonArray engineIds, denseIds;
        const int promptSize = int(prompt.size());
        auto last = engine->decode(prompt, int(*tokens), [&](const MeshValuesStep& step) {
            worst = std::max(worst, step.maxLogitDifference);
            largest = std::max(largest, step.maxAbsLogit);
            if (step.position + 1 >= promptSize) { // generating
                engineIds.append(int(step.engineId));
                denseIds.append(int(step.denseId));
            }
        });
        if (!last)
            return fail(QStringLiteral("execute: ") + QString::fromStdString(last.error().message()));
        out = meshRunJson(last->run);
        out.insert(QStringLiteral("mode"), QStringLiteral("values"));
        out.insert(QStringLiteral("max_logit_difference"), double(worst));
        out.insert(QStringLiteral("max_abs_logit"), double(largest));
        out.insert(QStringLiteral("engine_ids"), engineIds);
        out.insert(QStringLiteral("dense_ids"), denseIds);
        QJsonArray promptIds;
        for (TokenId id : prompt)
            promptIds.append(int(id));
        out.insert(QStringLiteral("prompt_tokens"), promptIds);
    }
    out.insert(QStringLiteral("model"), modelArg);
    out.insert(QStringLiteral("hardware"), QString::fromStdString(hardware->id));
    out.insert(QStringLiteral("layer"), int(*layer));
    out.insert(QStringLiteral("devices"), placement->deviceCount);
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(out);
        return kExitOk;
    }
    std::printf("%s on %s: %.0f cycles (%.3f us); closed forms %.0f cycles\n", qPrintable(modelArg),
                qPrintable(QString::fromStdString(hardware->id)), out.value("cycles").toDouble(),
                out.value("seconds").toDouble() * 1e6, out.value("closed_form_cycles").toDouble());
    if (values) {
        QStringList engineIds, denseIds;
        for (const auto& v : out.value("engine_ids").toArray())
            engineIds << QString::number(v.toInt());
        for (const auto& v : out.value("dense_ids").toArray())
            denseIds << QString::number(v.toInt());
        std::printf("values: max |engine - dense| logit %.3g of max |logit| %.3g; ids %s (dense %s)\n",
                    out.value("max_logit_difference").toDouble(), out.value("max_abs_logit").toDouble(),
                    qPrintable(engineIds.join(QLatin1Char(' '))), qPrintable(denseIds.join(QLatin1Char(' '))));
    }
    for (const auto& v : out.value("phases").toArray()) {
        const QJsonObject ph = v.toObject();
        std::printf("  %-14s layer %3d  engine %9.0f  closed form %9.0f\n", qPrintable(ph.value("name").toString()),
                    ph.value("layer").toInt(), ph.value("engine_cycles").toDouble(),
                    ph.value("closed_form_cycles").toDouble());
    }
    return kExitOk;
}

} // namespace ws::cli
