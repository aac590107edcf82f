#include "app/common/presetlibrary.h"

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelfileimporter.h"
#include "engine/model/hfconfigimporter.h"
#include "engine/model/modelpresetparser.h"
#include "engine/perf/measurementdata.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace ws {

namespace {
Expected<QByteArray> readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        Error e = makeError(ErrorCode::Io, "cannot open: " + file.errorString().toStdString());
        e.file = path.toStdString();
        return e;
    }
    return file.readAll();
}

Error notFound(const char* what, const QString& id, const QStringList& known)
{
    return makeError(ErrorCode::NotFound, std::string("unknown ") + what + " preset '" + id.toStdString() +
                                              "' (known: " + known.join(QStringLiteral(", ")).toStdString() + ")");
}
} // namespace

PresetLibrary::PresetLibrary(const QString& userDir)
{
    // The engine's embedded copy of resources/presets, named "hardware/h100.json", "models/qwen3-8b.json".
    for (const EmbeddedMeasurementFile& f : embeddedPresetFiles()) {
        const bool hardware = f.name.starts_with("hardware/");
        if (hardware || f.name.starts_with("models/"))
            add(f.text, QStringLiteral("presets/") + QString::fromUtf8(f.name.data(), qsizetype(f.name.size())),
                hardware, false);
    }
    if (!userDir.isEmpty()) {
        loadDir(QDir(userDir).filePath(QStringLiteral("hardware")), true, true);
        loadDir(QDir(userDir).filePath(QStringLiteral("models")), false, true);
    }
}

QString PresetLibrary::defaultUserDir()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return base.isEmpty() ? QString() : QDir(base).filePath(QStringLiteral("presets"));
}

void PresetLibrary::loadDir(const QString& dir, bool hardware, bool user)
{
    const QDir d(dir);
    if (!d.exists())
        return;
    const QStringList files = d.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        const QString path = d.filePath(name);
        auto bytes = readFile(path);
        if (!bytes) {
            m_errors << QString::fromStdString(bytes.error().message());
            continue;
        }
        add(std::string_view(bytes->constData(), size_t(bytes->size())), path, hardware, user);
    }
}

void PresetLibrary::add(std::string_view text, const QString& path, bool hardware, bool user)
{
    const std::string file = path.toStdString();
    if (hardware) {
        auto spec = parseHardwarePreset(text, file);
        if (!spec) {
            m_errors << QString::fromStdString(spec.error().message());
            return;
        }
        const QString id = QString::fromStdString(spec->id);
        if (!user && m_hardware.count(id))
            m_errors << path + QStringLiteral(": duplicate hardware id '%1'").arg(id);
        m_hardware[id] = std::move(*spec);
    } else {
        auto model = parseModelPreset(text, file);
        if (!model) {
            m_errors << QString::fromStdString(model.error().message());
            return;
        }
        const QString id = QString::fromStdString(model->id);
        if (!user && m_models.count(id))
            m_errors << path + QStringLiteral(": duplicate model id '%1'").arg(id);
        m_models[id] = std::move(*model);
    }
}

QStringList PresetLibrary::hardwareIds() const
{
    QStringList ids;
    for (const auto& [id, spec] : m_hardware)
        ids << id;
    return ids;
}

QStringList PresetLibrary::modelIds() const
{
    QStringList ids;
    for (const auto& [id, model] : m_models)
        ids << id;
    return ids;
}

Expected<HardwareSpec> PresetLibrary::hardware(const QString& id) const
{
    const auto it = m_hardware.find(id);
    if (it == m_hardware.end())
        return notFound("hardware", id, hardwareIds());
    return it->second;
}

Expected<ModelConfig> PresetLibrary::model(const QString& id) const
{
    const auto it = m_models.find(id);
    if (it == m_models.end())
        return notFound("model", id, modelIds());
    return it->second;
}

Expected<ModelConfig> PresetLibrary::resolveModel(const QString& idOrPath) const
{
    if (m_models.count(idOrPath))
        return m_models.at(idOrPath);
    const QFileInfo info(idOrPath);
    const bool looksLikePath = idOrPath.contains(QLatin1Char('/')) || idOrPath.endsWith(QLatin1String(".json")) ||
                               idOrPath.endsWith(QLatin1String(".gguf"));
    if (!looksLikePath)
        return notFound("model", idOrPath, modelIds());
    if (!info.isFile()) {
        Error e = makeError(ErrorCode::NotFound, "no such file");
        e.file = idOrPath.toStdString();
        return e;
    }
    // A weights file (GGUF or a llama2.c checkpoint): its header, as the chat's decoder reads it.
    if (idOrPath.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive) ||
        idOrPath.endsWith(QLatin1String(".bin"), Qt::CaseInsensitive))
        return importModelFile(idOrPath.toStdString());
    auto bytes = readFile(idOrPath);
    if (!bytes)
        return bytes.error();
    const std::string_view text(bytes->constData(), size_t(bytes->size()));
    // Our own preset schema says "kind": "model"; anything else is read as a Hugging Face config.json.
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes);
    if (doc.isObject() && doc.object().value(QLatin1String("kind")).toString() == QLatin1String("model"))
        return parseModelPreset(text, idOrPath.toStdString());
    return importHfConfig(text, idOrPath.toStdString());
}

} // namespace ws
