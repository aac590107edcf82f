#include "views/defects/yieldpanel.h"

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>

namespace {

std::shared_ptr<const ws::YieldCurves> sampleCurves(int monteCarloPoints)
{
    ws::YieldCurveRequest r;
    r.layout = *ws::SpareLayout::rowShift(200, 100, 100, 1, 46225.0 / 970000.0);
    r.points = 21;
    r.monteCarloPoints = monteCarloPoints;
    r.monteCarloTrials = 20;
    auto c = ws::computeYieldCurves(r);
    return std::make_shared<const ws::YieldCurves>(std::move(*c));
}

QXYSeries* seriesNamed(QChart* chart, const QString& prefix)
{
    for (QAbstractSeries* s : chart->series())
        if (s->name().startsWith(prefix))
            return qobject_cast<QXYSeries*>(s);
    return nullptr;
}

} // namespace

class TestYieldPanel : public QObject
{
    Q_OBJECT
private slots:
    void showsEveryModel()
    {
        ws::views::YieldPanel panel;
        panel.resize(800, 500);
        const auto curves = sampleCurves(4);
        panel.setCurves(curves);
        QCOMPARE(panel.chart()->series().size(), 6);
        for (const char* name : {"Poisson", "Murphy", "Seeds", "Negative binomial", "Redundant wafer"}) {
            QXYSeries* s = seriesNamed(panel.chart(), QString::fromLatin1(name));
            QVERIFY2(s, name);
            QCOMPARE(s->count(), 21);
        }
        QXYSeries* poisson = seriesNamed(panel.chart(), QStringLiteral("Poisson"));
        QCOMPARE(poisson->at(5).x(), curves->defectsPerMm2[5]);
        QCOMPARE(poisson->at(5).y(), curves->poisson[5]);
        QVERIFY(panel.chart()->title().contains(QString::number(qRound(curves->areaMm2))));
        QXYSeries* mc = seriesNamed(panel.chart(), QStringLiteral("Monte Carlo"));
        QCOMPARE(mc->count(), 4);
        QCOMPARE(mc->at(0).y(), curves->monteCarlo[0].yield);
        // Replacing the curves replaces the points (no leftovers).
        panel.setCurves(sampleCurves(0));
        QCOMPARE(mc->count(), 0);
        panel.setCurves(nullptr);
        QCOMPARE(poisson->count(), 0);
        QVERIFY(panel.chartData().rows.isEmpty());
    }

    void exportsDataAndImage()
    {
        ws::views::YieldPanel panel;
        panel.resize(640, 400);
        const auto curves = sampleCurves(2);
        panel.setCurves(curves);
        const ws::views::ChartData data = panel.chartData();
        QCOMPARE(data.rows.size(), 21 + 2); // 21 curve samples, then 2 Monte Carlo points
        QCOMPARE(data.columns,
                 QStringList({"d0_per_mm2", "poisson", "murphy", "seeds", "negative_binomial", "redundant_wafer",
                              "monte_carlo_yield", "monte_carlo_standard_error", "monte_carlo_usable_fraction"}));
        const QVariantList row = data.rows[0];
        QCOMPARE(row.size(), 9);
        QCOMPARE(row[0].toDouble(), curves->defectsPerMm2[0]);
        QVERIFY(std::abs(row[1].toDouble() - curves->poisson[0]) <= 1e-9 * curves->poisson[0]);
        QVERIFY(row[6].isNull()); // a curve row has no Monte Carlo value: written empty, never 0
        const QVariantList mc = data.rows[21];
        QCOMPARE(mc[0].toDouble(), curves->monteCarlo[0].defectsPerMm2);
        QVERIFY(mc[1].isNull());
        QCOMPARE(mc[6].toDouble(), curves->monteCarlo[0].yield);
        QCOMPARE(mc[7].toDouble(), curves->monteCarlo[0].standardError);
        const QImage image = panel.renderImage(QSize(320, 200));
        QCOMPARE(image.size(), QSize(320, 200));
        // Something was drawn: not one flat colour.
        const QRgb first = image.pixel(0, 0);
        bool varied = false;
        for (int y = 0; y < image.height() && !varied; y += 7)
            for (int x = 0; x < image.width() && !varied; x += 7)
                varied = image.pixel(x, y) != first;
        QVERIFY(varied);
    }
};

QTEST_MAIN(TestYieldPanel)
#include "tst_yieldpanel.moc"
