// waferscope-cli place: put a model on wafers and report devices and SRAM.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/layoutfile.h"
#include "app/cli/specoptions.h"

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelshape.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

namespace ws::cli {

namespace {
QString errorText(const Error& e)
{
    return QString::fromStdString(e.message());
}
} // namespace

int runPlace(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Place a model on wafers and report the devices and SRAM used."));
    parser.addHelpOption();
    addSpecOptions(parser, SpecOption::Model | SpecOption::Hardware | SpecOption::Precision | SpecOption::Context |
                               SpecOption::Defects | SpecOption::Layout | SpecOption::Experts);
    parser.addOptions({
        {QStringLiteral("layout"),
         QStringLiteral("Place exactly this layout (JSON from --layout-out, possibly edited); its precisions, context, "
                        "fill and strategy replace those options."),
         QStringLiteral("FILE")},
        {QStringLiteral("layout-out"), QStringLiteral("Write the layout placed to FILE (JSON)."),
         QStringLiteral("FILE")},
        {QStringLiteral("json"), QStringLiteral("Print JSON.")},
    });
    if (!parseArgs(parser, QStringLiteral("place"), args))
        return kExitBadInput;
    auto spec = specFromOptions(parser, QStringLiteral("place"),
                                SpecOption::Model | SpecOption::Hardware | SpecOption::Precision | SpecOption::Context |
                                    SpecOption::Defects | SpecOption::Layout | SpecOption::Experts);
    if (!spec)
        return kExitBadInput;
    const ModelConfig* model = &spec->model;
    const HardwareSpec* hardware = &spec->hardware;
    const double defectRate = spec->defects.rate;
    PlacementOptions options = placementOptions(*spec);

    const QString chosen =
        QStringLiteral("device count chosen automatically: the fewest wafers that hold every layer at weight fill %1")
            .arg(options.weightFill);
    Placement p;
    DefectSummary defectTotals;
    double hopStretch = 1.0;
    QString origin = QStringLiteral("placer");
    QString devicesChosen = QStringLiteral("automatic");
    if (parser.isSet(QStringLiteral("layout"))) {
        if (defectRate > 0)
            return fail(QStringLiteral("--layout places exactly the layout given; it cannot go around defects"));
        QString error;
        const auto layout = readLayoutFile(parser.value(QStringLiteral("layout")), &error);
        if (!layout)
            return fail(error);
        auto placed = placeLayout(*model, *hardware, *layout);
        if (!placed)
            return fail(
                QStringLiteral("%1: %2").arg(parser.value(QStringLiteral("layout")), errorText(placed.error())));
        p = std::move(*placed);
        options.choices() = p.choices();
        options.precision = p.precision;
        origin = QStringLiteral("file");
        // A layout the placer wrote and nobody edited still has the device count the placer chose.
        if (layout->origin != "placer")
            devicesChosen = QStringLiteral("layout");
    } else {
        // Every wafer gets its own seeded defect map and remap; placement uses the
        // smallest usable mesh they leave (engine/wafer/redundancy/defectplacement.h).
        auto placed = placeWithDefects(*model, hardware->wafer, options, defectRate, spec->defects.seed);
        if (!placed)
            return fail(errorText(placed.error()));
        p = std::move(placed->placement);
        p.notes.insert(p.notes.begin(), chosen.toStdString());
        defectTotals = placed->totals;
        hopStretch = placed->hopStretch();
    }
    if (parser.isSet(QStringLiteral("layout-out"))) {
        QString error;
        if (!writeLayoutFile(parser.value(QStringLiteral("layout-out")), layoutOf(p, model->id, hardware->id), &error))
            return fail(error);
    }
    const ModelShape shape(*model);
    const CoreBytes totals = p.totalBytes();

    if (!parser.isSet(QStringLiteral("json"))) {
        QString layers;
        for (int n : p.layersPerDevice)
            layers += (layers.isEmpty() ? QString() : QStringLiteral(" ")) + QString::number(n);
        std::printf("%s on %d x %s (%s, %s, context %lld)\n", model->name.c_str(), p.deviceCount, hardware->id.c_str(),
                    std::string(precisionId(options.precision)).c_str(), placementStrategyId(options.strategy),
                    static_cast<long long>(options.contextTokens));
        for (const std::string& n : p.notes)
            std::printf("%s\n", n.c_str());
        std::printf("layers per device: %s\n", qPrintable(layers));
        std::printf("SRAM used: %.2f of %.2f GB (%.1f %%)\n", double(p.sramUsedBytes()) / 1e9,
                    double(p.sramTotalBytes()) / 1e9, 100.0 * double(p.sramUsedBytes()) / double(p.sramTotalBytes()));
        std::printf("defects: %lld dead cores, %lld spares used, %lld unrepairable segments, usable mesh %d x %d\n",
                    static_cast<long long>(defectTotals.deadCores), static_cast<long long>(defectTotals.sparesUsed),
                    static_cast<long long>(defectTotals.unrepairableSegments), p.usableCols, p.usableRows);
        return kExitOk;
    }
    QJsonArray layersPerDevice;
    for (int n : p.layersPerDevice)
        layersPerDevice.append(n);
    // Totals over all devices (usable_cores = devices x the usable mesh placement used).
    QJsonObject defects{
        {QStringLiteral("dead_cores"), double(defectTotals.deadCores)},
        {QStringLiteral("spares_used"), double(defectTotals.sparesUsed)},
        {QStringLiteral("unrepairable_segments"), double(defectTotals.unrepairableSegments)},
        {QStringLiteral("usable_cores"), double(int64_t(p.deviceCount) * p.usableCols * p.usableRows)},
        {QStringLiteral("defect_rate"), defectRate},
        {QStringLiteral("seed"), double(spec->defects.seed)},
        {QStringLiteral("hop_stretch"), hopStretch},
    };
    QJsonArray notes;
    for (const std::string& n : p.notes)
        notes.append(QString::fromStdString(n));
    const QJsonObject out{
        {QStringLiteral("model"), QString::fromStdString(model->id)},
        {QStringLiteral("hardware"), QString::fromStdString(hardware->id)},
        {QStringLiteral("precision"), QString::fromLatin1(precisionId(options.precision))},
        {QStringLiteral("context"), double(options.contextTokens)},
        {QStringLiteral("strategy"), QString::fromLatin1(placementStrategyId(options.strategy))},
        {QStringLiteral("weight_fill"), options.weightFill},
        {QStringLiteral("devices"), p.deviceCount},
        {QStringLiteral("devices_chosen"), devicesChosen},
        {QStringLiteral("layers_per_device"), layersPerDevice},
        {QStringLiteral("sram_used_bytes"), double(p.sramUsedBytes())},
        {QStringLiteral("sram_total_bytes"), double(p.sramTotalBytes())},
        {QStringLiteral("weight_bytes"), double(totals.weightBytes())},
        {QStringLiteral("kv_bytes"), double(totals.kv)},
        {QStringLiteral("activation_bytes"), double(totals.activations)},
        {QStringLiteral("program_bytes"), double(totals.program)},
        {QStringLiteral("max_core_bytes"), double(p.maxCoreBytes())},
        {QStringLiteral("parameters"), double(shape.totalParameters())},
        {QStringLiteral("usable_mesh"), QJsonArray{p.usableCols, p.usableRows}},
        {QStringLiteral("defects"), defects},
        {QStringLiteral("notes"), notes},
        {QStringLiteral("layout_origin"), origin},
        {QStringLiteral("precisions"),
         QJsonObject{{QStringLiteral("attention"), QString::fromLatin1(precisionId(p.precisions.attention))},
                     {QStringLiteral("ffn"), QString::fromLatin1(precisionId(p.precisions.ffn))},
                     {QStringLiteral("tables"), QString::fromLatin1(precisionId(p.precisions.tables))}}},
        {QStringLiteral("layer_order"), QString::fromLatin1(layerOrderId(p.order))},
    };
    printJson(out);
    return kExitOk;
}

} // namespace ws::cli
