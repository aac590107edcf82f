// Serving stacks as dated profiles (engine/calibration/stackprofile.h, engine/predict/stackkernel.h): months
// parse from the rows' dates, each hardware is predicted with the latest stack public by a month, a fitted
// kernel factor stays within the hardware's limit and is fitted on development rows only (its bisection read off
// the chord between its ends exactly where predicting every factor gives the same factor), and a draft must be
// small beside its target (no Llama 4 Scout for Maverick).
#include "engine/calibration/measuredpoints.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/stackprofile.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/pointworkload.h"
#include "engine/predict/predictor.h"
#include "engine/predict/speculative.h"
#include "engine/predict/stackkernel.h"
#include "engine/predict/waferpredictor.h"

#include <QTest>

#include <algorithm>

#include <cmath>

using namespace ws;

namespace {
const MeasuredPoint* shippedRow(const std::string& ref)
{
    const MeasuredPoint* row = nullptr;
    for (const MeasuredPoint& p : *shippedMeasuredPoints())
        if (ref == p.set + "/" + p.label)
            row = &p;
    return row;
}

// A fit row's speed at a kernel factor, predicted as the fit predicts it (0 on an error).
double fitRowSpeed(const StackProfile& stack, const MeasuredPoint& point, double factor, PlacementCache& placements)
{
    const ModelConfig* m = shippedModel(point.modelId);
    const HardwareSpec* hw = shippedHardware(point.hardwareId);
    if (!m || !hw)
        return 0;
    auto w = workloadForPoint(point, *m, *hw);
    if (!w)
        return 0;
    applyStackSpeculation(*w, stack, *m, *hw, !point.draftModelId.empty() || point.draftCostFraction > 0);
    WaferPredictOptions o;
    o.devices = point.devices;
    o.kernelFactor = factor;
    o.pointOnly = true;
    o.placements = &placements;
    auto p = predictWafer(*m, *hw, *w, o);
    return p ? p->tokensPerSecondPerUser : 0.0;
}
} // namespace

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

    // The fit reads the bisection's inner factors off the chord between its ends where the first is on it: every
    // row's factor, the stack's factor and spread are those of predicting every factor tried, bit for bit, from
    // three predictions per bisected row instead of eighteen; and the kept fit is that one.
    void chordFitEqualsIterativeFit()
    {
        const auto& all = shippedStackProfiles();
        QVERIFY(all);
        int bisected = 0;
        for (const StackProfile& s : *all) {
            if (!s.fitKernel)
                continue;
            auto chord = fitStackKernel(s);
            auto iterative = fitStackKernel(s, nullptr, true);
            QVERIFY(chord && iterative);
            QCOMPARE(chord->rows.size(), iterative->rows.size());
            for (size_t i = 0; i < chord->rows.size(); ++i) {
                const StackKernelRow& c = chord->rows[i];
                const StackKernelRow& it = iterative->rows[i];
                QVERIFY2(c.factor == it.factor, qPrintable(QString("%1: %2 vs %3")
                                                               .arg(QString::fromStdString(c.row))
                                                               .arg(c.factor, 0, 'g', 17)
                                                               .arg(it.factor, 0, 'g', 17)));
                QCOMPARE(c.atFloor, it.atFloor);
                QCOMPARE(c.measured, it.measured);
                if (it.predictions == 18) { // bisected: the ends, the first factor, the rest on the chord
                    ++bisected;
                    QCOMPARE(c.predictions, 3);
                } else {
                    QCOMPARE(c.predictions, it.predictions); // an end already settles it
                }
            }
            QVERIFY(chord->factor == iterative->factor);
            QVERIFY(chord->low == iterative->low && chord->high == iterative->high);
            const auto& kept = stackKernel(s);
            QVERIFY(kept && kept->factor == chord->factor);
        }
        QVERIFY(bisected >= 1);
    }

    // What the chord stands for: a fit row's speed at factors across [floor, 1] is the chord's, as predicted.
    void fitRowSpeedIsOnTheChord()
    {
        const StackProfile* stack = stackFor("wse3", std::nullopt);
        QVERIFY(stack && stack->fitKernel && stack->speculative);
        const auto& cal = shippedWaferCalibration();
        QVERIFY(cal);
        for (const std::string& ref : stack->fitRows) {
            const MeasuredPoint* point = shippedRow(ref);
            QVERIFY(point);
            PlacementCache placements;
            const double f0 = kernelFactorFloor(cal->params, shippedHardware(point->hardwareId)->wafer);
            const double s0 = 1.0 / fitRowSpeed(*stack, *point, f0, placements);
            const double s1 = 1.0 / fitRowSpeed(*stack, *point, 1.0, placements);
            for (double f : {f0 * 1.01, 0.2, std::sqrt(f0), 0.5, 0.77, 0.999}) {
                const double predicted = fitRowSpeed(*stack, *point, f, placements);
                const double chord = 1.0 / (s0 + (s1 - s0) * ((f - f0) / (1.0 - f0)));
                QVERIFY2(std::abs(chord - predicted) <= kStackChordTolerance * predicted,
                         qPrintable(QString("%1 at %2: %3 vs %4")
                                        .arg(QString::fromStdString(ref))
                                        .arg(f)
                                        .arg(chord, 0, 'g', 17)
                                        .arg(predicted, 0, 'g', 17)));
            }
        }
    }

    void chordOrEveryFactor_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("speculative");
        QTest::addColumn<bool>("oneLayerDraft");
        QTest::addColumn<int>("predictions"); // 0: either
        QTest::newRow("plain 70b") << "llama-3.1-70b" << false << false << 3;
        QTest::newRow("one-layer draft 70b") << "llama-3.1-70b" << true << true << 3;
        QTest::newRow("one-layer draft 8b") << "llama-3.1-8b" << true << true << 3;
        // A draft model of its own decodes where the chooser predicts it fastest, which may move with the factor.
        QTest::newRow("preset draft 70b") << "llama-3.1-70b" << true << false << 18;
        QTest::newRow("moe one-layer draft") << "qwen3-235b-a22b" << true << true << 0;
    }

    // A row whose figure lies between its ends is bisected: where the chord holds, from three predictions, else
    // from one per factor tried; either way to the factor that predicting every factor gives, bit for bit.
    void chordOrEveryFactor()
    {
        QFETCH(QString, model);
        QFETCH(bool, speculative);
        QFETCH(bool, oneLayerDraft);
        QFETCH(int, predictions);
        const StackProfile* shipped = stackFor("wse3", std::nullopt);
        QVERIFY(shipped && shipped->fitKernel);
        StackProfile stack = *shipped;
        stack.speculative = speculative;
        stack.oneLayerDraft = oneLayerDraft;
        const MeasuredPoint* shippedPoint = shippedRow(shipped->fitRows.back());
        QVERIFY(shippedPoint);
        MeasuredPoint point = *shippedPoint; // its workload (speculative decoding not known), another model
        point.modelId = model.toStdString();
        point.label += " as " + point.modelId;
        point.speculative = Tristate::Unknown;
        point.devices = 0;
        PlacementCache placements;
        const double f0 = kernelFactorFloor(shippedWaferCalibration()->params, shippedHardware("wse3")->wafer);
        const double fast = fitRowSpeed(stack, point, f0, placements);
        const double slow = fitRowSpeed(stack, point, 1.0, placements);
        QVERIFY(fast > slow * 1.01 && slow > 0);
        point.metric = "tokens_per_second_per_user";
        point.value = std::sqrt(fast * slow);
        auto read = fitStackRow(stack, point, placements);
        auto every = fitStackRow(stack, point, placements, true);
        QVERIFY2(read && every, read ? "" : read.error().message().c_str());
        QVERIFY(!read->atFloor && read->factor > f0 && read->factor < 1.0);
        QCOMPARE(every->predictions, 18);
        if (predictions > 0)
            QCOMPARE(read->predictions, predictions);
        QVERIFY2(read->factor == every->factor,
                 qPrintable(QString("%1 vs %2").arg(read->factor, 0, 'g', 17).arg(every->factor, 0, 'g', 17)));
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

    void gpuStackSpeculatesWhereUnknown()
    {
        // TensorRT-LLM's min-latency stack for mixture-of-experts models (March 2025) runs MTP / EAGLE-3,
        // one-layer drafts: a figure that does not say speculates there, with a draft at 1 / layers of a target
        // token; before the stack was public, or for a dense model (the batch-1 stack does not speculate), off.
        const ModelConfig* m = shippedModel("deepseek-r1");
        const HardwareSpec* b200 = shippedHardware("b200");
        const HardwareSpec* h100 = shippedHardware("h100");
        QVERIFY(m && b200 && h100);
        const StackProfile* s = speculationStack(*b200, *m, 1, std::nullopt);
        QVERIFY(s);
        QCOMPARE(s->id, std::string("trtllm-b200-latency-2025"));
        QVERIFY(s->speculative && s->oneLayerDraft);
        QCOMPARE(speculationStack(*b200, *m, 1, parseYearMonth("2025-02"))->id, std::string("trtllm-batch1-2024-12"));
        // The same stack serves mixture-of-experts models on the H100; a dense model keeps the batch-1 stack.
        QCOMPARE(speculationStack(*h100, *m, 1, std::nullopt)->id, std::string("trtllm-b200-latency-2025"));
        const ModelConfig* dense = shippedModel("llama-3.1-70b");
        QVERIFY(dense);
        QCOMPARE(speculationStack(*b200, *dense, 1, std::nullopt)->id, std::string("trtllm-batch1-2024-12"));
        QCOMPARE(speculationStack(*shippedHardware("wse3"), *m, 1, std::nullopt), stackFor("wse3", std::nullopt));

        Workload unknown;
        unknown.precision = Precision::Fp4;
        unknown.speculativeUnknown = true;
        PredictOptions o;
        o.devices = 8;
        auto on = predict(*m, *b200, unknown, o);
        QVERIFY(on);
        auto drafted = [](const Prediction& p) {
            return std::any_of(p.breakdown.begin(), p.breakdown.end(),
                               [](const PhaseTime& b) { return b.id == "speculative_draft"; });
        };
        QVERIFY(drafted(*on));
        Workload withDraft = unknown; // the one-layer draft, as given: the same speed
        withDraft.speculativeUnknown = false;
        applyStackSpeculation(withDraft, *s, *m, *b200);
        QVERIFY(!withDraft.speculative.enabled); // applies only where unknown
        withDraft = unknown;
        applyStackSpeculation(withDraft, *s, *m, *b200);
        QVERIFY(withDraft.speculative.enabled);
        QCOMPARE(withDraft.speculative.draftCostFraction, 1.0 / m->layers);
        Workload off = unknown;
        off.speculativeUnknown = false;
        auto plain = predict(*m, *b200, off, o);
        QVERIFY(plain && !drafted(*plain));
        QVERIFY(on->tokensPerSecondPerUser > 1.5 * plain->tokensPerSecondPerUser);
        PredictOptions early = o;
        early.asOf = parseYearMonth("2025-02");
        auto before = predict(*m, *b200, unknown, early);
        QVERIFY(before && !drafted(*before));
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
