// waferscope-cli accuracy, run as a real process: the statistics table per group (calibration, development,
// check) and device kind, with attempted and predicted counts that agree with the rows it lists; --group and --set
// narrow it; a bad group or set exits 2 with one line on stderr.
#include "tests/common/clirunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {
QJsonObject runJson(const QStringList& args)
{
    const wstest::CliRun r = wstest::runCli(QStringList{"accuracy", "--json"} + args);
    if (r.exitCode != 0 || !r.err.isEmpty())
        return {};
    return QJsonDocument::fromJson(r.out).object();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
} // namespace

class TestCliAccuracy : public QObject
{
    Q_OBJECT
private slots:
    void tableAgreesWithItsRows()
    {
        const QJsonObject o = runJson({});
        QVERIFY(!o.isEmpty());
        QVERIFY(!o.value(QStringLiteral("revision")).toString().isEmpty());
        const QJsonArray groups = o.value(QStringLiteral("groups")).toArray();
        const QJsonArray rows = o.value(QStringLiteral("rows")).toArray();
        QCOMPARE(groups.size(), 12); // 3 groups x (wafer, gpu, lpu, all)
        QVERIFY(rows.size() >= 40);
        for (const QJsonValue& gv : groups) {
            const QJsonObject g = gv.toObject();
            const QString group = g.value(QStringLiteral("group")).toString();
            const QString kind = g.value(QStringLiteral("kind")).toString();
            int attempted = 0, predicted = 0, inside = 0;
            std::vector<double> errors;
            for (const QJsonValue& rv : rows) {
                const QJsonObject r = rv.toObject();
                if (r.value(QStringLiteral("group")).toString() != group ||
                    (kind != QLatin1String("all") && r.value(QStringLiteral("kind")).toString() != kind))
                    continue;
                ++attempted;
                const bool ok = r.value(QStringLiteral("predicted")).toBool();
                predicted += ok ? 1 : 0;
                inside += ok && r.value(QStringLiteral("inside")).toBool() ? 1 : 0;
                // A miss counts as 100 % error.
                errors.push_back(ok ? std::abs(r.value(QStringLiteral("relative_error")).toDouble()) : 1.0);
                if (!ok)
                    QVERIFY(!r.value(QStringLiteral("why")).toString().isEmpty());
            }
            const QByteArray where = (group + QLatin1Char('/') + kind).toUtf8();
            QVERIFY2(g.value(QStringLiteral("attempted")).toInt() == attempted, where.constData());
            QVERIFY2(g.value(QStringLiteral("predicted")).toInt() == predicted, where.constData());
            QVERIFY2(g.value(QStringLiteral("inside")).toInt() == inside, where.constData());
            if (attempted > 0)
                QVERIFY2(std::abs(g.value(QStringLiteral("median_abs_error")).toDouble() - median(errors)) < 1e-9,
                         where.constData());
        }
    }

    void groupNarrowsTheTable()
    {
        const QJsonObject o = runJson({QStringLiteral("--group"), QStringLiteral("development")});
        const QJsonArray groups = o.value(QStringLiteral("groups")).toArray();
        QCOMPARE(groups.size(), 4);
        for (const QJsonValue& g : groups)
            QCOMPARE(g.toObject().value(QStringLiteral("group")).toString(), QStringLiteral("development"));
        for (const QJsonValue& r : o.value(QStringLiteral("rows")).toArray())
            QCOMPARE(r.toObject().value(QStringLiteral("group")).toString(), QStringLiteral("development"));
        QVERIFY(o.value(QStringLiteral("rows")).toArray().size() >= 20);
    }

    // --set: one measurement file's rows (a frozen check set on its own); an unknown id exits 2 with one line.
    void setNarrowsTheRows()
    {
        const QJsonObject o = runJson({QStringLiteral("--set"), QStringLiteral("check-2026-12b")});
        const QJsonArray rows = o.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 4); // as frozen in cf674d6 (check-manifest.sha256)
        for (const QJsonValue& r : rows) {
            QCOMPARE(r.toObject().value(QStringLiteral("set")).toString(), QStringLiteral("check-2026-12b"));
            QCOMPARE(r.toObject().value(QStringLiteral("group")).toString(), QStringLiteral("check"));
        }
        const QJsonObject all = o.value(QStringLiteral("groups")).toArray().last().toObject(); // check / all
        QCOMPARE(all.value(QStringLiteral("attempted")).toInt(), 4);
        QCOMPARE(runJson({}).value(QStringLiteral("rows")).toArray().size() > rows.size(), true);
        const wstest::CliRun bad = wstest::runCli({"accuracy", "--set", "check-1999-01"});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err.count('\n'), 1);
        QVERIFY(bad.out.isEmpty());
    }

    // --engine: only the rows the mesh engine can time (WaferLLM's kernel rows, a P x P grid each), timed by it.
    void engineTimesTheKernelRows()
    {
        QCOMPARE(runJson({}).value(QStringLiteral("timed_by")).toString(), QStringLiteral("closed forms"));
        const QJsonObject o =
            runJson({QStringLiteral("--engine"), QStringLiteral("--group"), QStringLiteral("development")});
        QCOMPARE(o.value(QStringLiteral("timed_by")).toString(), QStringLiteral("mesh engine"));
        const QJsonArray rows = o.value(QStringLiteral("rows")).toArray();
        QVERIFY(!rows.isEmpty());
        for (const QJsonValue& rv : rows) {
            const QJsonObject r = rv.toObject();
            const QByteArray label = r.value(QStringLiteral("label")).toString().toUtf8();
            QVERIFY2(label.contains(" x "), label.constData()); // a grid row
            QVERIFY2(r.value(QStringLiteral("predicted")).toBool(), label.constData());
            QVERIFY(r.value(QStringLiteral("prediction")).toDouble() > 0);
        }
        const QJsonObject all = o.value(QStringLiteral("groups")).toArray().last().toObject(); // development / all
        QCOMPARE(all.value(QStringLiteral("attempted")).toInt(), int(rows.size()));
    }

    void textTableAndBadGroup()
    {
        const wstest::CliRun text = wstest::runCli({"accuracy"});
        QCOMPARE(text.exitCode, 0);
        for (const char* word : {"calibration", "development", "check", "attempted", "predicted", "median |err|"})
            QVERIFY2(text.out.contains(word), word);
        const wstest::CliRun bad = wstest::runCli({"accuracy", "--group", "held-out"});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err.count('\n'), 1);
        QVERIFY(bad.out.isEmpty());
    }
};

QTEST_MAIN(TestCliAccuracy)
#include "tst_cli_accuracy.moc"
