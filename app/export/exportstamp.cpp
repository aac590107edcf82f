#include "app/export/exportstamp.h"

#include "app/common/buildinfo.h"

#include <QJsonDocument>

namespace ws {

ExportStamp::ExportStamp() : generator(BuildInfo::generator()) {}

ExportStamp ExportStamp::forScenario(const QByteArray& json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    return doc.isObject() ? forScenario(doc.object()) : ExportStamp();
}

ExportStamp ExportStamp::forScenario(const QJsonObject& json)
{
    ExportStamp stamp;
    stamp.scenario = QJsonDocument(json).toJson(QJsonDocument::Compact);
    return stamp;
}

QString ExportStamp::text() const
{
    if (scenario.isEmpty())
        return generator;
    return generator + QStringLiteral("; scenario: ") + QString::fromUtf8(scenario);
}

void ExportStamp::addTo(QImage& image) const
{
    image.setText(QLatin1String(kPngSoftwareKey), generator);
    if (!scenario.isEmpty())
        image.setText(QLatin1String(kPngScenarioKey), QString::fromUtf8(scenario));
}

QByteArray ExportStamp::svgComment() const
{
    // Compact JSON has "--" only inside strings, where "\u002d" reads back as the same '-'.
    QByteArray body = text().toUtf8();
    body.replace("--", "-\\u002d");
    return "<!-- " + body + " -->";
}

QByteArray ExportStamp::csvComment() const
{
    QByteArray out = "# generator: " + generator.toUtf8() + "\r\n";
    if (!scenario.isEmpty())
        out += "# scenario: " + scenario + "\r\n";
    return out;
}

} // namespace ws
