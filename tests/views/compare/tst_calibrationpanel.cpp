// The calibration tab shows what the fit computed: for the profile of current
// GPU serving stacks at batch 1 (gpu-serving-batch1), every measurement's
// predicted value and relative residual in the tab are the fit's, and the fit's
// prediction of each row is what the GPU predictor gives for that row's own
// configuration with that profile (so the residuals are the predictor's).
#include "engine/calibration/calibrationprofile.h"
#include "engine/calibration/measuredpoints.h"
#include "engine/calibration/measurementdata.h"
#include "engine/explore/accuracy.h"
#include "views/charts/chartformat.h"
#include "views/compare/calibrationchart.h"
#include "views/compare/calibrationpanel.h"

#include <QListWidget>
#include <QScatterSeries>
#include <QTableWidget>
#include <QTest>

#include <cmath>

using namespace ws;
using namespace ws::views;

class TestCalibrationPanel : public QObject
{
    Q_OBJECT
private slots:
    void servingProfileResidualsAreShown()
    {
        const CalibrationProfile* profile = nullptr;
        for (const CalibrationProfile& p : shippedProfiles())
            if (p.id == "gpu-serving-batch1")
                profile = &p;
        QVERIFY(profile);
        QVERIFY(profile->rows.size() >= 2);

        CalibrationPanel panel;
        panel.setProfiles(shippedProfiles(), {});
        panel.selectProfile(QStringLiteral("gpu-serving-batch1"));
        QCOMPARE(panel.selectedProfile(), QStringLiteral("gpu-serving-batch1"));
        QTableWidget* t = panel.rowsTable();
        QCOMPARE(t->rowCount(), int(profile->rows.size()));

        auto points = readMeasuredPoints(std::string(embeddedMeasurement("gpu-serving-batch1.json")),
                                         MeasuredOrigin::Calibration);
        QVERIFY(points);
        QCOMPARE(points->size(), profile->rows.size());
        double worst = 0;
        for (int r = 0; r < t->rowCount(); ++r) {
            const CalibrationRow& row = profile->rows[size_t(r)];
            QCOMPARE(t->item(r, 0)->text(), QString::fromStdString(row.label));
            QCOMPARE(t->item(r, 2)->text(), formatSignificant(row.predicted));
            QCOMPARE(t->item(r, 3)->text(), QStringLiteral("%1 %").arg(formatResidualPercent(row.relativeResidual)));
            QCOMPARE(row.relativeResidual, (row.predicted - row.observed) / row.observed);

            // The predictor, on the row's own configuration with this profile, gives the fit's value.
            const MeasuredPoint& pt = (*points)[size_t(r)];
            QCOMPARE(pt.label, row.label);
            QCOMPARE(pt.value, row.observed);
            const AccuracyRow assessed = assessPoint(pt);
            QVERIFY2(!assessed.miss, (pt.label + ": " + assessed.why).c_str());
            QVERIFY2(std::abs(assessed.predicted / row.predicted - 1) < 1e-9, pt.label.c_str());
            worst = std::max(worst, std::abs(row.relativeResidual));
        }
        QCOMPARE(worst, profile->maxAbsRelativeResidual);
        // Its constants with their sources, and its points on the predicted-vs-measured chart.
        QCOMPARE(panel.constantsTable()->rowCount(), int(profile->constants.size()));
        QVERIFY(panel.chart()->scatters().size() >= 4);
    }

    void exactFitShowsNoRoundingNoise()
    {
        // gpu-trtllm-b200-latency fits one constant on one row: its residuals are ~1e-16, shown as 0.0 %.
        QCOMPARE(formatResidualPercent(1.3e-16), QLocale().toString(0.0, 'f', 1));
        QCOMPARE(formatResidualPercent(-1.3e-16), QLocale().toString(0.0, 'f', 1));
        QCOMPARE(formatResidualPercent(0.0123), formatSignificant(1.23, 2));
        QCOMPARE(formatResidualPercent(-0.34), formatSignificant(-34.0, 2));
        CalibrationPanel panel;
        panel.setProfiles(shippedProfiles(), {});
        panel.selectProfile(QStringLiteral("gpu-trtllm-b200-latency"));
        QCOMPARE(panel.selectedProfile(), QStringLiteral("gpu-trtllm-b200-latency"));
        QVERIFY(panel.rowsTable()->rowCount() >= 1);
        const QString fitted = panel.rowsTable()->item(0, 3)->text();
        QVERIFY2(fitted.size() <= 8, qPrintable(fitted));
    }
};

QTEST_MAIN(TestCalibrationPanel)
#include "tst_calibrationpanel.moc"
