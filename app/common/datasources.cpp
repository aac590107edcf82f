#include "app/common/datasources.h"

#include "engine/calibration/measurementdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ws {

namespace {

void collect(const QJsonValue& value, QStringList& out)
{
    if (value.isArray()) {
        for (const QJsonValue& item : value.toArray())
            collect(item, out);
        return;
    }
    if (!value.isObject())
        return;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key() == QLatin1String("source") && it.value().isString()) {
            const QString source = it.value().toString().trimmed();
            if (!source.isEmpty() && !out.contains(source))
                out << source;
        } else {
            collect(it.value(), out);
        }
    }
}

DataSourceFile describe(const QString& file, std::string_view text)
{
    const QByteArray json(text.data(), qsizetype(text.size()));
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    DataSourceFile out{file, {}, DataSources::sourcesIn(json)};
    for (const char* key : {"name", "description", "id"}) {
        out.title = root.value(QLatin1String(key)).toString();
        if (!out.title.isEmpty())
            break;
    }
    return out;
}

} // namespace

QStringList DataSources::sourcesIn(const QByteArray& json)
{
    QStringList out;
    collect(QJsonDocument::fromJson(json).object(), out);
    return out;
}

QList<DataSourceFile> DataSources::shipped()
{
    QList<DataSourceFile> presets;
    for (const EmbeddedMeasurementFile& f : embeddedPresetFiles())
        presets << describe(QString::fromUtf8(f.name.data(), qsizetype(f.name.size())), f.text);
    // "hardware/..." sorts before "models/...".
    std::sort(presets.begin(), presets.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
    QList<DataSourceFile> measurements;
    for (const EmbeddedMeasurementFile& f : embeddedMeasurementFiles())
        measurements << describe(
            QStringLiteral("measurements/") + QString::fromUtf8(f.name.data(), qsizetype(f.name.size())), f.text);
    std::sort(measurements.begin(), measurements.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
    return presets + measurements;
}

QStringList DataSources::allSources()
{
    QStringList out;
    for (const DataSourceFile& file : shipped())
        for (const QString& source : file.sources)
            if (!out.contains(source))
                out << source;
    return out;
}

} // namespace ws
