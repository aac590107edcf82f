#include "app/export/figureexport.h"

#include "app/export/exporter.h"
#include "engine/model/precision.h"
#include "views/mesh/meshimage.h"

#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

namespace ws {

namespace {

// The docs/sources.md keys ("[WaferLLM]") cited by the given fields of a hardware preset, in order, once each.
QStringList sourceKeys(const HardwareSpec& hardware, std::initializer_list<const char*> fields)
{
    static const QRegularExpression key(QStringLiteral("\\[([A-Za-z0-9][A-Za-z0-9.\\-]*)\\]"));
    QStringList keys;
    for (const char* field : fields) {
        const auto it = hardware.sources.find(field);
        if (it == hardware.sources.end())
            continue;
        auto matches = key.globalMatch(QString::fromStdString(it->second));
        while (matches.hasNext()) {
            const QString k = matches.next().captured(1);
            if (!keys.contains(k))
                keys << k;
        }
    }
    return keys;
}

} // namespace

QString FigureExport::defaultTitle(const ScenarioSpec& spec, const MeshSnapshot& s, MeshLayer layer)
{
    const QString precision = QString::fromLatin1(precisionId(spec.workload.precision).data(),
                                                  qsizetype(precisionId(spec.workload.precision).size()))
                                  .toUpper();
    return tr("%1 (%2) on %3 × %4: %5")
        .arg(QString::fromStdString(spec.model.name), precision, QLocale().toString(s.deviceCount),
             QString::fromStdString(spec.hardware.name), views::meshLayerName(layer));
}

QString FigureExport::defaultSource(const ScenarioSpec& spec, const MeshSnapshot& s, const QString& generator)
{
    const QLocale locale;
    QString text =
        tr("%1 · placed by its engine at a %2-token context · %3 × %4 cores per wafer, %5 SRAM per core")
            .arg(generator, locale.toString(qlonglong(spec.workload.contextTokens)), locale.toString(s.meshCols),
                 locale.toString(s.meshRows), views::formatBytes(double(s.sramBytesPerCore)));
    const QStringList keys = sourceKeys(spec.hardware, {"meshCols", "meshRows", "sramBytesPerCore"});
    if (!keys.isEmpty())
        text += tr(" [%1] (docs/sources.md)").arg(keys.join(QStringLiteral(", ")));
    return text;
}

views::MeshFigureOptions FigureExport::defaults(const ScenarioSpec& spec, const MeshSnapshot& snapshot, MeshLayer layer,
                                                const QString& generator)
{
    views::MeshFigureOptions o;
    o.layer = layer;
    o.title = defaultTitle(spec, snapshot, layer);
    o.source = defaultSource(spec, snapshot, generator);
    return o;
}

bool FigureExport::write(const views::MeshFigure& figure, const QString& path, const ExportStamp& stamp, QString* error,
                         views::MeshFigureSvgStats* stats)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!figure.isValid()) {
        *error = tr("there is no placement to draw into %1").arg(path);
        return false;
    }
    if (suffix == QLatin1String("png"))
        return Exporter::saveImage(figure.toImage(), path, error, stamp);
    if (suffix == QLatin1String("svg"))
        return Exporter::saveBytes(Exporter::stampSvg(figure.toSvg(stats), stamp), path, error);
    *error = tr("%1: choose a .png or .svg file name for a figure").arg(path);
    return false;
}

} // namespace ws
