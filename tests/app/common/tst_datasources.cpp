// DataSources: every shipped preset and measurement file, with the distinct
// "source" notes its numbers cite, read from the files compiled into the engine.
#include "app/common/datasources.h"
#include "tests/common/testmodels.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace ws;

class TestDataSources : public QObject
{
    Q_OBJECT

private slots:
    void sourcesInFindsNestedFieldsOnce()
    {
        const QByteArray json = R"({"source": "top",
            "fields": {"a": {"value": 1, "source": "paper A"}, "b": {"value": 2, "source": "paper B"},
                       "c": {"value": 3, "source": "paper A"}},
            "rows": [{"source": " paper C "}, {"x": [{"source": "paper D"}]}], "notes": "source: not a field"})";
        // Objects are walked in key order (fields, notes, rows, source), arrays in order.
        QCOMPARE(DataSources::sourcesIn(json), (QStringList{"paper A", "paper B", "paper C", "paper D", "top"}));
        QVERIFY(DataSources::sourcesIn("not json").isEmpty());
    }

    void everyShippedFileIsListed()
    {
        // The files in the source tree, by folder: each must appear once, in the order hardware, models, measurements.
        QStringList expected;
        const QDir resources(wstest::sourcePath(QStringLiteral("resources")));
        for (const char* folder : {"presets/hardware", "presets/models", "measurements"}) {
            QStringList names = QDir(resources.filePath(QLatin1String(folder))).entryList({"*.json"}, QDir::Files);
            names.sort();
            for (const QString& name : names)
                expected << QString(QLatin1String(folder)).remove(QStringLiteral("presets/")) + "/" + name;
        }
        QVERIFY(expected.size() > 30);
        QStringList listed;
        for (const DataSourceFile& file : DataSources::shipped()) {
            listed << file.file;
            QVERIFY2(!file.sources.isEmpty(), qPrintable(file.file)); // every shipped number is cited
            QVERIFY2(!file.title.isEmpty(), qPrintable(file.file));
        }
        QCOMPARE(listed, expected);
    }

    void citationsComeFromTheFiles()
    {
        const auto find = [](const QString& name) {
            for (const DataSourceFile& f : DataSources::shipped())
                if (f.file == name)
                    return f;
            return DataSourceFile{};
        };
        const DataSourceFile a100 = find("measurements/gpu-a100-sglang.json");
        QCOMPARE(a100.sources.size(), 1);
        QVERIFY(a100.sources.first().startsWith("He et al., WaferLLM, OSDI 2025, Table 4"));
        const DataSourceFile wse3 = find("hardware/wse3.json");
        QCOMPARE(wse3.title, QStringLiteral("Cerebras WSE-3 (CS-3)"));
        QVERIFY(wse3.sources.contains(
            "WaferLLM repository, run_sim.sh: application rectangle offset y = 1 [WaferLLM-repo] (docs/sources.md)"));
        // The same text read straight from the source tree's file.
        QFile file(wstest::sourcePath(QStringLiteral("resources/presets/hardware/wse3.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(DataSources::sourcesIn(file.readAll()), wse3.sources);
        QVERIFY(DataSources::allSources().contains(a100.sources.first()));
    }
};

QTEST_GUILESS_MAIN(TestDataSources)
#include "tst_datasources.moc"
