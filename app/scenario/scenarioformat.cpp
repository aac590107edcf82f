#include "app/scenario/scenarioformat.h"

#include "engine/wafer/placement/layoutjson.h"

#include "engine/model/precision.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53: JSON numbers are doubles

// Reads one JSON object strictly; the first problem is kept as a message "<field>: <text>".
class ObjectReader
{
public:
    ObjectReader(const QJsonObject& object, QString path, QString* problem)
        : m_object(object), m_path(std::move(path)), m_problem(problem)
    {
    }

    bool ok() const { return m_problem->isEmpty(); }

    void fail(const QString& key, const QString& text)
    {
        if (ok())
            *m_problem = field(key) + QStringLiteral(": ") + text;
    }

    QString field(const QString& key) const { return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key; }

    // Every key present must be one of `known`.
    void allowOnly(const QStringList& known)
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it)
            if (!known.contains(it.key())) {
                fail(it.key(), ScenarioFormat::tr("unknown key (expected one of: %1)").arg(known.join(", ")));
                return;
            }
    }

    bool has(const QString& key) const { return m_object.contains(key); }

    QJsonObject object(const QString& key, bool required)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isUndefined()) {
            if (required)
                fail(key, ScenarioFormat::tr("missing"));
            return {};
        }
        if (!v.isObject())
            fail(key, ScenarioFormat::tr("must be an object"));
        return v.toObject();
    }

    QString string(const QString& key, const QString& fallback, bool required = false)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isUndefined()) {
            if (required)
                fail(key, ScenarioFormat::tr("missing"));
            return fallback;
        }
        if (!v.isString()) {
            fail(key, ScenarioFormat::tr("must be a string"));
            return fallback;
        }
        return v.toString();
    }

    double number(const QString& key, double fallback, double lo, double hi)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isUndefined())
            return fallback;
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi) {
            fail(key, ScenarioFormat::tr("must be a number from %1 to %2, got %3").arg(lo).arg(hi).arg(shown(v)));
            return fallback;
        }
        return d;
    }

    int64_t integer(const QString& key, int64_t fallback, int64_t lo, int64_t hi, bool required = false)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isUndefined()) {
            if (required)
                fail(key, ScenarioFormat::tr("missing"));
            return fallback;
        }
        return integerValue(key, v, fallback, lo, hi);
    }

    int64_t integerValue(const QString& key, const QJsonValue& v, int64_t fallback, int64_t lo, int64_t hi)
    {
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(d) || std::floor(d) != d || d < double(lo) || d > double(hi)) {
            fail(key, ScenarioFormat::tr("must be an integer from %1 to %2, got %3").arg(lo).arg(hi).arg(shown(v)));
            return fallback;
        }
        return int64_t(d);
    }

    QJsonValue value(const QString& key) const { return m_object.value(key); }

    static QString shown(const QJsonValue& v)
    {
        if (v.isDouble())
            return QString::number(v.toDouble(), 'g', 17);
        if (v.isString())
            return QLatin1Char('"') + v.toString().left(40) + QLatin1Char('"');
        if (v.isBool())
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        if (v.isNull())
            return QStringLiteral("null");
        return v.isArray() ? QStringLiteral("an array") : QStringLiteral("an object");
    }

private:
    QJsonObject m_object;
    QString m_path;
    QString* m_problem;
};

bool isPresetId(const QString& id)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9][a-z0-9._-]{0,63}$"));
    return pattern.match(id).hasMatch();
}

} // namespace

QStringList ScenarioFormat::layerIds()
{
    QStringList ids;
    for (MeshLayer layer : allMeshLayers())
        ids << QString::fromLatin1(meshLayerId(layer));
    return ids;
}

QByteArray ScenarioFormat::toJson(const Scenario& s)
{
    QJsonArray dead;
    for (const DeadPhysicalCore& core : s.defects.cores)
        dead.append(QJsonObject{{"device", core.device}, {"x", core.core.x}, {"y", core.core.y}});
    QJsonObject defects{{"rate", s.defects.rate}, {"seed", double(s.defects.seed)}, {"dead_cores", dead}};
    // Written only when set, so a file without them reads as before (version 1 readers ignore nothing new).
    if (!s.defects.exactDevices.empty()) {
        QJsonArray exact;
        for (const int device : s.defects.exactDevices)
            exact.append(device);
        defects.insert(QStringLiteral("exact_devices"), exact);
    }
    if (s.defects.scheme != SpareScheme::RowShift) {
        defects.insert(QStringLiteral("spare_scheme"), QStringLiteral("die-row-column"));
        defects.insert(QStringLiteral("die_spares"), s.defects.dieSpares);
    }
    QJsonObject root{
        {"version", s.layout || !s.draftModel.isEmpty() ? kVersion : 1},
        {"model", QJsonObject{{"preset", s.modelPreset}, {"file", s.modelFile}}},
        {"hardware", QJsonObject{{"preset", s.hardwarePreset}, {"devices", s.devices}}},
        {"precision", QString::fromLatin1(precisionId(s.precision).data())},
        {"workload", QJsonObject{{"batch", s.batch},
                                 {"context_tokens", double(s.contextTokens)},
                                 {"prompt_tokens", double(s.promptTokens)},
                                 {"output_tokens", double(s.outputTokens)},
                                 {"prompt", s.prompt}}},
        {"defects", defects},
        {"view", QJsonObject{{"layer", QString::fromLatin1(meshLayerId(s.layer))},
                             {"device", s.viewDevice},
                             {"zoom", s.zoom},
                             {"center", QJsonArray{s.center.x(), s.center.y()}}}},
    };
    if (!s.draftModel.isEmpty()) {
        QJsonObject workload = root.value(QStringLiteral("workload")).toObject();
        workload.insert(QStringLiteral("draft_model"), s.draftModel);
        root.insert(QStringLiteral("workload"), workload);
    }
    if (s.layout)
        root.insert(QStringLiteral("layout"),
                    QJsonDocument::fromJson(QByteArray::fromStdString(layoutToJson(*s.layout))).object());
    // QJsonObject keeps keys sorted, and Qt writes doubles in their shortest round-trip form: canonical output.
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::optional<Scenario> ScenarioFormat::fromJson(const QByteArray& json, const QString& source, QString* error)
{
    const auto failed = [&](const QString& text) {
        *error = source + QStringLiteral(": ") + text;
        return std::nullopt;
    };
    if (json.trimmed().isEmpty())
        return failed(tr("the file is empty, not a WaferScope scenario"));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return failed(tr("not valid JSON (corrupt or truncated): %1 at byte %2")
                          .arg(parseError.errorString())
                          .arg(parseError.offset));
    if (!document.isObject())
        return failed(tr("not a WaferScope scenario: the top level must be a JSON object"));

    QString problem;
    ObjectReader root(document.object(), {}, &problem);
    if (!root.has(QStringLiteral("version")))
        return failed(tr("not a WaferScope scenario: no \"version\" field"));
    const int64_t version = root.integer(QStringLiteral("version"), 0, 1, 1000000);
    if (!root.ok())
        return failed(problem);
    if (version > kVersion)
        return failed(tr("written by a newer WaferScope (scenario format version %1; this version reads up to %2)")
                          .arg(version)
                          .arg(kVersion));

    Scenario s;
    if (version >= 2)
        root.allowOnly({"version", "model", "hardware", "precision", "workload", "defects", "view", "layout"});
    else
        root.allowOnly({"version", "model", "hardware", "precision", "workload", "defects", "view"});
    if (root.ok() && root.has(QStringLiteral("layout"))) {
        const QJsonObject layout = root.object(QStringLiteral("layout"), true);
        auto parsed = layoutFromJson(QJsonDocument(layout).toJson(QJsonDocument::Compact).toStdString());
        if (parsed)
            s.layout = std::move(*parsed);
        else if (root.ok())
            root.fail(QStringLiteral("layout"),
                      tr("invalid layout: %1").arg(QString::fromStdString(parsed.error().text)));
    }

    ObjectReader model(root.object(QStringLiteral("model"), true), QStringLiteral("model"), &problem);
    model.allowOnly({"preset", "file"});
    s.modelPreset = model.string(QStringLiteral("preset"), {});
    s.modelFile = model.string(QStringLiteral("file"), {});
    if (model.ok() && s.modelPreset.isEmpty() && s.modelFile.isEmpty())
        model.fail(QStringLiteral("preset"), tr("a model preset or a model file is required"));
    if (model.ok() && !s.modelPreset.isEmpty() && !isPresetId(s.modelPreset))
        model.fail(QStringLiteral("preset"),
                   tr("\"%1\" is not a preset id (lower case, digits, dashes)").arg(s.modelPreset.left(64)));

    ObjectReader hardware(root.object(QStringLiteral("hardware"), true), QStringLiteral("hardware"), &problem);
    hardware.allowOnly({"preset", "devices"});
    s.hardwarePreset = hardware.string(QStringLiteral("preset"), {}, true);
    if (hardware.ok() && !isPresetId(s.hardwarePreset))
        hardware.fail(QStringLiteral("preset"),
                      tr("\"%1\" is not a preset id (lower case, digits, dashes)").arg(s.hardwarePreset.left(64)));
    s.devices = int(hardware.integer(QStringLiteral("devices"), 0, 0, 100000));

    const QString precision = root.string(QStringLiteral("precision"), {}, true);
    if (const auto p = parsePrecision(precision.toStdString()))
        s.precision = *p;
    else if (root.ok())
        root.fail(
            QStringLiteral("precision"),
            tr("unknown precision \"%1\" (expected fp32, bf16, fp16, fp8, int8, int4 or fp4)").arg(precision.left(16)));

    ObjectReader workload(root.object(QStringLiteral("workload"), false), QStringLiteral("workload"), &problem);
    if (version >= 2)
        workload.allowOnly({"batch", "context_tokens", "prompt_tokens", "output_tokens", "prompt", "draft_model"});
    else
        workload.allowOnly({"batch", "context_tokens", "prompt_tokens", "output_tokens", "prompt"});
    s.batch = int(workload.integer(QStringLiteral("batch"), s.batch, 1, 1 << 20));
    s.contextTokens = workload.integer(QStringLiteral("context_tokens"), s.contextTokens, 1, int64_t(1) << 30);
    s.promptTokens = workload.integer(QStringLiteral("prompt_tokens"), s.promptTokens, 0, int64_t(1) << 30);
    s.outputTokens = workload.integer(QStringLiteral("output_tokens"), s.outputTokens, 1, int64_t(1) << 30);
    s.prompt = workload.string(QStringLiteral("prompt"), {});
    s.draftModel = workload.string(QStringLiteral("draft_model"), {});
    if (workload.ok() && !s.draftModel.isEmpty() && !isPresetId(s.draftModel))
        workload.fail(QStringLiteral("draft_model"),
                      tr("\"%1\" is not a preset id (lower case, digits, dashes)").arg(s.draftModel.left(64)));
    if (workload.ok() && s.promptTokens + s.outputTokens > s.contextTokens)
        workload.fail(QStringLiteral("output_tokens"),
                      tr("prompt_tokens + output_tokens (%1) exceed context_tokens (%2)")
                          .arg(s.promptTokens + s.outputTokens)
                          .arg(s.contextTokens));

    ObjectReader defects(root.object(QStringLiteral("defects"), false), QStringLiteral("defects"), &problem);
    defects.allowOnly({"rate", "seed", "dead_cores", "exact_devices", "spare_scheme", "die_spares"});
    s.defects.rate = defects.number(QStringLiteral("rate"), 0.0, 0.0, 1.0);
    s.defects.seed = uint64_t(defects.integer(QStringLiteral("seed"), 1, 0, int64_t(kMaxExactInteger)));
    const QString scheme = defects.string(QStringLiteral("spare_scheme"), QStringLiteral("row-shift"));
    if (scheme == QLatin1String("die-row-column"))
        s.defects.scheme = SpareScheme::DieRowColumn;
    else if (scheme != QLatin1String("row-shift") && defects.ok())
        defects.fail(QStringLiteral("spare_scheme"), tr("must be \"row-shift\" or \"die-row-column\""));
    s.defects.dieSpares = int(defects.integer(QStringLiteral("die_spares"), 2, 0, 64));
    const QJsonValue exact = defects.value(QStringLiteral("exact_devices"));
    if (!exact.isUndefined() && !exact.isArray() && defects.ok())
        defects.fail(QStringLiteral("exact_devices"), tr("must be an array of wafer indices"));
    for (const QJsonValue& device : exact.toArray()) {
        if (!device.isDouble() || device.toDouble() < 0 || device.toDouble() > 100000 ||
            device.toDouble() != std::floor(device.toDouble())) {
            if (defects.ok())
                defects.fail(QStringLiteral("exact_devices"), tr("must be an array of wafer indices"));
            break;
        }
        if (!s.defects.isExact(device.toInt()))
            s.defects.exactDevices.push_back(device.toInt());
    }
    std::sort(s.defects.exactDevices.begin(), s.defects.exactDevices.end());
    const QJsonValue dead = defects.value(QStringLiteral("dead_cores"));
    if (!dead.isUndefined() && !dead.isArray())
        defects.fail(QStringLiteral("dead_cores"), tr("must be an array of {\"device\", \"x\", \"y\"} objects"));
    const QJsonArray deadArray = dead.toArray();
    for (qsizetype i = 0; i < deadArray.size() && defects.ok(); ++i) {
        const QString path = QStringLiteral("defects.dead_cores[%1]").arg(i);
        if (!deadArray.at(i).isObject()) {
            problem = path + QStringLiteral(": ") + tr("must be an object {\"device\", \"x\", \"y\"}");
            break;
        }
        ObjectReader core(deadArray.at(i).toObject(), path, &problem);
        core.allowOnly({"device", "x", "y"});
        DeadPhysicalCore c;
        c.device = int(core.integer(QStringLiteral("device"), 0, 0, 100000, true));
        c.core.x = int(core.integer(QStringLiteral("x"), 0, 0, 100000, true));
        c.core.y = int(core.integer(QStringLiteral("y"), 0, 0, 100000, true));
        s.defects.cores.push_back(c);
    }

    ObjectReader view(root.object(QStringLiteral("view"), false), QStringLiteral("view"), &problem);
    view.allowOnly({"layer", "device", "zoom", "center"});
    const QString layer = view.string(QStringLiteral("layer"), QString::fromLatin1(meshLayerId(s.layer)));
    if (const auto l = meshLayerFromId(layer.toStdString()))
        s.layer = *l;
    else if (view.ok())
        view.fail(QStringLiteral("layer"),
                  tr("unknown layer \"%1\" (expected one of: %2)").arg(layer.left(16), layerIds().join(", ")));
    s.viewDevice = int(view.integer(QStringLiteral("device"), 0, 0, 100000));
    s.zoom = view.number(QStringLiteral("zoom"), 1.0, 0.01, 10000.0);
    const QJsonValue center = view.value(QStringLiteral("center"));
    if (!center.isUndefined()) {
        const QJsonArray xy = center.toArray();
        if (!center.isArray() || xy.size() != 2 || !xy.at(0).isDouble() || !xy.at(1).isDouble() ||
            std::abs(xy.at(0).toDouble()) > 1e6 || std::abs(xy.at(1).toDouble()) > 1e6)
            view.fail(QStringLiteral("center"), tr("must be an array of two numbers [x, y] in cores"));
        else
            s.center = QPointF(xy.at(0).toDouble(), xy.at(1).toDouble());
    }

    if (!problem.isEmpty())
        return failed(problem);
    return s;
}

std::optional<Scenario> ScenarioFormat::load(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("%1: cannot open: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxFileBytes) {
        *error = tr("%1: not a WaferScope scenario: %2 bytes is far larger than a scenario").arg(path).arg(file.size());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    if (file.error() != QFile::NoError) {
        *error = tr("%1: cannot read: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return fromJson(bytes, path, error);
}

bool ScenarioFormat::save(const Scenario& scenario, const QString& path, QString* error)
{
    QSaveFile file(path);
    const QByteArray bytes = toJson(scenario);
    // Qt 6.4's QSaveFile::commit() misses a failed flush of its buffer (a full disk) and replaces the old
    // file with a short one: flush first, so a failed write cancels instead.
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.flush() || !file.commit()) {
        *error = tr("%1: cannot save: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ws
