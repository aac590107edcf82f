// waferscope-cli place --defect-rate R --seed S, run as a real process. The rate is
// the fraction of physical cores that are dead on every wafer (each wafer its own
// seeded draw); the defects object reports what the redundancy remap made of it,
// summed over the wafers.
#include "tests/common/clirunner.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

namespace {

using Run = wstest::CliRun;

Run runCli(const QStringList& args)
{
    return wstest::runCli(args);
}

QJsonObject place(const QString& model, const QString& rate, const QString& seed)
{
    const Run r = runCli({"place", "--model", model, "--hardware", "wse3", "--precision", "bf16", "--defect-rate", rate,
                          "--seed", seed, "--json"});
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

// WSE-3 preset: 762 columns in segments of 127 + 2 spares -> 774 x 1176 physical cores.
constexpr double kPhysicalCores = 774.0 * 1176.0;
constexpr double kUsableCores = 755.0 * 1174.0;

} // namespace

class TestCliDefects : public QObject
{
    Q_OBJECT
private slots:
    void noDefectsIsThePresetMesh()
    {
        const QJsonObject o = place("llama-3.1-8b", "0", "1");
        const QJsonObject d = o.value("defects").toObject();
        QCOMPARE(d.value("dead_cores").toDouble(), 0.0);
        QCOMPARE(d.value("spares_used").toDouble(), 0.0);
        QCOMPARE(d.value("unrepairable_segments").toDouble(), 0.0);
        QCOMPARE(d.value("usable_cores").toDouble(), o.value("devices").toInt() * kUsableCores);
    }

    void defectsAreRemapped()
    {
        const QJsonObject o = place("llama-3.1-70b", "0.001", "7");
        const int devices = o.value("devices").toInt();
        QVERIFY(devices >= 4);
        const QJsonObject d = o.value("defects").toObject();
        QCOMPARE(d.value("dead_cores").toDouble(), devices * std::round(0.001 * kPhysicalCores));
        // ~910 dead per wafer: nearly all repaired by spares, a few rows lost at most.
        QVERIFY(d.value("spares_used").toDouble() >= 0.9 * d.value("dead_cores").toDouble());
        // usable_cores counts every wafer: devices x the common usable rectangle, a little below the preset's.
        const double usable = d.value("usable_cores").toDouble();
        const double mesh =
            o.value("usable_mesh").toArray().at(0).toDouble() * o.value("usable_mesh").toArray().at(1).toDouble();
        QCOMPARE(usable, devices * mesh);
        QVERIFY(mesh <= kUsableCores && mesh >= 0.97 * kUsableCores);
        // One seed, one run; another seed, another wafer.
        QCOMPARE(place("llama-3.1-70b", "0.001", "7"), o);
        QVERIFY(place("llama-3.1-70b", "0.001", "8").value("defects").toObject().value("spares_used") !=
                d.value("spares_used"));
    }

    void anyRateUpToHalfIsHandled_data()
    {
        QTest::addColumn<QString>("rate");
        for (const char* r : {"0.0001", "0.002", "0.01", "0.05", "0.2", "0.5"})
            QTest::newRow(r) << QString::fromLatin1(r);
    }
    void anyRateUpToHalfIsHandled()
    {
        QFETCH(QString, rate);
        const Run r = runCli(
            {"place", "--model", "llama-3.1-8b", "--hardware", "wse3", "--defect-rate", rate, "--seed", "3", "--json"});
        QVERIFY(!r.crashed);
        if (r.exitCode == 0) {
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            const QJsonObject d = o.value("defects").toObject();
            const int devices = o.value("devices").toInt();
            QCOMPARE(d.value("dead_cores").toDouble(), devices * std::round(rate.toDouble() * kPhysicalCores));
            // Capacity lost is what the preset offers minus what is left; never negative.
            QVERIFY(d.value("usable_cores").toDouble() <= devices * kUsableCores);
        } else {
            // The wafer has nothing left to place on: say so, with what was lost.
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(r.err.contains("no usable cores") || r.err.contains("rows lost") ||
                         r.err.contains("does not fit") || r.err.contains("wafers"),
                     r.err.constData());
        }
    }

    void badRatesAreRejected_data()
    {
        QTest::addColumn<QString>("rate");
        QTest::newRow("negative") << "-0.1";
        QTest::newRow("above half") << "0.6";
        QTest::newRow("not a number") << "lots";
        QTest::newRow("nan") << "nan";
    }
    void badRatesAreRejected()
    {
        QFETCH(QString, rate);
        const Run r =
            runCli({"place", "--model", "llama-3.1-8b", "--hardware", "wse3", "--defect-rate", rate, "--json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliDefects)
#include "tst_cli_defects.moc"
