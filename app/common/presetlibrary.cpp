#include "app/common/presetlibrary.h"

#include "engine/calibration/measurementdata.h"
#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/hfconfigimporter.h"
#include "engine/model/modelfileimporter.h"
#include "engine/model/modelpresetparser.h"

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

// Parses one preset and adds it to `into` by id; a parse error or a built-in duplicate goes to `errors`.
template <typename T, typename Parse>
void addPreset(std::map<QString, T>& into, Parse parse, const char* kind, std::string_view text, const QString& path,
               bool user, QStringList& errors)
{
    auto preset = parse(text, path.toStdString());
    if (!preset) {
        errors << QString::fromStdString(preset.error().message());
        return;
    }
    const QString id = QString::fromStdString(preset->id);
    if (!user && into.count(id))
        errors << path + QStringLiteral(": duplicate %1 id '%2'").arg(QLatin1String(kind), id);
    into[id] = std::move(*preset);
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
    if (hardware)
        addPreset(m_hardware, parseHardwarePreset, "hardware", text, path, user, m_errors);
    else
        addPreset(m_models, parseModelPreset, "model", text, path, user, m_errors);
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
