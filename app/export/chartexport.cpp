#include "app/export/chartexport.h"

#include "app/export/exporter.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonArray>
#include <QMessageBox>

namespace ws {

QJsonObject ChartExport::inputsJson(const views::ComparisonSnapshot& s)
{
    QJsonObject o;
    o.insert(QStringLiteral("model"), s.settings.modelId);
    o.insert(QStringLiteral("concurrency"), s.settings.workload.concurrency);
    o.insert(QStringLiteral("context_tokens"), double(s.settings.workload.contextTokens));
    o.insert(QStringLiteral("prompt_tokens"), double(s.settings.workload.promptTokens));
    o.insert(QStringLiteral("output_tokens"), double(s.settings.workload.outputTokens));
    o.insert(QStringLiteral("agent_steps"), s.settings.workload.agentSteps);
    o.insert(QStringLiteral("agent_tokens_per_step"), double(s.settings.workload.agentTokensPerStep));
    o.insert(QStringLiteral("answer_characters"), double(s.settings.workload.answerCharacters));
    o.insert(QStringLiteral("tokens_per_character"),
             QJsonArray{s.settings.workload.tokensPerCharacterLow, s.settings.workload.tokensPerCharacterHigh});
    o.insert(QStringLiteral("reading_characters_per_minute"),
             QJsonArray{s.reading.charactersPerMinuteLow, s.reading.charactersPerMinuteHigh});
    o.insert(QStringLiteral("gpu_profile"),
             s.settings.gpuProfile.isEmpty() ? QStringLiteral("automatic") : s.settings.gpuProfile);
    QJsonArray systems;
    for (const views::ComparisonSystem& sys : s.systems) {
        QJsonObject j;
        j.insert(QStringLiteral("label"), sys.label);
        j.insert(QStringLiteral("hardware"), sys.hardwareId);
        if (sys.ok) {
            j.insert(QStringLiteral("devices"), sys.prediction.devices);
            j.insert(QStringLiteral("profile"), QString::fromStdString(sys.prediction.profile));
        } else {
            j.insert(QStringLiteral("error"), sys.error);
        }
        systems.append(j);
    }
    o.insert(QStringLiteral("systems"), systems);
    return o;
}

DataTable ChartExport::table(const views::ChartData& data, const views::ComparisonSnapshot* snapshot)
{
    DataTable t;
    t.name = data.name;
    t.columns = data.columns;
    t.rows = data.rows;
    if (snapshot) {
        t.inputs = inputsJson(*snapshot);
        for (const views::ComparisonInput& in : snapshot->inputs)
            t.sources.insert(in.group + QStringLiteral(": ") + in.name, in.source);
    }
    return t;
}

bool ChartExport::write(QWidget* content, const views::ChartData& data, const views::ComparisonSnapshot* snapshot,
                        const QString& title, const QString& path, double scale, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    // Images record what was compared as their scenario (tables carry the same inputs).
    const ExportStamp stamp = snapshot ? ExportStamp::forScenario(inputsJson(*snapshot)) : ExportStamp();
    if (suffix == QLatin1String("png"))
        return Exporter::savePng(content, path, scale, error, stamp);
    if (suffix == QLatin1String("svg"))
        return Exporter::saveSvg(content, path, title, error, stamp);
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json"))
        return Exporter::saveTable(table(data, snapshot), path, error);
    if (error)
        *error = tr("Unknown export format “%1”: use .png, .svg, .csv or .json").arg(suffix);
    return false;
}

void ChartExport::askAndWrite(QWidget* parent, QWidget* content, const views::ChartData& data,
                              const views::ComparisonSnapshot* snapshot, const QString& title)
{
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        parent, tr("Export “%1”").arg(title), data.name + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;CSV data (*.csv);;JSON data (*.json)"), &filter);
    if (path.isEmpty())
        return;
    double scale = 2.0;
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0) {
        bool ok = false;
        scale = QInputDialog::getDouble(parent, tr("PNG scale"), tr("Pixels per screen pixel:"), 2.0,
                                        Exporter::kMinScale, Exporter::kMaxScale, 2, &ok);
        if (!ok)
            return;
    }
    QString error;
    if (!write(content, data, snapshot, title, path, scale, &error))
        QMessageBox::warning(parent, tr("Export failed"), error);
}

} // namespace ws
