#pragma once
// Scenario files for the tests that run layouts through the CLI and the window: reading and writing a whole
// file, and a .waferscope scenario of a model on wse3 at bf16 and 4096 tokens of context, with a layout
// (as `place --layout-out` writes it) when given.

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTest>

namespace wstest {

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

inline void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

inline QByteArray scenarioFile(const QString& model, const QByteArray& layout)
{
    QJsonObject root{{"version", layout.isEmpty() ? 1 : 2},
                     {"model", QJsonObject{{"preset", model}}},
                     {"hardware", QJsonObject{{"preset", "wse3"}}},
                     {"precision", "bf16"},
                     {"workload", QJsonObject{{"context_tokens", 4096}}}};
    if (!layout.isEmpty())
        root.insert("layout", QJsonDocument::fromJson(layout).object());
    return QJsonDocument(root).toJson();
}

} // namespace wstest
