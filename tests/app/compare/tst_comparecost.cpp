// The comparison's cost chart, hourly cost editing, published API prices, speculative decoding per system and
// the race's marks, through the controller and the real panel: the chart's points are the engine's cost
// curve (hourly cost / tokens per hour at each concurrency), a user's hourly cost replaces the preset's and
// "reset" brings it back, Groq's published API price sits beside its curve with its source, switching
// speculative decoding on for one system changes that system only and says what it gained or lost, a draft
// with another vocabulary is refused, and a published figure at the race's concurrency becomes a mark on
// its lane.
#include "app/common/presetlibrary.h"
#include "app/compare/comparecontroller.h"
#include "engine/predict/tokencost.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/costchart.h"
#include "views/compare/racelane.h"
#include "views/compare/speculativepanel.h"
#include "views/compare/tokenrace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <cmath>

using namespace ws;

namespace {
const views::ComparisonSystem* find(const views::ComparisonSnapshot& s, const QString& id)
{
    const auto it = std::ranges::find(s.systems, id, &views::ComparisonSystem::hardwareId);
    return it == s.systems.end() ? nullptr : &*it;
}

const views::CostCurve* curveOf(const views::CostChart& chart, const QString& id)
{
    const auto it = std::ranges::find(chart.curves(), id, &views::CostCurve::hardwareId);
    return it == chart.curves().end() ? nullptr : &*it;
}

// Writes `data` through the controller's chart exporter to `path` and returns the file's bytes.
QByteArray exported(const ComparisonController& controller, QWidget* content, const views::ChartData& data,
                    const QString& path)
{
    QString error;
    if (!controller.exportTo(content, data, QStringLiteral("chart"), path, 1, &error))
        return error.toUtf8();
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

class TestCompareCost : public QObject
{
    Q_OBJECT

    const PresetLibrary m_presets{QString{}};

private slots:
    void costChartPointsAreTheEngines()
    {
        views::ComparisonPanel panel;
        ComparisonController controller(m_presets, &panel);
        controller.recompute();
        const auto snap = controller.snapshot();
        int curves = 0;
        for (const views::ComparisonSystem& sys : snap->systems) {
            QVERIFY2(sys.ok, qPrintable(sys.error));
            const Prediction& p = sys.prediction;
            QVERIFY(p.cost.known);
            const views::CostCurve* c = curveOf(*panel.costChart(), sys.hardwareId);
            QVERIFY(c);
            ++curves;
            const std::vector<CostPoint> engine = costCurve(p);
            QCOMPARE(c->points.size(), engine.size());
            for (size_t i = 0; i < engine.size(); ++i) {
                QCOMPARE(c->points[i].usdPerMillionTokens, engine[i].usdPerMillionTokens);
                QCOMPARE(c->points[i].tokensPerSecondPerUser, engine[i].tokensPerSecondPerUser);
                // usd per million = hourly cost of all devices / (aggregate tokens/s x 3,600) x 1e6
                QVERIFY(std::abs(engine[i].usdPerMillionTokens /
                                     (p.cost.hourlyUsd / (engine[i].aggregateTokensPerSecond * 3600) * 1e6) -
                                 1) < 1e-12);
            }
            QCOMPARE(c->hourlyUsd, p.cost.hourlyUsd);
            QVERIFY(!c->hourlySource.isEmpty());
        }
        QCOMPARE(curves, int(snap->systems.size()));
        QCOMPARE(panel.costChart()->lines().size(), size_t(curves));
        const views::ChartData data = panel.costChart()->chartData();
        QCOMPARE(data.columns.at(3), QStringLiteral("usd_per_million_tokens"));
        QVERIFY(!data.rows.isEmpty());
    }

    void hourlyCostIsEditableAndResets()
    {
        views::ComparisonPanel panel;
        ComparisonController controller(m_presets, &panel);
        controller.recompute();
        views::CostChart* chart = panel.costChart();
        const views::ComparisonSystem* before = find(*controller.snapshot(), QStringLiteral("h100"));
        QVERIFY(before);
        const double preset = before->presetHourlyUsdPerDevice;
        const double beforeCost = before->prediction.cost.usdPerMillionTokens;
        QVERIFY(preset > 0);
        chart->systemBox()->setCurrentIndex(chart->systemBox()->findData(QStringLiteral("h100")));
        QCOMPARE(chart->hourlyBox()->value(), preset);
        chart->hourlyBox()->setValue(preset * 2);
        const views::ComparisonSystem* after = find(*controller.snapshot(), QStringLiteral("h100"));
        QCOMPARE(controller.settings().hourlyUsdPerDevice.value(QStringLiteral("h100")), preset * 2);
        QVERIFY(std::abs(after->prediction.cost.hourlyUsd - preset * 2 * after->prediction.devices) < 1e-9);
        QVERIFY(std::abs(after->prediction.cost.usdPerMillionTokens / beforeCost - 2) < 1e-9);
        QVERIFY(QString::fromStdString(after->prediction.cost.source).startsWith(QStringLiteral("your setting")));
        // Other systems keep the preset's figure.
        const views::ComparisonSystem* b200 = find(*controller.snapshot(), QStringLiteral("b200"));
        QCOMPARE(b200->prediction.cost.hourlyUsd, b200->presetHourlyUsdPerDevice * b200->prediction.devices);
        QCOMPARE(chart->systemBox()->currentData().toString(), QStringLiteral("h100")); // the editor stays put
        QVERIFY(chart->resetButton()->isEnabled());
        chart->resetButton()->click();
        QVERIFY(controller.settings().hourlyUsdPerDevice.isEmpty());
        QCOMPARE(find(*controller.snapshot(), QStringLiteral("h100"))->prediction.cost.usdPerMillionTokens, beforeCost);
        QVERIFY(!chart->resetButton()->isEnabled());
    }

    void groqApiPriceBesideItsCurve()
    {
        views::ComparisonPanel panel;
        ComparisonController controller(m_presets, &panel); // default model: Llama 3.1 70B
        controller.recompute();
        const views::CostCurve* groq = curveOf(*panel.costChart(), QStringLiteral("groq-lpu"));
        QVERIFY(groq);
        QCOMPARE(groq->apiPrices.size(), size_t(1));
        QCOMPARE(groq->apiPrices[0].usdPerMillionOutputTokens, 0.99);
        QCOMPARE(panel.costChart()->priceLines().size(), size_t(1));
        QCOMPARE(panel.costChart()->priceLines()[0]->at(0).y(), 0.99);
        QVERIFY(curveOf(*panel.costChart(), QStringLiteral("h100"))->apiPrices.empty());
        // The meaning table's cost column names it too.
        bool found = false;
        for (int r = 0; r < panel.meaningTable()->rowCount(); ++r)
            if (auto* item = panel.meaningTable()->item(r, 6);
                item && item->text().contains(QStringLiteral("API $0.99")))
                found = item->toolTip().contains(QStringLiteral("colinmcnamara.com")) &&
                        item->text().contains(QStringLiteral("the price even at")) &&
                        item->toolTip().contains(QStringLiteral("users decoding at once"));
        QVERIFY(found);
        // Issue 28: where the cost would meet the price. Each concurrency on its own fewest chips: more users need
        // more chips for their KV caches, and one user costs what the single-user prediction costs.
        const std::vector<CostPoint>& scale = groq->atScale;
        QVERIFY(scale.size() > 8);
        QCOMPARE(scale[0].concurrency, 1);
        const views::ComparisonSystem* sys = find(*controller.snapshot(), QStringLiteral("groq-lpu"));
        QCOMPARE(scale[0].devices, sys->prediction.devices);
        QVERIFY(std::abs(scale[0].usdPerMillionTokens / sys->prediction.cost.usdPerMillionTokens - 1) < 1e-9);
        for (size_t i = 1; i < scale.size(); ++i) {
            QVERIFY(scale[i].concurrency > scale[i - 1].concurrency);
            QVERIFY(scale[i].devices > scale[i - 1].devices);
            QVERIFY(scale[i].usdPerMillionTokens < scale[i - 1].usdPerMillionTokens);
        }
        QVERIFY(curveOf(*panel.costChart(), QStringLiteral("h100"))->atScale.empty()); // no price, no need
    }

    void speculativeDecodingPerSystem()
    {
        views::ComparisonPanel panel;
        ComparisonController controller(m_presets, &panel);
        controller.recompute();
        views::ComparisonSettings s = controller.settings();
        s.modelId = QStringLiteral("qwen3-32b");
        controller.setSettings(s);
        const double wafer = find(*controller.snapshot(), QStringLiteral("wse3"))->prediction.tokensPerSecondPerUser;
        const double h100 = find(*controller.snapshot(), QStringLiteral("h100"))->prediction.tokensPerSecondPerUser;
        views::SpeculativePanel* spec = panel.speculativePanel();
        QCOMPARE(spec->rows().size(), controller.snapshot()->systems.size());
        const auto& row = spec->rows()[0];
        QCOMPARE(row.hardwareId, QStringLiteral("wse3"));
        QCOMPARE(row.tokens->value(), 4); // the sourced defaults
        QCOMPARE(row.acceptance->value(), 0.7);
        QVERIFY(row.enabled->toolTip().contains(QStringLiteral("[Cerebras-Oct2024]")));
        row.enabled->setChecked(true);
        const views::ComparisonSystem* w = find(*controller.snapshot(), QStringLiteral("wse3"));
        QVERIFY2(w->ok, qPrintable(w->error));
        QVERIFY(w->speculative);
        QCOMPARE(w->draftModelId, QStringLiteral("qwen3-0.6b"));
        QCOMPARE(w->plainTokensPerSecondPerUser, wafer);
        QVERIFY(std::abs(w->speculativeEffect.speedup - w->prediction.tokensPerSecondPerUser / wafer) < 1e-9);
        QCOMPARE(find(*controller.snapshot(), QStringLiteral("h100"))->prediction.tokensPerSecondPerUser, h100);
        const QString said = spec->rows()[0].effect->text();
        QVERIFY2(said.contains(w->speculativeEffect.slower() ? QStringLiteral("slower") : QStringLiteral("faster")),
                 qPrintable(said));
        // A draft with another vocabulary: that system is refused, with the reason.
        const auto& row2 = spec->rows()[0];
        row2.draft->setCurrentIndex(row2.draft->findData(QStringLiteral("llama-3.1-8b")));
        w = find(*controller.snapshot(), QStringLiteral("wse3"));
        QVERIFY(!w->ok);
        QVERIFY(w->error.contains(QStringLiteral("vocabulary")));
        QVERIFY(find(*controller.snapshot(), QStringLiteral("h100"))->ok);
    }

    void publishedFiguresMarkTheRace()
    {
        views::ComparisonPanel panel;
        views::TokenRace race;
        ComparisonController controller(m_presets, &panel, &race);
        controller.recompute();
        const QByteArray mine = R"({"id":"mine","kind":"reference","source":"my lab notebook p. 12","date":"2026-11-30",
 "rows":[{"label":"my 8 x H100","model":"llama-3.1-70b","hardware":"h100","devices":8,"precision":"bf16",
  "concurrency":1,"context":4096,"tokens_per_second_per_user":45},
  {"label":"my 8 x H100 at 4 users","model":"llama-3.1-70b","hardware":"h100","devices":8,"precision":"bf16",
  "concurrency":4,"context":4096,"tokens_per_second_per_user":40}]})";
        QCOMPARE(controller.addMeasurements(mine, QStringLiteral("mine.json")), QString());
        controller.setRaceText(QStringList{QStringLiteral("a"), QStringLiteral("b")}, QStringLiteral("test"));
        const auto systems = controller.raceSystems();
        const views::RaceSystem* h100 = nullptr;
        for (const auto& r : systems)
            if (r.pace.id == "h100")
                h100 = &r;
        QVERIFY(h100);
        bool mineMarked = false;
        for (const views::RaceMark& m : h100->marks) {
            QVERIFY(m.tokensPerSecondPerUser > 0);
            QVERIFY(m.tooltip.contains(QStringLiteral("Source:")));
            if (m.tooltip.contains(QStringLiteral("my lab notebook"))) {
                QCOMPARE(m.tokensPerSecondPerUser, 45.0); // the row at the race's concurrency, not the 4-user one
                mineMarked = true;
            }
        }
        QVERIFY(mineMarked);
        for (int i = 0; i < race.laneCount(); ++i)
            if (race.lane(i)->headerText().contains(QStringLiteral("H100")))
                QVERIFY(race.lane(i)->headerText().contains(QStringLiteral("published")));

        // The race and the cost chart export through the one chart exporter, figures and sources included.
        QTemporaryDir dir;
        const QByteArray raceText =
            exported(controller, &race, race.chartData(), dir.filePath(QStringLiteral("race.csv")));
        QVERIFY(raceText.contains("published"));
        QVERIFY(raceText.contains("my lab notebook"));
        const QByteArray costText = exported(controller, panel.costChart(), panel.costChart()->chartData(),
                                             dir.filePath(QStringLiteral("cost.csv")));
        QVERIFY(costText.contains("usd_per_million_tokens"));
        QVERIFY(costText.contains("api_price"));
        QString error;
        const QString costPng = dir.filePath(QStringLiteral("cost.png"));
        QVERIFY2(controller.exportTo(panel.costChart(), {}, QStringLiteral("Cost"), costPng, 1, &error),
                 qPrintable(error));
        QVERIFY(QFileInfo(costPng).size() > 1000);
    }
};

QTEST_MAIN(TestCompareCost)
#include "tst_comparecost.moc"
