// Layouts on the command line, run as real processes: place --layout-out then place --layout is the same
// placement (same JSON apart from the layout's origin, the same layout written again byte for byte), predict
// --layout uses the layout, and compare's deltas are the differences of two predict runs.
#include "tests/common/clirunner.h"
#include "tests/common/scenariofiles.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {
QJsonObject jsonOf(const wstest::CliRun& r)
{
    return QJsonDocument::fromJson(r.out).object();
}

using wstest::readAll;
using wstest::writeAll;

QByteArray scenario(const QString& model, const QByteArray& layout)
{
    return wstest::scenarioFile(model, layout);
}
} // namespace

class TestCliLayout : public QObject
{
    Q_OBJECT
private slots:
    void placeRoundTrips_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("llama-3.1-8b") << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3"};
        QTest::newRow("llama-3.1-70b, 4 wafers")
            << QStringList{"--model", "llama-3.1-70b", "--hardware", "wse3", "--precision", "bf16"};
        QTest::newRow("qwen3-32b column-major") << QStringList{
            "--model", "qwen3-32b", "--hardware", "wse3", "--precision", "bf16", "--order", "column-major"};
    }
    void placeRoundTrips()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString first = dir.filePath("L.json");
        const QString second = dir.filePath("L2.json");
        const auto a = wstest::runCli(QStringList{"place", "--json", "--layout-out", first} + args);
        QVERIFY2(a.exitCode == 0, a.err.constData());
        const auto b = wstest::runCli(QStringList{"place", "--json", "--layout", first, "--layout-out", second} + args);
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QJsonObject ja = jsonOf(a);
        QJsonObject jb = jsonOf(b);
        QCOMPARE(ja.take("layout_origin").toString(), QStringLiteral("placer"));
        QCOMPARE(jb.take("layout_origin").toString(), QStringLiteral("file"));
        QCOMPARE(jb, ja);
        QVERIFY(ja.value("max_core_bytes").toDouble() > 0);
        // The layout placed again is the same layout: the same regions, so the same bytes on every core.
        QCOMPARE(readAll(second), readAll(first));
    }

    void badLayoutsAreRefusedInOneLine_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("reason");
        QTest::newRow("other model") << QByteArray("\"model\": \"llama-3.1-8b\"")
                                     << QByteArray("\"model\": \"qwen3-32b\"") << "is for model";
        QTest::newRow("overlap") << QByteArray("[\n      0,\n      151,\n      0,")
                                 << QByteArray("[\n      0,\n      150,\n      0,") << "overlap";
        QTest::newRow("not json") << QByteArray("{") << QByteArray("(") << "not valid JSON";
    }
    void badLayoutsAreRefusedInOneLine()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString file = dir.filePath("L.json");
        const QStringList args{"--model", "llama-3.1-8b", "--hardware", "wse3"};
        QCOMPARE(wstest::runCli(QStringList{"place", "--layout-out", file} + args).exitCode, 0);
        QByteArray text = readAll(file);
        QVERIFY2(text.contains(from), text.left(400).constData());
        writeAll(file, text.replace(text.indexOf(from), from.size(), to));
        for (const QString& command : {QStringLiteral("place"), QStringLiteral("predict")}) {
            const auto r = wstest::runCli(QStringList{command, "--layout", file} + args);
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(QString::fromUtf8(r.err).contains(reason), r.err.constData());
        }
    }

    void compareIsTheDifferenceOfTwoPredictions()
    {
        QTemporaryDir dir;
        const QString layout = dir.filePath("B.json");
        const QStringList model{"--model", "llama-3.1-70b", "--hardware", "wse3", "--precision", "bf16"};
        QCOMPARE(wstest::runCli(QStringList{"place", "--context", "4096", "--order", "row-major", "--bands", "3",
                                            "--layout-out", layout} +
                                model)
                     .exitCode,
                 0);
        writeAll(dir.filePath("A.waferscope"), scenario("llama-3.1-70b", {}));
        writeAll(dir.filePath("B.waferscope"), scenario("llama-3.1-70b", readAll(layout)));
        const auto c =
            wstest::runCli({"compare", dir.filePath("A.waferscope"), dir.filePath("B.waferscope"), "--json"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const auto pa = wstest::runCli(QStringList{"predict", "--json", "--context", "4096"} + model);
        const auto pb =
            wstest::runCli(QStringList{"predict", "--json", "--context", "4096", "--layout", layout} + model);
        QVERIFY2(pa.exitCode == 0 && pb.exitCode == 0, (pa.err + pb.err).constData());
        const QJsonObject a = jsonOf(pa);
        const QJsonObject b = jsonOf(pb);
        const QJsonObject delta = jsonOf(c).value("delta").toObject();
        for (const char* key : {"tokens_per_second_per_user", "ttft_ms", "ms_per_token", "devices",
                                "sram_headroom_bytes", "kv_capacity_tokens"}) {
            const double expected = b.value(key).toDouble() - a.value(key).toDouble();
            QVERIFY2(delta.contains(key), key);
            QVERIFY2(qAbs(delta.value(key).toDouble() - expected) <= 1e-9 * (1 + qAbs(expected)), key);
        }
        QVERIFY(delta.value("ms_per_token").toDouble() != 0.0);
        const QJsonObject phases = delta.value("breakdown").toObject();
        const QJsonObject ba = a.value("breakdown").toObject();
        const QJsonObject bb = b.value("breakdown").toObject();
        QVERIFY(!phases.isEmpty());
        for (auto it = phases.begin(); it != phases.end(); ++it) {
            const double expected = bb.value(it.key()).toDouble() - ba.value(it.key()).toDouble();
            QVERIFY2(qAbs(it.value().toDouble() - expected) <= 1e-9 * (1 + qAbs(expected)), qPrintable(it.key()));
        }
    }

    void shardedSweepMergesToTheWholeSweep_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("csv") << "--csv";
        QTest::newRow("json") << "--json";
    }
    void shardedSweepMergesToTheWholeSweep()
    {
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QStringList sweep{"sweep",
                                "--model",
                                "llama-3.1-8b",
                                "--hardware",
                                "wse3",
                                "--param",
                                "concurrency=1,2,4,8,16",
                                "--param",
                                "order=snake,column-major",
                                format};
        const auto whole = wstest::runCli(sweep);
        QVERIFY2(whole.exitCode == 0, whole.err.constData());
        QStringList merge{"sweep-merge"};
        for (const char* shard : {"2/3", "1/3", "3/3"}) {
            const auto part = wstest::runCli(sweep + QStringList{"--shard", shard});
            QVERIFY2(part.exitCode == 0, part.err.constData());
            const QString file = dir.filePath(QString::fromLatin1(shard).replace('/', '_'));
            writeAll(file, part.out);
            merge << file;
        }
        const auto merged = wstest::runCli(merge);
        QVERIFY2(merged.exitCode == 0, merged.err.constData());
        QCOMPARE(merged.out, whole.out);
        QVERIFY(whole.out.count('\n') >= (format == QLatin1String("--csv") ? 12 : 1));
        const auto bad = wstest::runCli(sweep + QStringList{"--shard", "4/3"});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err.count('\n'), 1);
    }

    void optimizeWritesAFasterLayout()
    {
        QTemporaryDir dir;
        const QString best = dir.filePath("best.json");
        const QStringList model{"--model", "llama-3.1-8b", "--hardware", "wse3"};
        const auto o = wstest::runCli(QStringList{"optimize", "--json", "--layout-out", best} + model);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QJsonObject r = jsonOf(o);
        QVERIFY(r.value("best_ms_per_token").toDouble() <= r.value("default_ms_per_token").toDouble());
        const auto p = wstest::runCli(QStringList{"predict", "--json", "--layout", best} + model);
        QVERIFY2(p.exitCode == 0, p.err.constData());
        QVERIFY(qAbs(jsonOf(p).value("ms_per_token").toDouble() - r.value("best_ms_per_token").toDouble()) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestCliLayout)
#include "tst_cli_layout.moc"
