// The physical floors: every shipped model preset (and the smallest model we have, stories260K, read from its
// GGUF) on every hardware preset predicts no faster than the per-token costs that do not shrink with the model.
// The expected floors are written here from the cited constants (docs/sources.md) and plain arithmetic, not
// read from the predictor: a GPU step launches 100 / 16 kernels per layer at 1.3 us each even under CUDA graphs
// [Hazy-NoBubbles], does 0.2 ms of host work [vLLM-async-output] and, tensor parallel, two all-reduces per layer
// of at least 6 us [NCCL-issues] [Megatron-TP]; an LPU streams every weight at its SRAM bandwidth
// [TechPowerUp-Groq]; a wafer pays at least two all-reduces per layer [Megatron-TP], each with the fixed cycles
// fitted to WaferLLM's kernel [WaferLLM-T4].
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/ggufmodelimporter.h"
#include "engine/model/modelshape.h"
#include "engine/predict/predictor.h"

#include "tests/common/testmodels.h"
#include "tests/common/testskips.h"

#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace ws;

Q_DECLARE_METATYPE(std::string)

namespace {
constexpr double kKernelsPerLayer = 100.0 / 16.0; // ~100 kernels per Llama-3.2-1B pass, 16 layers [Hazy-NoBubbles]
constexpr double kGraphGapS = 1.3e-6;             // per kernel under CUDA graphs, H100 [Hazy-NoBubbles]
constexpr double kHostPerStepS = 0.2e-3;          // vLLM output processing per step, batch 1 [vLLM-async-output]
constexpr double kAllreduceS = 6e-6;              // small 2-GPU NVLink SHARP all-reduce [NCCL-issues]
constexpr double kAllreducesPerLayer = 2;         // after attention and after the MLP [Megatron-TP]

std::vector<std::string> hardwareIds()
{
    std::vector<std::string> ids;
    for (const EmbeddedMeasurementFile& f : embeddedPresetFiles()) {
        const std::string name(f.name);
        if (name.rfind("hardware/", 0) == 0)
            ids.push_back(name.substr(9, name.size() - 9 - 5)); // "hardware/<id>.json"
    }
    return ids;
}

const std::string kStories = "stories260K";

// The model: a shipped preset, or stories260K from its GGUF (WS_REQUIRE'd by the caller).
Expected<ModelConfig> modelFor(const std::string& id)
{
    if (id == kStories)
        return importGgufModel(wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf")).toStdString());
    if (const ModelConfig* m = shippedModel(id))
        return *m;
    return makeError(ErrorCode::NotFound, "no model preset " + id, "model");
}

// The floor a prediction may not beat, from the constants above and the prediction's own device count.
double expectedFloorSeconds(const ModelConfig& m, const HardwareSpec& hw, const Prediction& p, Precision precision)
{
    const double weightBytes = double(ModelShape(m).bytesReadPerToken(precision));
    const double layers = m.layers;
    const int n = std::max(1, p.devices);
    switch (hw.kind) {
    case HardwareKind::Gpu: {
        const double launches = layers * kKernelsPerLayer * kGraphGapS;
        const double stream = weightBytes / (n * hw.gpu.hbmBandwidthBytesPerS);
        const double allreduce = n > 1 ? layers * kAllreducesPerLayer * kAllreduceS : 0.0;
        return std::max(launches + stream + allreduce, kHostPerStepS);
    }
    case HardwareKind::Lpu:
        return weightBytes / (n * hw.lpu.sramBandwidthBytesPerS);
    case HardwareKind::Wafer: {
        const auto& cal = shippedWaferCalibration();
        const double clock = hw.wafer.clockHz;
        return cal ? layers * kAllreducesPerLayer * cal->params.allreduceFixedCycles / clock : 0.0;
    }
    }
    return 0;
}
} // namespace

class TestFloors : public QObject
{
    Q_OBJECT
private slots:
    void presetsCarryTheCitedConstants()
    {
        for (const std::string& id : hardwareIds()) {
            const HardwareSpec* hw = shippedHardware(id);
            QVERIFY2(hw, id.c_str());
            if (hw->kind != HardwareKind::Gpu)
                continue;
            QCOMPARE(hw->gpu.decodeKernelsPerLayer, kKernelsPerLayer);
            QCOMPARE(hw->gpu.kernelGapGraphS, kGraphGapS);
            QCOMPARE(hw->gpu.hostOverheadPerStepS, kHostPerStepS);
            QCOMPARE(hw->gpu.allreduceLatencyS, kAllreduceS);
            QVERIFY(hw->gpu.kernelLaunchEagerS >= 4e-6); // 4-6 us per kernel without graphs [pegainfer-launch]
            for (const char* field : {"decodeKernelsPerLayer", "kernelGapGraphS", "kernelLaunchEagerS",
                                      "hostOverheadPerStepS", "allreduceLatencyS"}) {
                const auto it = hw->sources.find(field);
                QVERIFY2(it != hw->sources.end() && it->second.find("docs/sources.md") != std::string::npos,
                         (id + " " + field).c_str());
            }
        }
    }

    void noPredictionBeatsItsFloor_data()
    {
        QTest::addColumn<std::string>("model");
        QTest::addColumn<std::string>("hardware");
        std::vector<std::string> models{kStories};
        for (const ModelConfig& m : shippedModels())
            models.push_back(m.id);
        const std::vector<std::string> hardware = hardwareIds();
        QVERIFY(hardware.size() >= 7);
        QVERIFY(models.size() >= 20);
        for (const std::string& m : models)
            for (const std::string& h : hardware)
                QTest::newRow((m + " on " + h).c_str()) << m << h;
    }

    void noPredictionBeatsItsFloor()
    {
        QFETCH(std::string, model);
        QFETCH(std::string, hardware);
        if (model == kStories)
            WS_REQUIRE_MODEL_FILE(wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf")));
        const auto m = modelFor(model);
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        const HardwareSpec* hw = shippedHardware(hardware);
        QVERIFY(hw);
        Workload w;
        w.precision = m->nativePrecision;
        const auto p = predict(*m, *hw, w);
        QVERIFY2(p, p ? "" : p.error().message().c_str());
        const double expected = expectedFloorSeconds(*m, *hw, *p, w.precision);
        QVERIFY(expected > 0);
        QVERIFY2(p->secondsPerToken >= expected * (1 - 1e-9),
                 qPrintable(QStringLiteral("%1 s per token, floor %2 s").arg(p->secondsPerToken).arg(expected)));
        // The floor the prediction names: at or above the cited one, never above the point, every part sourced.
        QVERIFY(p->floor.seconds >= expected * (1 - 1e-9));
        QVERIFY(p->secondsPerToken >= p->floor.seconds * (1 - 1e-12));
        QVERIFY(!p->floor.formula.empty());
        QVERIFY(!p->floor.components.empty());
        for (const FloorComponent& c : p->floor.components) {
            QVERIFY2(!c.source.empty(), c.id.c_str());
            QVERIFY2(c.source.find('[') != std::string::npos, (c.id + ": " + c.source).c_str()); // a sources.md key
            QVERIFY(c.seconds >= 0);
        }
        // The throughput curve's single user stays at or below the floor's speed as well (the range's high end
        // may pass it: a stack that fuses its kernels launches fewer; only the hardware's ceiling bounds it).
        for (const ConcurrencyPoint& c : p->concurrencyCurve)
            if (c.concurrency == 1)
                QVERIFY(c.tokensPerSecondPerUser <= 1.0 / expected * (1 + 1e-9));
        QVERIFY(p->ttftSeconds > 0);
    }

    void stories260KOnOneH100IsBoundByItsFloor()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        const auto m = importGgufModel(path);
        QVERIFY(m);
        Workload w;
        w.precision = m->nativePrecision;
        const auto p = predict(*m, *shippedHardware("h100"), w);
        QVERIFY(p);
        QCOMPARE(p->devices, 1);
        // 5 layers x 6.25 kernels x 1.3 us = 41 us of launches; the host's 0.2 ms per step is larger: 5,000 tokens/s.
        QVERIFY2(p->tokensPerSecondPerUser < 20000, qPrintable(QString::number(p->tokensPerSecondPerUser)));
        QVERIFY(p->tokensPerSecondPerUser <= 1.0 / kHostPerStepS * (1 + 1e-9));
        QVERIFY(p->floor.binds);
        QVERIFY(p->floor.modelSeconds < p->floor.seconds);
        std::vector<std::string> names;
        for (const FloorComponent& c : p->floor.components)
            names.push_back(c.id);
        for (const char* id : {"kernel_launch", "host_per_step", "kernel_launch_eager"})
            QVERIFY2(std::find(names.begin(), names.end(), id) != names.end(), id);
        // Without CUDA graphs the CPU submits 31.25 kernels at 4 us before the host's own work.
        QVERIFY(p->floor.withoutGraphsSeconds >= 5 * kKernelsPerLayer * 4e-6 + kHostPerStepS - 1e-12);
        double sum = 0;
        for (const PhaseTime& b : p->breakdown)
            sum += b.seconds;
        QVERIFY(std::abs(sum - p->secondsPerToken) <= 1e-9 * p->secondsPerToken);
    }
};

QTEST_GUILESS_MAIN(TestFloors)
#include "tst_floors.moc"
