// Serving stacks as dated profiles (engine/calibration/stackprofile.h, engine/predict/stackkernel.h): months
// parse from the rows' dates, each hardware is predicted with the latest stack public by a month, a fitted
// kernel factor stays within the hardware's limit and is fitted on development rows only, and a draft must be
// small beside its target (no Llama 4 Scout for Maverick).
#include "engine/calibration/measuredpoints.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/stackprofile.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/predictor.h"
#include "engine/predict/speculative.h"
#include "engine/predict/stackkernel.h"

#include <QTest>

using namespace ws;

class TestStackProfile : public QObject
{
    Q_OBJECT
private slots:
    void monthsParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("month"); // empty: undated
        QTest::newRow("day") << "2024-10-24"
                             << "2024-10";
        QTest::newRow("month") << "2025-05"
                               << "2025-05";
        QTest::newRow("year alone: its last month") << "2025 (OSDI 2025)"
                                                    << "2025-12";
        QTest::newRow("approximate year") << "~early 2024 (undated excerpt)"
                                          << "2024-12";
        QTest::newRow("undated") << "n/s (undated model page)"
                                 << "";
        QTest::newRow("version numbers are no year") << "n/s (compares with gpt-5.4-mini)"
                                                     << "";
    }
    void monthsParse()
    {
        QFETCH(QString, text);
        QFETCH(QString, month);
        const auto m = parseYearMonth(text.toStdString());
        QCOMPARE(m.has_value(), !month.isEmpty());
        if (m)
            QCOMPARE(QString::fromStdString(yearMonthText(*m)), month);
    }

    void shippedStacksRead()
    {
        const auto& all = shippedStackProfiles();
        QVERIFY2(all, all ? "" : all.error().message().c_str());
        for (const StackProfile& s : *all) {
            QVERIFY(!s.known.empty() && !s.assumed.empty() && !s.source.empty() && !s.dateSource.empty());
            if (!s.gpuProfile.empty())
                QVERIFY2(stackOfGpuProfile(s.gpuProfile) == &s, s.id.c_str());
        }
    }

    void stackByMonth_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<QString>("asOf"); // empty: the latest
        QTest::addColumn<QString>("stack");
        QTest::newRow("wafer at launch") << "wse3"
                                         << "2024-09"
                                         << "cerebras-inference-2024-08";
        QTest::newRow("wafer after the October release") << "wse3"
                                                         << "2024-10"
                                                         << "cerebras-inference-2024-10";
        QTest::newRow("wafer, latest") << "wse3"
                                       << ""
                                       << "cerebras-inference-2024-10";
        QTest::newRow("before any: the earliest") << "wse3"
                                                  << "2023-01"
                                                  << "cerebras-inference-2024-08";
        QTest::newRow("research kernels") << "wse2"
                                          << ""
                                          << "waferllm-osdi2025";
        QTest::newRow("lpu") << "groq-lpu"
                             << ""
                             << "groqcloud-2024";
    }
    void stackByMonth()
    {
        QFETCH(QString, hardware);
        QFETCH(QString, asOf);
        QFETCH(QString, stack);
        const auto month = asOf.isEmpty() ? std::nullopt : parseYearMonth(asOf.toStdString());
        const StackProfile* s = stackFor(hardware.toStdString(), month);
        QVERIFY(s);
        QCOMPARE(QString::fromStdString(s->id), stack);
    }

    void fittedKernelFactorIsPhysical()
    {
        const auto& all = shippedStackProfiles();
        QVERIFY(all);
        const auto& cal = shippedWaferCalibration();
        QVERIFY(cal);
        int fitted = 0;
        for (const StackProfile& s : *all) {
            if (!s.fitKernel)
                continue;
            ++fitted;
            const auto& k = stackKernel(s);
            QVERIFY2(k, k ? "" : k.error().message().c_str());
            QCOMPARE(k->rows.size(), s.fitRows.size());
            for (const std::string& hw : s.hardware) {
                const double floor = kernelFactorFloor(cal->params, shippedHardware(hw)->wafer);
                QVERIFY(k->low >= floor * (1 - 1e-9) && k->high <= 1.0);
            }
            QVERIFY(k->low <= k->factor && k->factor <= k->high);
            // Fitted on development or calibration rows only: never on a check row.
            for (const std::string& ref : s.fitRows) {
                bool found = false;
                for (const MeasuredPoint& p : *shippedMeasuredPoints())
                    if (ref == p.set + "/" + p.label) {
                        found = true;
                        QVERIFY(p.role != MeasuredRole::Check);
                    }
                QVERIFY2(found, ref.c_str());
            }
        }
        QVERIFY(fitted >= 1);
    }

    void laterStackIsFasterThanLaunch()
    {
        // The same Llama 3.1 70B on WSE-3, as of launch and as of the October 2024 release: the rewrite and
        // speculative decoding make it faster, and each prediction names its stack and month.
        const ModelConfig* m = shippedModel("llama-3.1-70b");
        const HardwareSpec* hw = shippedHardware("wse3");
        QVERIFY(m && hw);
        Workload w;
        w.speculativeUnknown = true;
        PredictOptions launch;
        launch.asOf = parseYearMonth("2024-09");
        PredictOptions later;
        later.asOf = parseYearMonth("2024-11");
        auto a = predict(*m, *hw, w, launch);
        auto b = predict(*m, *hw, w, later);
        QVERIFY(a && b);
        QCOMPARE(a->stack, std::string("cerebras-inference-2024-08"));
        QCOMPARE(b->stackPublic, std::string("2024-10"));
        QVERIFY(b->tokensPerSecondPerUser > 1.5 * a->tokensPerSecondPerUser);
        QVERIFY(b->tokensPerSecondPerUser <= b->ceiling.tokensPerSecondPerUser * (1 + 1e-9));
    }

    void gpuAsOfKeepsLaterProfilesOut()
    {
        // Before December 2024 the batch-1 TensorRT-LLM profile was not public: an H100 single stream is predicted
        // with a profile that was.
        const ModelConfig* m = shippedModel("llama-3.1-8b");
        const HardwareSpec* hw = shippedHardware("h100");
        QVERIFY(m && hw);
        PredictOptions before;
        before.asOf = parseYearMonth("2024-06");
        auto p = predict(*m, *hw, Workload{}, before);
        QVERIFY(p);
        QVERIFY(p->profile != "gpu-serving-batch1");
        auto latest = predict(*m, *hw, Workload{}, PredictOptions{});
        QVERIFY(latest);
        QCOMPARE(latest->profile, std::string("gpu-serving-batch1"));
        QCOMPARE(latest->stack, std::string("trtllm-batch1-2024-12"));
    }

    void draftIsSmallBesideItsTarget()
    {
        const std::vector<ModelConfig>& all = shippedModels();
        // Llama 4 Scout reads as many active parameters per token as Maverick: it cannot be its draft.
        QVERIFY(!defaultDraftModel(*shippedModel("llama-4-maverick"), all));
        // Llama 3.1 8B for 70B is the published pair that sets the bound; it stays.
        const ModelConfig* d = defaultDraftModel(*shippedModel("llama-3.1-70b"), all);
        QVERIFY(d && d->id == "llama-3.1-8b");
        QVERIFY(maxDraftRatio() > 0.1 && maxDraftRatio() < 0.13);
    }
};

QTEST_GUILESS_MAIN(TestStackProfile)
#include "tst_stackprofile.moc"
