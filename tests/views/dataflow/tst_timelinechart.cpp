// TimelineChart: one bar per phase part (compute, allreduce, forwarding) of
// an engine schedule, rows by layer, a cursor at the animation time, and a
// click that scrubs to the time under the mouse. A prefill: its chunks as a
// staircase through the layers under a band that spans the prompt.
#include "views/dataflow/timelinechart.h"

#include "tests/views/smallschedule.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QSignalSpy>
#include <QtTest>

using namespace ws;
using namespace ws::views;

class TestTimelineChart : public QObject
{
    Q_OBJECT

private slots:
    void barsCountPhaseParts();
    void rowsFollowLayers();
    void clickScrubs_data();
    void clickScrubs();
    void toolTipNamesPhase();
    void emptySchedule();
    void shortBarsStayVisible();
    void prefillShowsThePromptsBand();
    void prefillToolTipNamesTheChunk();
    void hiddenCursorMovesWhenShown();
};

void TestTimelineChart::barsCountPhaseParts()
{
    const auto schedule = ws::testing::smallSchedule();
    int compute = 0, reduce = 0, forward = 0;
    for (const Phase& p : schedule->phases) {
        if (!p.computes) {
            ++forward;
            continue;
        }
        compute += p.computeEndCycle > p.startCycle;
        reduce += p.endCycle > p.computeEndCycle;
    }
    QVERIFY(compute > 0 && reduce > 0 && forward > 0);
    TimelineChart chart;
    chart.setSchedule(schedule);
    QCOMPARE(chart.bandPointCount(TimelineChart::Band::Compute), 4 * compute);
    QCOMPARE(chart.bandPointCount(TimelineChart::Band::Allreduce), 4 * reduce);
    QCOMPARE(chart.bandPointCount(TimelineChart::Band::Forward), 4 * forward);
}

void TestTimelineChart::rowsFollowLayers()
{
    const auto schedule = ws::testing::smallSchedule();
    TimelineChart chart;
    chart.setSchedule(schedule);
    QCOMPARE(chart.rowCount(), 4 + 2);
    for (const Phase& p : schedule->phases) {
        if (p.layer >= 0)
            QCOMPARE(chart.rowOf(p), p.layer + 1);
        else if (p.kind == PhaseKind::Embedding)
            QCOMPARE(chart.rowOf(p), 0);
        else
            QCOMPARE(chart.rowOf(p), 5);
    }
    // The axis names layers, not rows, as the heatmap does: the first and last layer at their rows (it read 0 and 5
    // here, the ends of its range, as if there were six layers; a mesh engine run of layer 0 showed it at "1").
    const auto labels = [&chart] {
        QStringList out;
        (void)chart.bandPointCount(TimelineChart::Band::Compute); // lays the bars and the axes out (hidden)
        auto* axis = qobject_cast<QCategoryAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
        if (axis)
            for (const QString& label : axis->categoriesLabels())
                out << QStringLiteral("%1@%2").arg(label).arg(axis->endValue(label));
        return out;
    };
    QCOMPARE(labels(), QStringList({QStringLiteral("L0@1"), QStringLiteral("L3@4")}));
    // One layer alone (the mesh engine's): its own number at its row, once.
    auto one = std::make_shared<TokenSchedule>(*schedule);
    std::erase_if(one->phases, [](const Phase& p) { return p.layer != 2; });
    QVERIFY(!one->phases.empty());
    chart.setSchedule(one);
    QCOMPARE(labels(), QStringList({QStringLiteral("L2@3")}));
    chart.setSchedule(nullptr);
    QVERIFY(labels().isEmpty());
}

void TestTimelineChart::clickScrubs_data()
{
    QTest::addColumn<double>("fraction");
    QTest::newRow("a tenth") << 0.1;
    QTest::newRow("half") << 0.5;
    QTest::newRow("near the end") << 0.9;
}

void TestTimelineChart::clickScrubs()
{
    QFETCH(double, fraction);
    const auto schedule = ws::testing::smallSchedule();
    TimelineChart chart;
    chart.resize(900, 300);
    chart.setSchedule(schedule);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QSignalSpy seek(&chart, &TimelineChart::seekRequested);
    const double cycle = fraction * schedule->totalCycles;
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, chart.positionOf(cycle, 2));
    QCOMPARE(seek.count(), 1);
    // Within two pixels' worth of cycles.
    const double cyclesPerPixel = schedule->totalCycles / chart.chart()->plotArea().width();
    QVERIFY2(std::abs(seek.at(0).at(0).toDouble() - cycle) <= 2 * cyclesPerPixel,
             qPrintable(QStringLiteral("%1 vs %2").arg(seek.at(0).at(0).toDouble()).arg(cycle)));
}

void TestTimelineChart::toolTipNamesPhase()
{
    const auto schedule = ws::testing::smallSchedule();
    TimelineChart chart;
    chart.resize(1200, 300);
    chart.setSchedule(schedule);
    // The longest phase of layer 1 is wide enough to hit.
    size_t longest = 0;
    double best = -1;
    for (size_t i = 0; i < schedule->phases.size(); ++i)
        if (schedule->phases[i].layer == 1 && schedule->phases[i].durationCycles() > best) {
            best = schedule->phases[i].durationCycles();
            longest = i;
        }
    const Phase& p = schedule->phases[longest];
    const double mid = (p.startCycle + p.endCycle) / 2;
    QCOMPARE(chart.phaseAt(mid, 2), int(longest));
    const QString tip = chart.toolTipAt(chart.positionOf(mid, 2));
    QVERIFY2(tip.contains(phaseKindName(p.kind).toHtmlEscaped()), qPrintable(tip));
    QVERIFY2(tip.contains(QLocale().toString(qint64(std::llround(p.durationCycles())))), qPrintable(tip));
}

void TestTimelineChart::emptySchedule()
{
    TimelineChart chart;
    chart.setSchedule(nullptr);
    QCOMPARE(chart.bandPointCount(TimelineChart::Band::Compute), 0);
    QCOMPARE(chart.phaseAt(0, 0), -1);
    chart.setCursorCycle(100); // no crash without a schedule
}

void TestTimelineChart::prefillShowsThePromptsBand()
{
    const auto prefill = ws::testing::smallPrefill(3.0);
    QVERIFY(prefill->isPrefill() && prefill->chunks == 4);
    TimelineChart chart;
    chart.resize(900, 300);
    chart.setSchedule(prefill);
    // The band spans the prompt: from 0 until the last chunk leaves the last layer, in the stretched µs.
    const QList<QPointF> band = chart.prefillBandPoints();
    QCOMPARE(band.size(), 2);
    QCOMPARE(band[0].x(), 0.0);
    QVERIFY(std::abs(band[1].x() - prefill->promptEndCycle / prefill->clockHz * 1e6) < 1e-9);
    QVERIFY(band[1].x() < prefill->totalCycles / prefill->clockHz * 1e6); // the first token comes after it
    QVERIFY2(chart.prefillBandName().contains(QStringLiteral("64")), qPrintable(chart.prefillBandName()));
    // Every chunk's phases are drawn: four times the compute bars of one chunk in a layer row.
    int layer1Compute = 0;
    for (const Phase& p : prefill->phases)
        layer1Compute += p.layer == 1 && p.computes && p.computeEndCycle > p.startCycle;
    QVERIFY(layer1Compute > 0 && layer1Compute % 4 == 0);
    // A decode token has no band.
    chart.setSchedule(ws::testing::smallSchedule());
    QVERIFY(chart.prefillBandPoints().isEmpty());
}

void TestTimelineChart::prefillToolTipNamesTheChunk()
{
    const auto prefill = ws::testing::smallPrefill(3.0);
    TimelineChart chart;
    chart.resize(1400, 300);
    chart.setSchedule(prefill);
    // The longest phase of layer 2 in the third chunk.
    size_t longest = 0;
    double best = -1;
    for (size_t i = 0; i < prefill->phases.size(); ++i) {
        const Phase& p = prefill->phases[i];
        if (p.layer == 2 && p.chunk == 2 && p.durationCycles() > best) {
            best = p.durationCycles();
            longest = i;
        }
    }
    QVERIFY(best > 0);
    const Phase& p = prefill->phases[longest];
    const double mid = (p.startCycle + p.endCycle) / 2;
    QCOMPARE(chart.phaseAt(mid, 3), int(longest));
    const QString tip = chart.toolTipAt(chart.positionOf(mid, 3));
    QVERIFY2(tip.contains(QStringLiteral("chunk 3 of 4")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("33 – 48")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("× 3")), qPrintable(tip)); // the calibrated pace, named
}

void TestTimelineChart::hiddenCursorMovesWhenShown()
{
    // The cursor follows the animation while the chart is shown; hidden (the Dataflow dock in Present mode), the
    // chart keeps the time and draws it when it is shown again.
    const auto schedule = ws::testing::smallSchedule();
    QWidget window;
    auto* chart = new TimelineChart(&window);
    chart->resize(600, 400);
    chart->setSchedule(schedule);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QLineSeries* cursor = nullptr;
    for (QAbstractSeries* series : chart->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(series))
            cursor = line;
    QVERIFY(cursor);
    const auto atMicroseconds = [&](double cycle) { return cycle / schedule->clockHz * 1e6; };
    const double total = schedule->phases.back().endCycle;
    chart->setCursorCycle(total / 4);
    QCOMPARE(cursor->count(), 2);
    QCOMPARE(cursor->at(0).x(), atMicroseconds(total / 4));
    chart->hide();
    chart->setCursorCycle(total / 2);
    QCOMPARE(chart->cursorCycle(), total / 2);
    QCOMPARE(cursor->at(0).x(), atMicroseconds(total / 4)); // not laid out while hidden
    chart->show();
    QCOMPARE(cursor->at(0).x(), atMicroseconds(total / 2));
    QCOMPARE(cursor->at(1).x(), atMicroseconds(total / 2));
}

QTEST_MAIN(TestTimelineChart)
#include "tst_timelinechart.moc"

// Issue 30: the legend names allreduce and forwarding, but at a full token's zoom their bars are a fraction of a
// pixel. Every allreduce and forwarding bar is drawn at least kMinBarPixels wide; compute bars keep their times.
void TestTimelineChart::shortBarsStayVisible()
{
    // The small layout with a wide model and cheap reductions: compute takes far longer than an allreduce.
    ModelConfig model = ws::testing::smallModel();
    model.hiddenSize = 4096;
    model.ffnSize = 14336;
    model.headCount = 32;
    model.kvHeadCount = 8;
    model.headDim = 128;
    TimingParams params;
    params.macCycles = 0.9;
    params.allreduceFixedCycles = 2;
    params.routingStageCycles = 1;
    ScheduleOptions options;
    options.context = 512;
    const auto schedule = std::make_shared<const TokenSchedule>(
        buildTokenSchedule(model, ws::testing::smallLayout(), TimingModel(params), options));
    TimelineChart chart;
    chart.resize(500, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setSchedule(schedule);
    QCoreApplication::processEvents();
    const double clockHz = schedule->clockHz;
    const auto pixels = [&](double us0, double us1) {
        return chart.positionOf(us1 * 1e-6 * clockHz, 1).x() - chart.positionOf(us0 * 1e-6 * clockHz, 1).x();
    };
    int narrowInSchedule = 0;
    for (const Phase& p : schedule->phases)
        if (p.computes && p.endCycle > p.computeEndCycle &&
            pixels(p.computeEndCycle / clockHz * 1e6, p.endCycle / clockHz * 1e6) < 1.0)
            ++narrowInSchedule;
    QVERIFY2(narrowInSchedule > 0, "the schedule has allreduce bars under a pixel at this size");
    const auto shortBarsWide = [&] {
        for (TimelineChart::Band band : {TimelineChart::Band::Allreduce, TimelineChart::Band::Forward}) {
            const QList<QPointF> points = chart.bandPoints(band);
            QVERIFY(!points.isEmpty());
            for (qsizetype i = 0; i + 3 < points.size(); i += 4)
                QVERIFY2(pixels(points[i].x(), points[i + 2].x()) >= TimelineChart::kMinBarPixels - 1.0, // whole px
                         qPrintable(QString::number(pixels(points[i].x(), points[i + 2].x()))));
        }
    };
    shortBarsWide();
    // Taller only: the bars stay as they were laid out. Narrower while hidden: laid out again for the new width
    // once shown.
    const QList<QPointF> before = chart.bandPoints(TimelineChart::Band::Allreduce);
    chart.resize(500, 360);
    QCoreApplication::processEvents();
    QCOMPARE(chart.bandPoints(TimelineChart::Band::Allreduce), before);
    chart.hide();
    chart.resize(240, 360);
    QCoreApplication::processEvents();
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCoreApplication::processEvents();
    QCOMPARE(chart.width(), 240);
    QVERIFY(chart.bandPoints(TimelineChart::Band::Allreduce) != before);
    shortBarsWide();
    // Compute bars: the schedule's own times.
    const QList<QPointF> compute = chart.bandPoints(TimelineChart::Band::Compute);
    qsizetype bar = 0;
    for (const Phase& p : schedule->phases) {
        if (!p.computes || !(p.computeEndCycle > p.startCycle))
            continue;
        QVERIFY(std::abs(compute[bar * 4 + 2].x() - p.computeEndCycle / clockHz * 1e6) < 1e-9);
        ++bar;
    }
}
