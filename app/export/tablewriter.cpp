#include "app/export/tablewriter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSaveFile>

#include <cmath>

namespace ws {

namespace {

constexpr qsizetype kChunkBytes = 1 << 16;

QByteArray csvField(const QVariant& value)
{
    // Doubles in their shortest form that reads back to the same value; unknown values empty.
    if (value.typeId() == QMetaType::Double || value.typeId() == QMetaType::Float) {
        const double number = value.toDouble();
        return std::isfinite(number) ? QByteArray::number(number, 'g', QLocale::FloatingPointShortest) : QByteArray();
    }
    QByteArray text = value.toString().toUtf8();
    if (text.contains(',') || text.contains('"') || text.contains('\n') || text.contains('\r')) {
        text.replace("\"", "\"\"");
        text = '"' + text + '"';
    }
    return text;
}

QByteArray jsonString(const QString& text)
{
    QByteArray out = "\"";
    for (const char c : text.toUtf8()) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (uchar(c) < 0x20) {
            out += "\\u00";
            out += QByteArray::number(int(uchar(c)), 16).rightJustified(2, '0');
        } else {
            out += c;
        }
    }
    return out + '"';
}

QByteArray jsonValue(const QVariant& value)
{
    switch (value.typeId()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        return "null";
    case QMetaType::Bool:
        return value.toBool() ? "true" : "false";
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::Short:
        return QByteArray::number(value.toLongLong());
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return QByteArray::number(value.toULongLong());
    case QMetaType::Double:
    case QMetaType::Float: {
        const double number = value.toDouble();
        return std::isfinite(number) ? QByteArray::number(number, 'g', QLocale::FloatingPointShortest) : "null";
    }
    case QMetaType::QString:
        return jsonString(value.toString());
    default: // anything else as Qt's JSON sees it
        return QJsonDocument(QJsonArray{QJsonValue::fromVariant(value)})
            .toJson(QJsonDocument::Compact)
            .sliced(1)
            .chopped(1);
    }
}

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// A table's stamp: its inputs stand for the scenario when the caller gave none.
ExportStamp tableStamp(const DataTable& table, const ExportStamp& stamp)
{
    if (!stamp.scenario.isEmpty() || table.inputs.isEmpty())
        return stamp;
    ExportStamp withInputs = ExportStamp::forScenario(table.inputs);
    withInputs.generator = stamp.generator;
    return withInputs;
}

QByteArray header(const DataTable& table, TableWriter::Format format, const ExportStamp& stamp)
{
    if (format == TableWriter::Format::Csv) {
        QByteArrayList fields;
        for (const QString& column : table.columns)
            fields << csvField(column);
        return stamp.csvComment() + fields.join(',') + "\r\n";
    }
    QByteArray scenario = compact(QJsonDocument::fromJson(stamp.scenario).object());
    return "{\n    \"generator\": " + jsonString(stamp.generator) + ",\n    \"scenario\": " + scenario +
           ",\n    \"name\": " + jsonString(table.name) + ",\n    \"columns\": " +
           QJsonDocument(QJsonArray::fromStringList(table.columns)).toJson(QJsonDocument::Compact) +
           ",\n    \"inputs\": " + compact(table.inputs) + ",\n    \"sources\": " + compact(table.sources) +
           ",\n    \"rows\": [";
}

void appendRow(QByteArray& out, const QVariantList& row, TableWriter::Format format, const QByteArrayList& keys,
               bool first)
{
    if (format == TableWriter::Format::Csv) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (i > 0)
                out += ',';
            out += csvField(row.at(i));
        }
        out += "\r\n";
        return;
    }
    out += first ? "\n        {" : ",\n        {";
    for (qsizetype i = 0; i < row.size() && i < keys.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += keys.at(i);
        out += jsonValue(row.at(i));
    }
    out += '}';
}

} // namespace

std::optional<TableWriter::Format> TableWriter::formatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    if (suffix == QLatin1String("json"))
        return Format::Json;
    return std::nullopt;
}

bool TableWriter::write(const DataTable& table, Format format, QIODevice* out, const ExportStamp& stamp, QString* error,
                        const Progress& progress, bool* cancelled)
{
    if (cancelled)
        *cancelled = false;
    QByteArrayList keys; // "\"column\": " once, for every JSON row
    for (const QString& column : table.columns)
        keys << jsonString(column) + ": ";
    const qsizetype total = table.rowCount();
    QByteArray chunk = header(table, format, tableStamp(table, stamp));
    const auto flush = [&] {
        if (out->write(chunk) != chunk.size()) {
            *error = out->errorString();
            return false;
        }
        chunk.clear();
        return true;
    };
    const auto report = [&](qsizetype done) {
        if (!progress || progress(done, total))
            return true;
        if (cancelled)
            *cancelled = true;
        return false;
    };
    if (!report(0))
        return false;
    for (qsizetype i = 0; i < total; ++i) {
        appendRow(chunk, table.row(i), format, keys, i == 0);
        if (chunk.size() >= kChunkBytes && !flush())
            return false;
        if ((i + 1) % kProgressStep == 0 && i + 1 < total && !report(i + 1))
            return false;
    }
    if (format == Format::Json)
        chunk += total > 0 ? "\n    ]\n}\n" : "]\n}\n";
    return flush() && report(total);
}

QByteArray TableWriter::bytes(const DataTable& table, Format format, const ExportStamp& stamp)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QString error;
    write(table, format, &buffer, stamp, &error);
    return bytes;
}

TableWriter::Outcome TableWriter::save(const DataTable& table, const QString& path, const ExportStamp& stamp,
                                       QString* error, const Progress& progress)
{
    const std::optional<Format> format = formatFor(path);
    if (!format) {
        *error = tr("%1: choose a .csv or .json file name for data").arg(path);
        return Outcome::Failed;
    }
    QSaveFile file(path); // a cancelled or failed export leaves its temporary file removed and `path` untouched
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return Outcome::Failed;
    }
    bool cancelled = false;
    QString reason;
    if (!write(table, *format, &file, stamp, &reason, progress, &cancelled)) {
        file.cancelWriting();
        if (cancelled)
            return Outcome::Cancelled;
        *error = tr("cannot write %1: %2").arg(path, reason);
        return Outcome::Failed;
    }
    // Qt 6.4's QSaveFile::commit() misses a failed flush of its buffer (a full disk): flush first.
    if (!file.flush() || !file.commit()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return Outcome::Failed;
    }
    return Outcome::Written;
}

} // namespace ws
