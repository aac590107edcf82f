// Measured points on the comparison: the controller puts the shipped and the
// user's matching figures on each system (same model, hardware, devices and
// precision), the speed bars draw those at the chosen concurrency and the
// concurrency curves all of them, each with a tooltip naming its source; a bad
// user file is refused with the field named and adds nothing.
#include "app/common/presetlibrary.h"
#include "app/compare/comparecontroller.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/concurrencychart.h"
#include "views/compare/rangebarchart.h"

#include <QScatterSeries>
#include <QTest>

#include <algorithm>

using namespace ws;

namespace {
const views::ComparisonSystem* find(const views::ComparisonSnapshot& s, const QString& id)
{
    for (const auto& sys : s.systems)
        if (sys.hardwareId == id)
            return &sys;
    return nullptr;
}

const QByteArray kMine = R"({"id":"mine","kind":"reference","source":"my lab notebook p. 12","date":"2026-11-30",
 "rows":[{"label":"my 8 x H100","model":"llama-3.3-70b","hardware":"h100","devices":8,"precision":"bf16",
  "concurrency":1,"context":4096,"tokens_per_second_per_user":45}]})";
// A panel and its controller comparing Llama 3.3 70B on the default systems.
struct Llama70bComparison
{
    views::ComparisonPanel panel;
    ComparisonController controller;

    explicit Llama70bComparison(const PresetLibrary& presets) : controller(presets, &panel)
    {
        views::ComparisonSettings s = ComparisonController::defaultSettings();
        s.modelId = QStringLiteral("llama-3.3-70b");
        controller.setSettings(s);
    }
};
} // namespace

class TestCompareMeasured : public QObject
{
    Q_OBJECT

    const PresetLibrary m_presets{QString{}};

private slots:
    void shippedAndUserPointsReachTheCharts()
    {
        Llama70bComparison rig(m_presets);
        ComparisonController& controller = rig.controller;
        views::ComparisonPanel& panel = rig.panel;
        const views::ComparisonSystem* h100 = find(*controller.snapshot(), QStringLiteral("h100"));
        QVERIFY(h100 && h100->ok);
        QCOMPARE(h100->prediction.devices, 8);
        QCOMPARE(h100->measured.size(), size_t(6)); // OCI's sweep, concurrency 1 to 256
        // On the wafer, the one published Llama 3.3 70B figure is a frozen check row (check-2026-12,
        // Artificial Analysis' 2,314 tokens/s): shown on the chart like any published figure.
        const views::ComparisonSystem* wse3 = find(*controller.snapshot(), QStringLiteral("wse3"));
        QVERIFY(wse3 && wse3->measured.size() == 1);
        QCOMPARE(wse3->measured.front().role, MeasuredRole::Check);
        QCOMPARE(wse3->measured.front().value, 2314.0);

        QCOMPARE(controller.addMeasurements(kMine, QStringLiteral("mine.json")), QString());
        h100 = find(*controller.snapshot(), QStringLiteral("h100"));
        QCOMPARE(h100->measured.size(), size_t(7));
        QCOMPARE(h100->measured.back().origin, MeasuredOrigin::User);

        // The bar chart: OCI's concurrency-1 figure and mine on the H100 bar; on the Groq bar the development
        // row (270) and the check row (280, check-2026-12); on the WSE-3 bar the check row (2,314); nothing
        // elsewhere.
        const auto& bars = panel.speedChart()->bars();
        int h100Bar = -1;
        int groqBar = -1;
        int waferBar = -1;
        for (size_t i = 0; i < bars.size(); ++i) {
            if (bars[i].label.contains(QStringLiteral("H100")))
                h100Bar = int(i);
            else if (bars[i].label.contains(QStringLiteral("Groq")))
                groqBar = int(i);
            else if (bars[i].label.contains(QStringLiteral("WSE-3")))
                waferBar = int(i);
            else
                QVERIFY2(bars[i].measured.empty(), qPrintable(bars[i].label));
        }
        QVERIFY(h100Bar >= 0 && groqBar >= 0 && waferBar >= 0);
        QCOMPARE(bars[size_t(groqBar)].measured.size(), size_t(2));
        QCOMPARE(bars[size_t(groqBar)].measured[0].value, 280.0); // files in name order: check-2026-12 first
        QCOMPARE(bars[size_t(groqBar)].measured[1].value, 270.0);
        QCOMPARE(bars[size_t(waferBar)].measured.size(), size_t(1));
        QCOMPARE(bars[size_t(waferBar)].measured[0].value, 2314.0);
        const auto& marks = bars[size_t(h100Bar)].measured;
        QCOMPARE(marks.size(), size_t(2));
        QCOMPARE(marks[0].value, 58.64);
        QCOMPARE(marks[1].value, 45.0);
        QVERIFY(marks[0].tooltip.contains(QStringLiteral("Oracle OCI")));
        QVERIFY(marks[1].tooltip.contains(QStringLiteral("my lab notebook p. 12")));
        QVERIFY(marks[1].tooltip.contains(QStringLiteral("2026-11-30")));
        QCOMPARE(panel.speedChart()->measuredSeries()->count(), 5);
        // Hovering the mark finds its tooltip.
        QCOMPARE(panel.speedChart()->measuredTipAt(QPointF(h100Bar, 45.0)), marks[1].tooltip);

        // The curves: all seven H100 points at their own concurrency.
        const auto& series = panel.concurrencyChart()->measuredSeries();
        QCOMPARE(series.size(), size_t(3)); // H100, Groq's two figures and the wafer's check figure
        auto h100Series = std::find_if(series.begin(), series.end(), [](const auto* x) { return x->count() == 7; });
        QVERIFY(h100Series != series.end());
        const QPointF at256 = (*h100Series)->at(5);
        QCOMPARE(at256.x(), 15.27);
        QCOMPARE(at256.y(), 15.27 * 256);
    }

    void aBadUserFileIsRefusedAndAddsNothing_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("says");
        QTest::newRow("not json") << QByteArray("{") << QStringLiteral("not a JSON object");
        QTest::newRow("unknown model")
            << QByteArray(
                   R"({"id":"x","kind":"reference","source":"s","rows":[{"model":"gpt-9","hardware":"h100","context":10,"tokens_per_second_per_user":5}]})")
            << QStringLiteral("rows[0].model");
        QTest::newRow("no speed")
            << QByteArray(
                   R"({"id":"x","kind":"reference","source":"s","rows":[{"model":"llama-3.3-70b","hardware":"h100","context":10}]})")
            << QStringLiteral("rows[0].tokens_per_second_per_user");
    }

    void aBadUserFileIsRefusedAndAddsNothing()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, says);
        Llama70bComparison rig(m_presets);
        ComparisonController& controller = rig.controller;
        const QString error = controller.addMeasurements(json, QStringLiteral("bad.json"));
        QVERIFY2(error.contains(QStringLiteral("bad.json")) && error.contains(says), qPrintable(error));
        QCOMPARE(find(*controller.snapshot(), QStringLiteral("h100"))->measured.size(), size_t(6));
    }
};

QTEST_MAIN(TestCompareMeasured)
#include "tst_comparemeasured.moc"
