#include "engine/calibration/measurementdata.h"
#include "engine/predict/predictor.h"
#include "views/charts/chartcard.h"
#include "views/charts/chartformat.h"
#include "views/compare/calibrationchart.h"
#include "views/compare/calibrationpanel.h"
#include "views/compare/comparisondrivers.h"
#include "views/compare/comparisoninputmodel.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/comparisonsettingsbar.h"
#include "views/compare/concurrencychart.h"
#include "views/compare/rangebarchart.h"
#include "views/compare/rooflinechart.h"

#include <QAbstractAxis>
#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPointer>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace ws;
using namespace ws::views;

namespace {

struct Pick
{
    const char* id;
    int devices;
};

// A snapshot made of real engine predictions (embedded presets), as the app makes it.
std::shared_ptr<ComparisonSnapshot> makeSnapshot(const QString& modelId, int concurrency)
{
    auto s = std::make_shared<ComparisonSnapshot>();
    const ModelConfig* model = shippedModel(modelId.toStdString());
    if (!model)
        return nullptr;
    s->modelName = QString::fromStdString(model->name);
    s->settings.modelId = modelId;
    s->settings.workload.concurrency = concurrency;
    s->modelIds = {modelId};
    s->reading.source = QStringLiteral("seed 003");
    Workload w;
    w.concurrency = concurrency;
    w.answerCharacters = s->settings.workload.answerCharacters;
    const QColor colours[] = {Qt::red, Qt::green, Qt::blue};
    int i = 0;
    for (Pick p : {Pick{"wse3", 0}, Pick{"h100", 8}, Pick{"groq-lpu", 0}}) {
        ComparisonSystem sys;
        sys.hardwareId = QLatin1String(p.id);
        sys.label = QLatin1String(p.id);
        sys.color = colours[i++];
        PredictOptions o;
        o.devices = p.devices;
        auto pred = predict(*model, *shippedHardware(p.id), w, o);
        if (!pred && p.devices > 0) {
            o.devices = 0;
            pred = predict(*model, *shippedHardware(p.id), w, o);
        }
        sys.ok = pred.hasValue();
        if (sys.ok)
            sys.prediction = *pred;
        else
            sys.error = QString::fromStdString(pred.error().message());
        s->systems.push_back(sys);
    }
    s->inputs = {{QStringLiteral("Model"), QStringLiteral("Layers"), QString::number(model->layers),
                  QStringLiteral("HF config")},
                 {QStringLiteral("h100"), QStringLiteral("HBM bandwidth"), QStringLiteral("3.35 TB/s"),
                  QStringLiteral("facts §1.3")}};
    s->profiles = shippedProfiles();
    return s;
}

double setValue(QStackedBarSeries* series, int bar)
{
    // Bar `bar` is drawn by set `bar`, non-zero only in its own category.
    return series->barSets().at(bar)->at(bar);
}

std::pair<double, double> whiskerSpan(QLineSeries* w)
{
    double lo = 1e300, hi = -1e300;
    for (const QPointF& p : w->points()) {
        lo = std::min(lo, p.y());
        hi = std::max(hi, p.y());
    }
    return {lo, hi};
}

} // namespace

class TestComparisonPanel : public QObject
{
    Q_OBJECT
private slots:
    void showsPredictions_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("concurrency");
        QTest::newRow("llama-3.1-8b, one user") << QStringLiteral("llama-3.1-8b") << 1;
        QTest::newRow("llama-3.1-70b, one user") << QStringLiteral("llama-3.1-70b") << 1;
        QTest::newRow("llama-3.1-70b, 16 users") << QStringLiteral("llama-3.1-70b") << 16;
    }

    // In a shown window with the panel hidden (another mode), a new snapshot waits: the charts keep the last one
    // shown until the panel is shown, then show the new one. A panel outside a shown window fills at once.
    void hiddenPanelFillsWhenShown()
    {
        auto first = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        auto second = makeSnapshot(QStringLiteral("llama-3.1-70b"), 1);
        QVERIFY(first && second);
        QWidget window;
        window.resize(1400, 900);
        auto* panel = new ComparisonPanel(&window);
        panel->resize(1400, 900);
        panel->setSnapshot(first); // the window not shown yet: at once
        const auto speedOf = [&] { return panel->speedChart()->chartData().rows.value(0).value(1).toDouble(); };
        const double firstSpeed = speedOf();
        QVERIFY(firstSpeed > 0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        panel->hide();
        panel->setSnapshot(second);
        QCOMPARE(panel->snapshot(), std::shared_ptr<const ComparisonSnapshot>(second));
        QCOMPARE(speedOf(), firstSpeed); // not filled while hidden
        panel->show();
        const double secondSpeed = speedOf();
        QVERIFY(secondSpeed > 0 && secondSpeed != firstSpeed);
        QCOMPARE(secondSpeed, second->systems[0].prediction.tokensPerSecondPerUser);
    }

    // A chart that is never filled (a panel rebuilt while hidden and closed again) still owns every series it made:
    // each one is deleted with the widget, none is left without a parent (LeakSanitizer saw the measured marks leak).
    void unfilledChartOwnsItsSeries()
    {
        QPointer<QScatterSeries> measured;
        {
            RangeBarChart chart;
            const auto series = chart.findChildren<QScatterSeries*>();
            QCOMPARE(series.size(), 1);
            measured = series.front();
        }
        QVERIFY(measured.isNull());
    }

    // At the size a bar chart gets at 1366 x 768 (about 320 x 170 px), no system name is cut ("WSE-3" read "WS…",
    // "Groq LPU ×327" lost its last line): the labels' font shrinks until each label fits its category.
    void narrowBarChartKeepsNamesWhole_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("320 x 240") << QSize(320, 240);
        QTest::newRow("320 x 170") << QSize(320, 170);
    }

    void narrowBarChartKeepsNamesWhole()
    {
        QFETCH(QSize, size);
        QWidget window;
        window.resize(size);
        auto* layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* chart = new RangeBarChart;
        layout->addWidget(chart);
        const QFont before = chart->chart()->axes(Qt::Horizontal).front()->labelsFont();
        std::vector<RangeBar> bars;
        for (const auto& [name, count, value] :
             {std::tuple{"WSE-3", "×2", 2230.0}, std::tuple{"H100", "×8", 234.0}, std::tuple{"H200", "×8", 296.0},
              std::tuple{"B200", "×8", 394.0}, std::tuple{"Groq LPU", "×327", 343.0}}) {
            RangeBar b;
            b.label = QStringLiteral("%1 %2").arg(QString::fromUtf8(count), QString::fromUtf8(name));
            b.axisName = QString::fromUtf8(name);
            b.axisNote = QString::fromUtf8(count);
            b.color = Qt::darkCyan;
            b.value = value;
            b.low = value * 0.8;
            b.high = value * 1.2;
            bars.push_back(b);
        }
        chart->setBars(QStringLiteral("Time to first token (512-token prompt)"), QStringLiteral("ms"),
                       QStringLiteral("speed"), QStringLiteral("tokens_per_second"), bars);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto labels = [&] {
            QStringList texts;
            for (QGraphicsItem* item : chart->chartView()->scene()->items())
                if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
                    texts << text->toPlainText();
            return texts;
        };
        QTRY_VERIFY2(labels().join(QLatin1Char(' ')).contains(QStringLiteral("WSE-3")), qPrintable(labels().join('|')));
        for (const QString& text : labels())
            QVERIFY2(!text.contains(QStringLiteral("...")) && !text.contains(QChar(0x2026)), qPrintable(text));
        // The fit was needed here: the labels are smaller than the axis font they started at.
        QVERIFY(chart->chart()->axes(Qt::Horizontal).front()->labelsFont().pointSizeF() < before.pointSizeF());
    }

    // A log chart narrower than its legend's one row and too narrow for a legend at the right shows the legend as
    // text under the chart that wraps, each entry whole, and its title on two lines; wide, the chart's own legend.
    void narrowLogChartWrapsItsLegendAndTitle()
    {
        QWidget window;
        window.resize(320, 420);
        auto* layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* chart = new ConcurrencyChart;
        layout->addWidget(chart);
        std::vector<ConcurrencyCurve> curves;
        const QStringList names{QStringLiteral("2 × WSE-3"), QStringLiteral("8 × H100"), QStringLiteral("8 × H200"),
                                QStringLiteral("8 × B200"), QStringLiteral("327 × Groq LPU")};
        for (int i = 0; i < names.size(); ++i) {
            ConcurrencyCurve c;
            c.label = names[i];
            c.color = QColor::fromHsv(i * 60, 200, 220);
            for (int users = 1; users <= 64; users *= 2)
                c.points.push_back(
                    {users, 100.0 * (i + 1) / std::sqrt(double(users)), 100.0 * (i + 1) * std::sqrt(double(users))});
            curves.push_back(c);
        }
        chart->setCurves(curves);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* legendText = chart->findChild<QLabel*>();
        QVERIFY(legendText);
        QTRY_VERIFY(legendText->isVisible());
        QVERIFY(!chart->chart()->legend()->isVisible());
        for (const QString& name : names)
            QVERIFY2(legendText->text().contains(name.toHtmlEscaped()), qPrintable(legendText->text()));
        QVERIFY(legendText->height() > legendText->fontMetrics().height() * 1.5); // wrapped over lines
        QVERIFY2(chart->chart()->title().contains(QStringLiteral("<br/>")), qPrintable(chart->chart()->title()));

        window.resize(1400, 420);
        QTRY_VERIFY(chart->chart()->legend()->isVisible());
        QVERIFY(!legendText->isVisible());
        QVERIFY(!chart->chart()->title().contains(QStringLiteral("<br/>")));
    }

    void showsPredictions()
    {
        QFETCH(QString, model);
        QFETCH(int, concurrency);
        auto snap = makeSnapshot(model, concurrency);
        QVERIFY(snap);
        std::vector<const ComparisonSystem*> ok;
        for (const ComparisonSystem& s : snap->systems)
            if (s.ok)
                ok.push_back(&s);
        QVERIFY2(ok.size() >= 2, "the engine should predict at least two of the three systems");

        ComparisonPanel panel;
        panel.resize(1400, 900);
        panel.setSnapshot(snap);

        RangeBarChart* speed = panel.speedChart();
        QCOMPARE(speed->barSeries()->count(), qsizetype(ok.size()));
        QCOMPARE(speed->whiskers().size(), ok.size());
        for (int i = 0; i < int(ok.size()); ++i) {
            const Prediction& p = ok[size_t(i)]->prediction;
            QCOMPARE(setValue(speed->barSeries(), i), p.tokensPerSecondPerUser);
            const auto [lo, hi] = whiskerSpan(speed->whiskers()[size_t(i)]);
            QCOMPARE(lo, std::min(p.tokensPerSecondPerUserRange.low, p.tokensPerSecondPerUser));
            QCOMPARE(hi, std::max(p.tokensPerSecondPerUserRange.high, p.tokensPerSecondPerUser));
            QVERIFY(speed->bars()[size_t(i)].tooltip.contains(QString::fromStdString(p.profile)));

            QCOMPARE(setValue(panel.ttftChart()->barSeries(), i), p.ttftSeconds * 1000.0);
            const RangeBar& e = panel.energyChart()->bars()[size_t(i)];
            QCOMPARE(e.known, p.joulesPerToken > 0);
            if (e.known) {
                QCOMPARE(e.value, p.joulesPerToken);
                QVERIFY(e.low <= e.value && e.value <= e.high);
            } else {
                QCOMPARE(setValue(panel.energyChart()->barSeries(), i), 0.0);
                QVERIFY(panel.energyChart()->whiskers()[size_t(i)]->points().isEmpty());
            }
            // The energy chart's exported row: an unknown power leaves the value and its range empty (a CSV's
            // empty field, a JSON null), never the bar's drawn 0.
            const QVariantList row = panel.energyChart()->chartData().rows.at(i);
            for (int column = 1; column <= 3; ++column)
                QCOMPARE(row.at(column).isNull(), !e.known);

            // The concurrency curve: aggregate against per-user speed, for the concurrencies that fit.
            QLineSeries* line = panel.concurrencyChart()->lines()[size_t(i)];
            const auto fits = std::count_if(p.concurrencyCurve.begin(), p.concurrencyCurve.end(), [&](const auto& c) {
                return c.concurrency <= std::max(1, p.maxConcurrency);
            });
            QCOMPARE(line->count(), qsizetype(fits));
            QVERIFY(line->count() >= 1);
            // A curve cut short by memory is named in the chart's title with the count that fits.
            const QString capNote =
                ok[size_t(i)]->label + QStringLiteral(": ≤ ") + QString::number(std::max(1, p.maxConcurrency));
            QCOMPARE(panel.concurrencyChart()->chart()->title().contains(capNote),
                     fits < qsizetype(p.concurrencyCurve.size()));
            QCOMPARE(line->at(0).x(), p.concurrencyCurve[0].tokensPerSecondPerUser);
            QCOMPARE(line->at(0).y(), p.concurrencyCurve[0].aggregateTokensPerSecond);
        }

        // "What it means": one row per system plus the reader; the numbers are the engine's.
        QCOMPARE(panel.meaningTable()->rowCount(), int(ok.size()) + 1);
        const ChartData meaning = panel.meaningData();
        QCOMPARE(meaning.rows.size(), qsizetype(ok.size()));
        QCOMPARE(meaning.rows[0][3].toDouble(), ok[0]->prediction.agentWorkflowSeconds);
        QCOMPARE(meaning.rows[0][5].toDouble(), ok[0]->prediction.answerSecondsRange.low);
        QVERIFY(panel.meaningTable()->horizontalHeaderItem(4)->text().contains(QStringLiteral("1000")));
        // The cost column: dollars per million output tokens from the engine, every shipped preset has a cost.
        QCOMPARE(panel.meaningTable()->columnCount(), 7);
        QVERIFY(ok[0]->prediction.cost.known);
        QCOMPARE(meaning.rows[0][7].toDouble(), ok[0]->prediction.cost.usdPerMillionTokens);
        QVERIFY(panel.meaningTable()->item(0, 6)->toolTip().contains(
            QString::fromStdString(ok[0]->prediction.cost.source)));

        // Every chart hands its data over for export.
        QCOMPARE(speed->chartData().rows.size(), qsizetype(ok.size()));
        QCOMPARE(speed->chartData().rows[0][1].toDouble(), ok[0]->prediction.tokensPerSecondPerUser);
        QVERIFY(!panel.concurrencyChart()->chartData().rows.isEmpty());
    }

    // Each table shows the rows its export writes: row for row, the shown text is the exported value (a name
    // or source as is, a number to three figures, an unknown value as "–"). Pairs: (shown column, exported column).
    void tablesShowTheRowsTheyExport_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<int>("referenceRows"); // shown only, after the exported ones
        QTest::addColumn<QList<QPoint>>("pairs");
        QTest::newRow("range drivers") << QStringLiteral("drivers") << 0
                                       << QList<QPoint>{{0, 0}, {1, 1}, {2, 2}, {2, 3}, {3, 4}, {3, 5}, {4, 6}, {6, 8}};
        QTest::newRow("what it means") << QStringLiteral("meaning") << 1
                                       << QList<QPoint>{{0, 0}, {1, 1}, {6, 7}, {6, 8}, {6, 9}};
        QTest::newRow("inputs and sources")
            << QStringLiteral("inputs") << 0 << QList<QPoint>{{0, 0}, {1, 1}, {2, 2}, {3, 3}};
        QTest::newRow("calibration rows")
            << QStringLiteral("calibration") << 0 << QList<QPoint>{{0, 1}, {1, 3}, {2, 4}, {5, 7}};
    }

    void tablesShowTheRowsTheyExport()
    {
        QFETCH(QString, table);
        QFETCH(int, referenceRows);
        QFETCH(QList<QPoint>, pairs);
        auto snap = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        snap->systems.back().prediction.cost.known = false; // an unknown cost: "–" shown, empty exported
        ComparisonPanel panel;
        panel.setSnapshot(snap);
        CalibrationPanel* cal = panel.calibrationPanel();
        cal->profileList()->setCurrentRow(1);
        const QAbstractItemModel* shown = table == QLatin1String("drivers")   ? panel.rangeDrivers()->table()->model()
                                          : table == QLatin1String("meaning") ? panel.meaningTable()->model()
                                          : table == QLatin1String("inputs")  ? panel.inputModel()
                                                                              : cal->rowsTable()->model();
        ChartData data = table == QLatin1String("drivers")   ? panel.rangeDrivers()->chartData()
                         : table == QLatin1String("meaning") ? panel.meaningData()
                         : table == QLatin1String("inputs")  ? panel.inputData()
                                                             : cal->chart()->chartData();
        if (table == QLatin1String("calibration")) // the chart exports every profile, the table shows one
            data.rows.removeIf([&](const QVariantList& r) { return r.at(0).toString() != cal->selectedProfile(); });
        QVERIFY(!data.rows.isEmpty());
        QCOMPARE(shown->rowCount(), int(data.rows.size()) + referenceRows);
        bool unknownSeen = false;
        for (int r = 0; r < int(data.rows.size()); ++r) {
            QCOMPARE(data.rows[r].size(), data.columns.size());
            for (const QPoint& p : pairs) {
                const QString text = shown->index(r, p.x()).data().toString();
                const QVariant value = data.rows[r].at(p.y());
                const QString what = QStringLiteral("row %1, %2: \"%3\"").arg(r).arg(data.columns.at(p.y()), text);
                if (!value.isValid()) {
                    QVERIFY2(text == QStringLiteral("–"), qPrintable(what));
                    unknownSeen = true;
                } else if (value.typeId() == QMetaType::QString) {
                    QVERIFY2(text == value.toString(), qPrintable(what));
                } else {
                    QVERIFY2(text.contains(formatSignificant(value.toDouble())), qPrintable(what));
                }
            }
        }
        QCOMPARE(unknownSeen, table == QLatin1String("meaning"));
    }

    void readingSpeed_data()
    {
        QTest::addColumn<double>("cpmLow");
        QTest::addColumn<double>("cpmHigh");
        QTest::addColumn<double>("tpcLow");
        QTest::addColumn<double>("tpcHigh");
        QTest::addColumn<double>("expectLow");
        QTest::addColumn<double>("expectHigh");
        // 300 characters a minute = 5 characters a second; x 1.5 tokens = 7.5 tokens/s.
        QTest::newRow("seed defaults") << 300.0 << 500.0 << 1.5 << 2.0 << 7.5 << 500.0 / 60.0 * 2.0;
        QTest::newRow("one token per character") << 600.0 << 600.0 << 1.0 << 1.0 << 10.0 << 10.0;
    }

    void readingSpeed()
    {
        QFETCH(double, cpmLow);
        QFETCH(double, cpmHigh);
        QFETCH(double, tpcLow);
        QFETCH(double, tpcHigh);
        QFETCH(double, expectLow);
        QFETCH(double, expectHigh);
        ReadingSpeed r;
        r.charactersPerMinuteLow = cpmLow;
        r.charactersPerMinuteHigh = cpmHigh;
        const auto [lo, hi] = ComparisonPanel::readingTokensPerSecond(r, tpcLow, tpcHigh);
        QCOMPARE(lo, expectLow);
        QCOMPARE(hi, expectHigh);
    }

    void inputModelPassesTester()
    {
        ComparisonInputModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto snap = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        model.setInputs(snap->inputs);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(ComparisonInputModel::ColumnCount));
        QCOMPARE(model.index(1, ComparisonInputModel::Source).data().toString(), QStringLiteral("facts §1.3"));
        QVERIFY(model.index(1, ComparisonInputModel::Value)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("facts §1.3")));
        model.setInputs({});
        QCOMPARE(model.rowCount(), 0);
    }

    void failedSystemIsReportedNotDrawn()
    {
        auto snap = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        snap->systems[1].ok = false;
        snap->systems[1].error = QStringLiteral("needs 2 GPUs");
        ComparisonPanel panel;
        panel.resize(1200, 800);
        panel.show();
        panel.setSnapshot(snap);
        QCOMPARE(panel.speedChart()->barSeries()->count(), 2);
        QVERIFY(panel.statusLabel()->isVisible());
        QVERIFY(panel.statusLabel()->text().contains(QStringLiteral("needs 2 GPUs")));
        panel.setSnapshot(nullptr);
        QCOMPARE(panel.speedChart()->barSeries()->count(), 0);
        QCOMPARE(panel.inputModel()->rowCount(), 0);
    }

    // The breakdown of each range names its drivers, largest first, and the summary the one that moves the
    // prediction most; the roofline places every system's decode under its roofs.
    void rangeDriversAndRoofline()
    {
        auto snap = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        ComparisonPanel panel;
        panel.setSnapshot(snap);
        ComparisonDrivers* drivers = panel.rangeDrivers();
        int rows = 0;
        int systems = 0;
        for (const ComparisonSystem& sys : snap->systems) {
            if (!sys.ok)
                continue;
            ++systems;
            QVERIFY(!sys.prediction.rangeDrivers.empty());
            const RangeDriver& top = sys.prediction.rangeDrivers.front();
            QCOMPARE(drivers->table()->item(rows, 1)->text(), QString::fromStdString(top.input));
            QVERIFY(drivers->summary()->text().contains(
                QStringLiteral("<b>%1</b>").arg(QString::fromStdString(top.input))));
            rows += int(sys.prediction.rangeDrivers.size());
        }
        QCOMPARE(drivers->table()->rowCount(), rows);
        QCOMPARE(drivers->chartData().rows.size(), qsizetype(rows));
        RooflineChart* roof = panel.rooflineChart();
        QCOMPARE(int(roof->points().size()), systems);
        size_t i = 0;
        for (const ComparisonSystem& sys : snap->systems) {
            if (!sys.ok)
                continue;
            const Ceiling& c = sys.prediction.ceiling;
            const QPointF at = roof->points()[i]->at(0);
            QCOMPARE(at.x(), c.arithmeticIntensity());
            // Under both roofs: decode achieves no more than the compute roof nor bandwidth x intensity.
            QVERIFY(at.y() <= c.peakFlopsPerS * (1 + 1e-9));
            QVERIFY(at.y() <= c.peakBytesPerS * at.x() * (1 + 1e-9));
            QVERIFY(roof->pointTip(i).contains(sys.label));
            ++i;
        }
        panel.setSnapshot(nullptr);
        QCOMPARE(drivers->table()->rowCount(), 0);
        QVERIFY(roof->points().empty());
    }

    void calibrationShowsProfiles()
    {
        auto snap = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        QVERIFY(!snap->profiles.empty());
        ComparisonPanel panel;
        panel.setSnapshot(snap);
        CalibrationPanel* cal = panel.calibrationPanel();
        QCOMPARE(cal->profileList()->count(), int(snap->profiles.size()));
        QCOMPARE(cal->chart()->scatters().size(), snap->profiles.size());
        for (size_t i = 0; i < snap->profiles.size(); ++i) {
            cal->profileList()->setCurrentRow(int(i));
            QCOMPARE(cal->rowsTable()->rowCount(), int(snap->profiles[i].rows.size()));
            QCOMPARE(cal->constantsTable()->rowCount(), int(snap->profiles[i].constants.size()));
        }
        const CalibrationRow& first = snap->profiles[0].rows.at(0);
        QCOMPARE(cal->chart()->scatters()[0]->at(0).x(), first.observed);
        QCOMPARE(cal->chart()->scatters()[0]->at(0).y(), first.predicted);
        QVERIFY(cal->chart()->chartData().rows.size() >= qsizetype(snap->profiles[0].rows.size()));
    }

    void settingsEditsAreSent()
    {
        auto snap = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        ComparisonPanel panel;
        panel.setSnapshot(snap);
        QSignalSpy spy(&panel, &ComparisonPanel::settingsChanged);
        panel.settingsBar()->concurrencySpin()->setValue(32);
        QVERIFY(spy.wait(2000));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<ComparisonSettings>().workload.concurrency, 32);
        // Showing a new snapshot does not echo a change back.
        panel.setSnapshot(snap);
        QTest::qWait(300);
        QCOMPARE(spy.count(), 1);
    }

    void exportButtonAsksTheApp()
    {
        auto snap = makeSnapshot(QStringLiteral("llama-3.1-8b"), 1);
        ComparisonPanel panel;
        panel.resize(1200, 800);
        panel.show();
        panel.setSnapshot(snap);
        QSignalSpy spy(&panel, &ComparisonPanel::exportRequested);
        auto* card = qobject_cast<ChartCard*>(panel.speedChart()->parentWidget());
        QVERIFY(card);
        card->exportButton()->click();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<QWidget*>(), panel.speedChart());
        QCOMPARE(spy.at(0).at(1).value<ChartData>().name, QStringLiteral("tokens_per_second_per_user"));
    }
};

QTEST_MAIN(TestComparisonPanel)
#include "tst_comparisonpanel.moc"
