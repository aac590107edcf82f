// waferscope-cli render: draws the heatmap of a scenario (or a model on a
// wafer preset) offscreen with the app's MeshView and writes PNG or SVG.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/scenariooptions.h"
#include "app/common/presetlibrary.h"
#include "app/export/exporter.h"
#include "app/scenario/scenarioformat.h"
#include "app/scenario/scenarioscene.h"
#include "views/mesh/meshview.h"

#include <QFileInfo>
#include <QJsonObject>

namespace ws::cli {

int runRender(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Draw a scenario's heatmap to a PNG or SVG file."));
    addScenarioOptions(parser);
    parser.addOption({QStringLiteral("layer"), QStringLiteral("sram, placement, kv, dataflow or defects."),
                      QStringLiteral("layer")});
    parser.addOption({QStringLiteral("device"), QStringLiteral("Wafer to draw (0-based)."), QStringLiteral("n")});
    parser.addOption(
        {QStringLiteral("width"), QStringLiteral("Image width in pixels (default 1600)."), QStringLiteral("w")});
    parser.addOption(
        {QStringLiteral("height"), QStringLiteral("Image height in pixels (default 1000)."), QStringLiteral("h")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Output file: .png or .svg."), QStringLiteral("file")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print what was written as JSON.")});
    parser.addHelpOption();
    if (!parseArgs(parser, QStringLiteral("render"), args))
        return kExitBadInput;

    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty())
        return fail(QStringLiteral("--out FILE.png|FILE.svg is required"));
    const QString suffix = QFileInfo(out).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return fail(QStringLiteral("--out must end in .png or .svg, got '%1'").arg(out));
    const auto width = intOption(parser, QStringLiteral("width"), 1600, 16, 16384);
    const auto height = width ? intOption(parser, QStringLiteral("height"), 1000, 16, 16384) : std::nullopt;
    if (!height)
        return kExitBadInput;

    QString error;
    auto loaded = scenarioFromOptions(parser, &error);
    if (!loaded)
        return fail(error);
    Scenario& scenario = loaded->scenario;
    if (parser.isSet(QStringLiteral("layer"))) {
        const QString id = parser.value(QStringLiteral("layer"));
        const auto chosen = meshLayerFromId(id.toStdString());
        if (!chosen)
            return fail(QStringLiteral("--layer must be sram, placement, kv, dataflow or defects, got '%1'").arg(id));
        scenario.layer = *chosen;
    }
    const MeshLayer layer = scenario.layer;

    const PresetLibrary presets;
    const auto scene = ScenarioScene::build(scenario, presets, loaded->baseDir, &error);
    if (!scene)
        return fail(error);
    const auto device = intOption(parser, QStringLiteral("device"), scenario.viewDevice, 0,
                                  std::max(0, scene->snapshot->deviceCount - 1));
    if (!device)
        return kExitBadInput;

    views::MeshView view;
    view.resize(int(*width), int(*height));
    view.setSnapshot(scene->snapshot);
    view.setLayer(layer);
    view.setDevice(int(*device));
    // The scenario's view: zoom 1 with centre (0, 0) means fitted and centred (the default).
    if (scenario.zoom != 1.0 || !scenario.center.isNull())
        view.setViewState(scenario.zoom, scenario.center);
    const ExportStamp stamp = ExportStamp::forScenario(ScenarioFormat::toJson(scenario));
    const bool ok = suffix == QLatin1String("svg")
                        ? Exporter::saveSvg(&view, out, QString::fromStdString(scene->model().name), &error, stamp)
                        : Exporter::savePng(&view, out, 1.0, &error, stamp);
    if (!ok)
        return fail(error);
    if (parser.isSet(QStringLiteral("json")))
        printJson(QJsonObject{{"out", out},
                              {"width", int(*width)},
                              {"height", int(*height)},
                              {"layer", QString::fromLatin1(meshLayerId(layer))},
                              {"device", int(*device)},
                              {"devices", scene->snapshot->deviceCount},
                              {"model", QString::fromStdString(scene->model().id)},
                              {"hardware", QString::fromStdString(scene->hardware().id)}});
    return kExitOk;
}

} // namespace ws::cli
