// waferscope-cli render: draws the heatmap of a scenario (or a model on a
// wafer preset) offscreen with the app's MeshView and writes PNG or SVG; with
// --compose, the figure File > Export Figure… writes (views/mesh/meshfigure.h:
// every wafer, the legend beside them, a title and a source line) at a page
// size in millimetres and a DPI.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/scenariooptions.h"
#include "app/common/presetlibrary.h"
#include "app/export/exporter.h"
#include "app/export/figureexport.h"
#include "app/scenario/scenarioformat.h"
#include "app/scenario/scenarioscene.h"
#include "views/mesh/meshview.h"

#include <QFileInfo>
#include <QJsonObject>

namespace ws::cli {

namespace {

// --compose: the figure of the scene, all wafers unless --device; --width/--height (pixels) set the page at the DPI.
int writeFigure(const QCommandLineParser& parser, const ScenarioScene& scene, const Scenario& scenario,
                const QString& out, QString& error)
{
    const MeshSnapshot& snapshot = *scene.snapshot;
    views::MeshFigureOptions options =
        FigureExport::defaults(scene.spec, snapshot, scenario.layer, ExportStamp().generator);
    const auto dpi = doubleOption(parser, QStringLiteral("dpi"), options.dpi, views::MeshFigureOptions::kMinDpi,
                                  views::MeshFigureOptions::kMaxDpi);
    if (!dpi)
        return kExitBadInput;
    options.dpi = *dpi;
    const double minMm = views::MeshFigureOptions::kMinMm;
    const double maxMm = views::MeshFigureOptions::kMaxMm;
    auto widthMm = doubleOption(parser, QStringLiteral("width-mm"), options.sizeMm.width(), minMm, maxMm);
    auto heightMm = widthMm ? doubleOption(parser, QStringLiteral("height-mm"), options.sizeMm.height(), minMm, maxMm)
                            : std::nullopt;
    if (!heightMm)
        return kExitBadInput;
    const double mmPerPixel = views::MeshFigureOptions::kMmPerInch / options.dpi;
    if (parser.isSet(QStringLiteral("width")))
        widthMm = parser.value(QStringLiteral("width")).toDouble() * mmPerPixel;
    if (parser.isSet(QStringLiteral("height")))
        heightMm = parser.value(QStringLiteral("height")).toDouble() * mmPerPixel;
    if (*widthMm < minMm || *widthMm > maxMm || *heightMm < minMm || *heightMm > maxMm)
        return fail(QStringLiteral("the page must be %1 to %2 mm on each side at %3 dpi")
                        .arg(minMm)
                        .arg(maxMm)
                        .arg(options.dpi));
    options.sizeMm = QSizeF(*widthMm, *heightMm);
    if (parser.isSet(QStringLiteral("device"))) {
        const auto device = intOption(parser, QStringLiteral("device"), 0, 0, std::max(0, snapshot.deviceCount - 1));
        if (!device)
            return kExitBadInput;
        options.device = int(*device);
    }
    const views::MeshFigure figure(std::make_shared<const MeshFrame>(MeshFrame{scene.snapshot, {}, {}}), options);
    views::MeshFigureSvgStats stats;
    if (!FigureExport::write(figure, out, ExportStamp::forScenario(ScenarioFormat::toJson(scenario)), &error, &stats))
        return fail(error);
    if (parser.isSet(QStringLiteral("json"))) {
        const QSize px = figure.options().pixelSize();
        QJsonObject o{{"out", out},
                      {"compose", true},
                      {"dpi", figure.options().dpi},
                      {"width_mm", figure.options().sizeMm.width()},
                      {"height_mm", figure.options().sizeMm.height()},
                      {"width", px.width()},
                      {"height", px.height()},
                      {"pixels_per_core", figure.pixelsPerCore()},
                      {"layer", QString::fromLatin1(meshLayerId(scenario.layer))},
                      {"wafers_drawn", int(figure.layout().devices.size())},
                      {"devices", snapshot.deviceCount},
                      {"model", QString::fromStdString(scene.model().id)},
                      {"hardware", QString::fromStdString(scene.hardware().id)}};
        if (QFileInfo(out).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0)
            o.insert(QStringLiteral("svg"), QJsonObject{{"vector_wafers", stats.vectorWafers},
                                                        {"raster_wafers", stats.rasterWafers},
                                                        {"rects", double(stats.rects)},
                                                        {"largest_image_width", stats.largestImage.width()},
                                                        {"largest_image_height", stats.largestImage.height()}});
        printJson(o);
    }
    return kExitOk;
}

} // namespace

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
    parser.addOption({QStringLiteral("compose"),
                      QStringLiteral("Compose a figure: every wafer (or --device), the legend beside them, a title "
                                     "and a source line.")});
    parser.addOption(
        {QStringLiteral("dpi"), QStringLiteral("With --compose: dots per inch (default 300)."), QStringLiteral("n")});
    parser.addOption({QStringLiteral("width-mm"),
                      QStringLiteral("With --compose: page width in mm (default 338.7, a 16:9 slide)."),
                      QStringLiteral("mm")});
    parser.addOption({QStringLiteral("height-mm"), QStringLiteral("With --compose: page height in mm (default 190.5)."),
                      QStringLiteral("mm")});
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
    if (layer == MeshLayer::Links || layer == MeshLayer::Values)
        return fail(QStringLiteral("render: the %1 layer is a mesh engine run's picture; the window draws it (View > "
                                   "Layer), `execute --json` prints its numbers")
                        .arg(QLatin1String(meshLayerId(layer))));

    const PresetLibrary presets;
    const auto scene = ScenarioScene::build(scenario, presets, loaded->baseDir, &error);
    if (!scene)
        return fail(error);
    const auto device = intOption(parser, QStringLiteral("device"), scenario.viewDevice, 0,
                                  std::max(0, scene->snapshot->deviceCount - 1));
    if (!device)
        return kExitBadInput;

    if (parser.isSet(QStringLiteral("compose")))
        return writeFigure(parser, *scene, scenario, out, error);

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
