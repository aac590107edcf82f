// waferscope-cli execute, run as a real process: the mesh engine's JSON for a
// preset layer (timing only) and for stories260K (values: the logits against
// the dense decoder's, the greedy ids), and exit 2 with one line on stderr for
// an unknown model, a layer out of range and a model that does not fit.
#include "tests/common/clirunner.h"
#include "tests/common/testmodels.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

namespace {
using Run = wstest::CliRun;

QJsonObject executeJson(const QStringList& args, Run& run)
{
    run = wstest::runCli(QStringList{"execute"} + args + QStringList{"--json"});
    return QJsonDocument::fromJson(run.out).object();
}

// The keys every run prints; the phases' engine cycles add up to the token's.
void checkRun(const QJsonObject& o)
{
    for (const char* key : {"cycles", "critical_path", "phases", "links", "busiest_cores"})
        QVERIFY2(o.contains(QLatin1String(key)), key);
    const double cycles = o.value("cycles").toDouble();
    QVERIFY(cycles > 0);
    double engine = 0, critical = 0;
    const QJsonArray phases = o.value("phases").toArray();
    QVERIFY(!phases.isEmpty());
    for (const auto& v : phases) {
        const QJsonObject p = v.toObject();
        QVERIFY(!p.value("name").toString().isEmpty());
        QVERIFY(p.value("closed_form_cycles").toDouble() >= 0);
        engine += p.value("engine_cycles").toDouble();
    }
    QVERIFY(std::fabs(engine - cycles) <= 1e-6 * cycles);
    for (const auto& v : o.value("critical_path").toArray())
        critical += v.toObject().value("cycles").toDouble();
    QVERIFY(std::fabs(critical - cycles) <= 1e-6 * cycles);
    QVERIFY(o.value("links").toObject().value("words").toDouble() > 0);
    QVERIFY(!o.value("links").toObject().value("busiest").toArray().isEmpty());
    const QJsonArray cores = o.value("busiest_cores").toArray();
    QVERIFY(!cores.isEmpty());
    const QJsonObject top = cores[0].toObject();
    QVERIFY(top.value("busy_cycles").toDouble() > 0);
    QVERIFY(std::fabs(top.value("busy_cycles").toDouble() + top.value("waiting_cycles").toDouble() +
                      top.value("idle_cycles").toDouble() - cycles) <= 1e-6 * cycles);
}
} // namespace

class TestCliExecute : public QObject
{
    Q_OBJECT
private slots:
    void timingLayer_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::newRow("wse2") << "wse2";
        QTest::newRow("wse3") << "wse3";
    }
    void timingLayer()
    {
        QFETCH(QString, hardware);
        Run r;
        const QJsonObject o = executeJson({"--model", "llama-3.1-8b", "--hardware", hardware, "--layer", "2"}, r);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        checkRun(o);
        QCOMPARE(o.value("mode").toString(), QStringLiteral("timing"));
        QVERIFY(!o.contains("engine_ids"));
        for (const auto& v : o.value("phases").toArray()) {
            QCOMPARE(v.toObject().value("layer").toInt(), 2);
            QVERIFY(v.toObject().value("closed_form_cycles").toDouble() > 0);
        }
    }

    void valuesStories()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        Run r;
        const QJsonObject o = executeJson({"--model", QString::fromStdString(path), "--hardware", "wse3", "--tokens",
                                           "8", "--prompt", "Once upon a time"},
                                          r);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        checkRun(o);
        QCOMPARE(o.value("mode").toString(), QStringLiteral("values"));
        const QJsonArray engineIds = o.value("engine_ids").toArray();
        QCOMPARE(engineIds.size(), 8);
        QCOMPARE(engineIds, o.value("dense_ids").toArray());
        QVERIFY(o.value("max_abs_logit").toDouble() > 0);
        QVERIFY(o.value("max_logit_difference").toDouble() <= 1e-5 * o.value("max_abs_logit").toDouble());
        QCOMPARE(o.value("prompt_tokens").toArray().size(), 5); // BOS + "Once upon a time"
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown model") << QStringList{"--model", "no-such-model", "--hardware", "wse3"}
                                       << "no-such-model";
        QTest::newRow("layer out of range")
            << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3", "--layer", "32"} << "out of range";
        QTest::newRow("does not fit") << QStringList{"--model", "llama-3.1-70b", "--hardware", "wse3", "--wafers", "1"}
                                      << "does not fit";
        QTest::newRow("not a wafer") << QStringList{"--model", "llama-3.1-8b", "--hardware", "h100"} << "wafer";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = wstest::runCli(QStringList{"execute"} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliExecute)
#include "tst_cli_execute.moc"
