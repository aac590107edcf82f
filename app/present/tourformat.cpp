#include "app/present/tourformat.h"

#include "app/present/tourcaptions.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>
#include <map>

namespace ws {

namespace {

constexpr TourStepKind kKinds[] = {TourStepKind::Open, TourStepKind::Layer,   TourStepKind::Zoom,
                                   TourStepKind::Play, TourStepKind::Defects, TourStepKind::Compare,
                                   TourStepKind::Race, TourStepKind::Caption, TourStepKind::Wait};
constexpr const char* kKindIds[] = {"open", "layer", "zoom", "play", "defects", "compare", "race", "caption", "wait"};

QString jsonTypeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

// A text from the file as an error message shows it: control characters escaped (the message stays one line),
// at most 60 characters.
QString shown(const QString& text)
{
    QString out;
    for (const QChar c : text.left(60)) {
        if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line ||
                 c.category() == QChar::Separator_Paragraph)
            out += QStringLiteral("\\u%1").arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return text.size() > 60 ? out + QStringLiteral("…") : out;
}

// Reads one JSON object's fields; the first problem is kept as "<where>: '<field>' <what>".
class Fields
{
public:
    Fields(const QJsonObject& object, QString where, QString* error)
        : m_object(object), m_where(std::move(where)), m_error(error)
    {
    }
    bool ok() const { return m_ok; }
    void fail(const QString& field, const QString& what)
    {
        if (m_ok && m_error)
            *m_error = QStringLiteral("%1: '%2' %3").arg(m_where, shown(field), what);
        m_ok = false;
    }
    // Every key must be one of `known`.
    void onlyKeys(const QStringList& known)
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it)
            if (!known.contains(it.key()))
                fail(it.key(), QStringLiteral("is not a field here (expected one of: %1)").arg(known.join(", ")));
    }
    bool has(const QString& key) const { return m_object.contains(key); }
    QJsonValue value(const QString& key, bool required)
    {
        if (!m_object.contains(key)) {
            if (required)
                fail(key, QStringLiteral("is missing"));
            return QJsonValue::Undefined;
        }
        return m_object.value(key);
    }
    // The field when it is there and of the type `is` tests; Undefined otherwise (a wrong type fails).
    QJsonValue typed(const QString& key, bool required, bool (QJsonValue::*is)() const, const char* must)
    {
        const QJsonValue v = value(key, required);
        if (!v.isUndefined() && !(v.*is)()) {
            fail(key, QStringLiteral("must be %1, got %2").arg(QLatin1String(must), jsonTypeName(v)));
            return QJsonValue::Undefined;
        }
        return v;
    }
    std::optional<QString> string(const QString& key, bool required, int maxLength = 4096)
    {
        const QJsonValue v = typed(key, required, &QJsonValue::isString, "a string");
        if (v.isUndefined())
            return std::nullopt;
        if (v.toString().isEmpty() || v.toString().size() > maxLength) {
            fail(key, QStringLiteral("must have 1 to %1 characters, got %2").arg(maxLength).arg(v.toString().size()));
            return std::nullopt;
        }
        return v.toString();
    }
    std::optional<double> number(const QString& key, bool required, double lo, double hi)
    {
        const QJsonValue v = typed(key, required, &QJsonValue::isDouble, "a number");
        if (v.isUndefined())
            return std::nullopt;
        const double x = v.toDouble();
        if (!std::isfinite(x) || x < lo || x > hi) {
            fail(key, QStringLiteral("must be from %1 to %2, got %3").arg(lo, 0, 'g', 12).arg(hi, 0, 'g', 12).arg(x));
            return std::nullopt;
        }
        return x;
    }
    std::optional<qint64> integer(const QString& key, bool required, qint64 lo, qint64 hi)
    {
        const auto x = number(key, required, double(lo), double(hi));
        if (!x)
            return std::nullopt;
        if (std::floor(*x) != *x) {
            fail(key, QStringLiteral("must be a whole number, got %1").arg(*x));
            return std::nullopt;
        }
        return qint64(*x);
    }
    std::optional<bool> boolean(const QString& key, bool required)
    {
        const QJsonValue v = typed(key, required, &QJsonValue::isBool, "true or false");
        return v.isUndefined() ? std::nullopt : std::optional<bool>(v.toBool());
    }

private:
    QJsonObject m_object;
    QString m_where;
    QString* m_error;
    bool m_ok = true;
};

void readOpen(Fields& f, TourStep& s)
{
    f.onlyKeys({"kind", "scenario", "model", "hardware", "precision", "context"});
    if (f.has(QStringLiteral("scenario"))) {
        for (const char* other : {"model", "hardware", "precision", "context"})
            if (f.has(QLatin1String(other)))
                f.fail(QLatin1String(other), QStringLiteral("cannot be given with 'scenario' (the file says it)"));
        s.scenarioPath = f.string(QStringLiteral("scenario"), true).value_or(QString());
        return;
    }
    s.model = f.string(QStringLiteral("model"), true, 200).value_or(QString());
    s.hardware = f.string(QStringLiteral("hardware"), false, 200).value_or(s.hardware);
    if (const auto p = f.string(QStringLiteral("precision"), false, 20)) {
        if (const auto precision = parsePrecision(p->toStdString()))
            s.precision = *precision;
        else
            f.fail(QStringLiteral("precision"),
                   QStringLiteral("must be a precision id such as bf16, fp8 or int4, got '%1'").arg(shown(*p)));
    }
    s.contextTokens = f.integer(QStringLiteral("context"), false, 1, 10'000'000).value_or(s.contextTokens);
}

void readStep(Fields& f, TourStep& s)
{
    switch (s.kind) {
    case TourStepKind::Open:
        readOpen(f, s);
        return;
    case TourStepKind::Layer:
        f.onlyKeys({"kind", "layer", "engine_layer"});
        if (const auto id = f.string(QStringLiteral("layer"), true, 40)) {
            if (const auto layer = meshLayerFromId(id->toStdString()))
                s.layer = *layer;
            else
                f.fail(QStringLiteral("layer"),
                       QStringLiteral("must be sram, placement, kv, dataflow, defects, links or values, got '%1'")
                           .arg(shown(*id)));
        }
        s.engineLayer = int(f.integer(QStringLiteral("engine_layer"), false, 0, 10000).value_or(-1));
        if (f.ok() && s.engineLayer >= 0 && !isFrameLayer(s.layer))
            f.fail(QStringLiteral("engine_layer"),
                   QStringLiteral("needs \"layer\": \"dataflow\", \"links\" or \"values\""));
        return;
    case TourStepKind::Zoom: {
        f.onlyKeys({"kind", "region", "fit"});
        if (f.boolean(QStringLiteral("fit"), false).value_or(false)) {
            if (f.has(QStringLiteral("region")))
                f.fail(QStringLiteral("region"), QStringLiteral("cannot be given with 'fit'"));
            return;
        }
        const QJsonValue v = f.value(QStringLiteral("region"), true);
        if (v.isUndefined())
            return;
        const QJsonArray a = v.toArray();
        bool numbers = v.isArray() && a.size() == 4;
        for (const QJsonValue& x : a)
            numbers =
                numbers && x.isDouble() && std::isfinite(x.toDouble()) && x.toDouble() >= 0 && x.toDouble() <= 1e6;
        if (!numbers || a[2].toDouble() < 1 || a[3].toDouble() < 1)
            f.fail(QStringLiteral("region"),
                   QStringLiteral("must be [x, y, width, height] in cores (x, y >= 0; width, height >= 1)"));
        else
            s.region = QRectF(a[0].toDouble(), a[1].toDouble(), a[2].toDouble(), a[3].toDouble());
        return;
    }
    case TourStepKind::Play:
        f.onlyKeys({"kind", "tokens", "wafer_us_per_second", "from", "to"});
        s.tokens = int(f.integer(QStringLiteral("tokens"), true, 1, 1000).value_or(1));
        s.waferMicrosecondsPerSecond =
            f.number(QStringLiteral("wafer_us_per_second"), false, 0.01, 1e6).value_or(s.waferMicrosecondsPerSecond);
        s.from = f.number(QStringLiteral("from"), false, 0, 1).value_or(0);
        s.to = f.number(QStringLiteral("to"), false, 0, 1).value_or(1);
        if (f.ok() && s.to - s.from < 1e-6)
            f.fail(QStringLiteral("to"), QStringLiteral("must be more than 'from' (%1), got %2").arg(s.from).arg(s.to));
        return;
    case TourStepKind::Defects:
        f.onlyKeys({"kind", "dead_fraction", "seed"});
        s.deadFraction = f.number(QStringLiteral("dead_fraction"), true, 0, 0.5).value_or(0);
        s.seed = quint64(f.integer(QStringLiteral("seed"), false, 0, qint64(1) << 52).value_or(1));
        return;
    case TourStepKind::Compare:
        f.onlyKeys({"kind", "show"});
        s.show = f.boolean(QStringLiteral("show"), false).value_or(true);
        return;
    case TourStepKind::Race:
        f.onlyKeys({"kind", "seconds", "time_scale"});
        s.seconds = f.number(QStringLiteral("seconds"), true, 0.1, 600).value_or(1);
        s.timeScale = f.number(QStringLiteral("time_scale"), false, 0.01, 100).value_or(0); // 0: demo pace
        return;
    case TourStepKind::Caption:
        f.onlyKeys({"kind", "text", "seconds"});
        s.seconds = f.number(QStringLiteral("seconds"), true, 0, 600).value_or(0);
        if (const auto text = f.string(QStringLiteral("text"), true, 400)) {
            static const QRegularExpression placeholder(QStringLiteral("\\{([^{}]*)\\}"));
            for (auto it = placeholder.globalMatch(*text); it.hasNext();) {
                const QString name = it.next().captured(1);
                if (!TourCaptions::placeholders().contains(name))
                    f.fail(QStringLiteral("text"), QStringLiteral("has an unknown placeholder {%1} (known: %2)")
                                                       .arg(shown(name), TourCaptions::placeholders().join(", ")));
            }
            s.text = *text;
        }
        return;
    case TourStepKind::Wait:
        f.onlyKeys({"kind", "seconds"});
        s.seconds = f.number(QStringLiteral("seconds"), true, 0.1, 600).value_or(1);
        return;
    }
}

} // namespace

QString TourFormat::kindId(TourStepKind kind)
{
    return QLatin1String(kKindIds[int(kind)]);
}

QStringList TourFormat::kindIds()
{
    QStringList ids;
    for (const char* id : kKindIds)
        ids << QLatin1String(id);
    return ids;
}

std::optional<Tour> TourFormat::fromJson(const QByteArray& json, const QString& source, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = parseError.error != QJsonParseError::NoError
                         ? QStringLiteral("%1: not valid JSON at byte %2: %3")
                               .arg(source, QString::number(parseError.offset), parseError.errorString())
                         : QStringLiteral("%1: a tour must be a JSON object").arg(source);
        return std::nullopt;
    }
    Fields top(doc.object(), source, error);
    top.onlyKeys({"version", "title", "steps"});
    const auto version = top.integer(QStringLiteral("version"), true, 1, 1'000'000);
    if (version && *version > kVersion)
        top.fail(QStringLiteral("version"),
                 QStringLiteral("is %1, newer than this program reads (%2)").arg(*version).arg(kVersion));
    Tour tour;
    tour.source = source;
    tour.title = top.string(QStringLiteral("title"), true, 200).value_or(QString());
    const QJsonValue steps = top.value(QStringLiteral("steps"), true);
    if (!steps.isUndefined() && (!steps.isArray() || steps.toArray().isEmpty() || steps.toArray().size() > kMaxSteps))
        top.fail(QStringLiteral("steps"),
                 QStringLiteral("must be an array of 1 to %1 steps, got %2").arg(kMaxSteps).arg(jsonTypeName(steps)));
    if (!top.ok())
        return std::nullopt;
    const QJsonArray array = steps.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString where = QStringLiteral("%1: step %2").arg(source, QString::number(i + 1));
        if (!array[i].isObject()) {
            if (error)
                *error = QStringLiteral("%1: must be an object, got %2").arg(where, jsonTypeName(array[i]));
            return std::nullopt;
        }
        const QJsonObject object = array[i].toObject();
        Fields kindField(object, where, error);
        const auto kind = kindField.string(QStringLiteral("kind"), true, 40);
        if (!kind)
            return std::nullopt;
        const qsizetype k = kindIds().indexOf(*kind);
        if (k < 0) {
            kindField.fail(
                QStringLiteral("kind"),
                QStringLiteral("is an unknown step '%1' (known: %2)").arg(shown(*kind), kindIds().join(", ")));
            return std::nullopt;
        }
        TourStep step;
        step.kind = kKinds[k];
        Fields f(object, QStringLiteral("%1 (%2)").arg(where, TourFormat::kindId(kKinds[k])), error);
        readStep(f, step);
        if (!f.ok())
            return std::nullopt;
        tour.steps.push_back(std::move(step));
    }
    return tour;
}

std::optional<Tour> TourFormat::load(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot read: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxFileBytes) {
        if (error)
            *error = QStringLiteral("%1: %2 bytes is more than a tour may have (%3)")
                         .arg(path, QString::number(file.size()), QString::number(kMaxFileBytes));
        return std::nullopt;
    }
    return fromJson(file.readAll(), path, error);
}

double TourFormat::stepSeconds(const TourStep& step, double tokenSeconds)
{
    switch (step.kind) {
    case TourStepKind::Caption:
    case TourStepKind::Wait:
    case TourStepKind::Race:
        return step.seconds;
    case TourStepKind::Play:
        return double(step.tokens) * tokenSeconds * (step.to - step.from) / (step.waferMicrosecondsPerSecond * 1e-6);
    default:
        return 0;
    }
}

QStringList TourFormat::shippedTours()
{
    return {QStringLiteral(":/tours/token-trip.json"), QStringLiteral(":/tours/wafer-gpu-groq.json"),
            QStringLiteral(":/tours/defects-redundancy.json")};
}

} // namespace ws
