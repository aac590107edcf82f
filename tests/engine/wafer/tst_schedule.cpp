// The per-token schedule: conservation of multiply-accumulates, the WaferLLM
// op order (10 allreduces per dense layer, 7 along y and 3 along x), timing
// that adds up, and rectangles that stay on the mesh. A prefill: the prompt's
// chunks pipelined through the layers, then one first token.
#include "engine/wafer/dataflow/schedule.h"

#include "engine/wafer/dataflow/activity.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>

using namespace ws;

namespace {
ModelConfig llama70b()
{
    // Llama-3.1-70B (facts §3 / §6.2 [M1]).
    ModelConfig m;
    m.id = "llama-3.1-70b";
    m.layers = 80;
    m.hiddenSize = 8192;
    m.ffnSize = 28672;
    m.headCount = 64;
    m.kvHeadCount = 8;
    m.headDim = 128;
    m.vocabSize = 128256;
    return m;
}

ScheduleRegions gridLayout(int layers, int w, int h, int perRow, int perDevice)
{
    ScheduleRegions l;
    l.meshCols = perRow * w;
    l.meshRows = ((perDevice + perRow - 1) / perRow) * h;
    for (int i = 0; i < layers; ++i) {
        const int k = i % perDevice;
        l.layers.push_back({i / perDevice, {(k % perRow) * w, (k / perRow) * h, w, h}});
    }
    l.deviceCount = (layers + perDevice - 1) / perDevice;
    l.embedding = l.layers.front();
    l.lmHead = l.layers.back();
    return l;
}

TimingParams someParams()
{
    TimingParams p;
    p.macCycles = 0.9;
    p.allreduceFixedCycles = 300;
    p.routingStageCycles = 15;
    return p;
}
} // namespace

class TestSchedule : public QObject
{
    Q_OBJECT
private slots:
    void layerMacsMatchPublishedParameterCount_data();
    void layerMacsMatchPublishedParameterCount();
    void denseLayerHasTenAllreduces();
    void timesAddUp();
    void rectanglesStayOnMesh();
    void busiestCoreBoundsTotal();
    void moeRoutesToActiveExperts();
    void slicedExpertsWorkOnEveryCore();
    void concatIsSlowerThanShift();
    void hopsCrossWafers();
    void timingOnlyGivesTheSameTotals_data();
    void timingOnlyGivesTheSameTotals();
    void prefillIsAPipelineOfChunks_data();
    void prefillIsAPipelineOfChunks();
    void decodeIsOneChunk();
    void expertGridGivesExpertTiles();
};

void TestSchedule::layerMacsMatchPublishedParameterCount_data()
{
    QTest::addColumn<int>("context");
    QTest::newRow("ctx-1") << 1;
    QTest::newRow("ctx-4096") << 4096;
    QTest::newRow("ctx-8192") << 8192;
}

void TestSchedule::layerMacsMatchPublishedParameterCount()
{
    // Facts §6.2: a Llama-3.1-70B layer has 855.6 M matrix parameters = 8192*8192*2 + 2*8192*1024 + 3*8192*28672.
    QFETCH(int, context);
    const ModelConfig m = llama70b();
    ScheduleOptions o;
    o.context = context;
    o.layersOnly = true;
    const TokenSchedule s = buildTokenSchedule(m, gridLayout(1, 190, 235, 1, 1), TimingModel(someParams()), o);
    const double expected = 855638016.0 + 2.0 * 8192 * context; // weights + q.K and scores.V
    QCOMPARE(s.totalMacs(), expected);
}

void TestSchedule::denseLayerHasTenAllreduces()
{
    ScheduleOptions o;
    o.layersOnly = true;
    const TokenSchedule s = buildTokenSchedule(llama70b(), gridLayout(1, 190, 235, 1, 1), TimingModel(someParams()), o);
    int alongY = 0;
    int alongX = 0;
    for (const Phase& p : s.phases) {
        if (p.axis == ReduceAxis::Y)
            alongY += p.reductions;
        if (p.axis == ReduceAxis::X)
            alongX += p.reductions;
    }
    QCOMPARE(alongY, 7);
    QCOMPARE(alongX, 3);
}

void TestSchedule::timesAddUp()
{
    const TokenSchedule s =
        buildTokenSchedule(llama70b(), gridLayout(80, 190, 235, 4, 20), TimingModel(someParams()), {});
    double sum = 0;
    for (double c : s.cyclesByKind)
        sum += c;
    QVERIFY(std::abs(sum - s.totalCycles) < 1e-6 * s.totalCycles);
    QVERIFY(std::abs(s.computeCycles + s.reduceCycles + s.hopCycles - s.totalCycles) < 1e-6 * s.totalCycles);
    for (size_t i = 1; i < s.phases.size(); ++i) {
        QVERIFY(s.phases[i].startCycle >= s.phases[i - 1].startCycle);
        if (!s.phases[i].concurrent)
            QVERIFY(s.phases[i].startCycle >= s.phases[i - 1].endCycle - 1e-9);
        QVERIFY(s.phases[i].endCycle >= s.phases[i].computeEndCycle);
    }
}

void TestSchedule::rectanglesStayOnMesh()
{
    const ScheduleRegions l = gridLayout(80, 190, 235, 4, 20);
    const TokenSchedule s = buildTokenSchedule(llama70b(), l, TimingModel(someParams()), {});
    for (const Phase& p : s.phases) {
        QVERIFY(p.rect.x >= 0 && p.rect.y >= 0 && p.rect.width > 0 && p.rect.height > 0);
        QVERIFY(p.rect.x + p.rect.width <= l.meshCols);
        QVERIFY(p.rect.y + p.rect.height <= l.meshRows);
        QVERIFY(p.device >= 0 && p.device < l.deviceCount);
    }
}

void TestSchedule::busiestCoreBoundsTotal()
{
    const ScheduleRegions l = gridLayout(2, 191, 233, 2, 2); // sizes that do not divide the dims
    const TokenSchedule s = buildTokenSchedule(llama70b(), l, TimingModel(someParams()), {});
    for (const Phase& p : s.phases)
        if (p.totalMacs > 0)
            QVERIFY2(p.macsPerCore * double(p.rect.cores()) >= p.totalMacs, phaseKindId(p.kind).data());
}

void TestSchedule::moeRoutesToActiveExperts()
{
    const ModelConfig m = wstest::modelPreset("qwen3-30b-a3b");
    QVERIFY(m.isMoe());
    ScheduleRegions l = gridLayout(m.layers, 300, 300, 2, 4);
    ScheduleOptions o;
    o.context = 1024;
    o.layersOnly = true;
    const TokenSchedule s = buildTokenSchedule(m, l, TimingModel(someParams()), o);
    // Per layer: attention + router + top-k experts (gate, up, down) of expertFfn; facts §3: 128 experts, top 8.
    const double h = m.hiddenSize;
    const double q = double(m.headCount) * m.headDim;
    const double kv = double(m.kvHeadCount) * m.headDim;
    const double perLayer =
        h * (q + 2 * kv) + q * h + 2 * q * 1024 + h * m.expertCount + 3.0 * h * m.expertFfnSize * m.expertsPerToken;
    QVERIFY(std::abs(s.totalMacs() - perLayer * m.layers) < 1e-9 * perLayer * m.layers);
    // The expert phases of a layer run on distinct rectangles inside the layer's region, in parallel.
    int expertPhasesLayer0 = 0;
    for (const Phase& p : s.phases) {
        if (p.layer != 0 || p.kind != PhaseKind::FfnGateUp)
            continue;
        ++expertPhasesLayer0;
        const CoreRect& r = l.layers[0].rect;
        QVERIFY(p.rect.x >= r.x && p.rect.x + p.rect.width <= r.x + r.width);
        QVERIFY(p.rect.y >= r.y && p.rect.y + p.rect.height <= r.y + r.height);
    }
    QCOMPARE(expertPhasesLayer0, m.expertsPerToken);
    // Different tokens pick different experts.
    QVERIFY(activeExperts(1, 0, 128, 8) != activeExperts(2, 0, 128, 8));
}

// ExpertLayout::Sliced: the same multiply-accumulates, but every core of the layer's region works for the token's
// active experts (one gate/up phase on the whole region, no dispatch or combine hop), after an all-reduce of the
// router's top k along x. Each core so does about experts / active times less than on its expert's own block.
void TestSchedule::slicedExpertsWorkOnEveryCore()
{
    const ModelConfig m = wstest::modelPreset("qwen3-30b-a3b");
    ScheduleRegions blocks = gridLayout(m.layers, 300, 300, 2, 4);
    ScheduleRegions sliced = blocks;
    sliced.experts = ExpertLayout::Sliced;
    ScheduleOptions o;
    o.context = 1024;
    o.layersOnly = true;
    const TimingModel t(someParams());
    const TokenSchedule b = buildTokenSchedule(m, blocks, t, o);
    const TokenSchedule s = buildTokenSchedule(m, sliced, t, o);
    QVERIFY(std::abs(s.totalMacs() - b.totalMacs()) < 1e-9 * b.totalMacs());
    const CoreRect& r = sliced.layers[0].rect;
    double blockMacsPerCore = 0;
    for (const Phase& p : b.phases)
        if (p.layer == 0 && p.kind == PhaseKind::FfnGateUp)
            blockMacsPerCore = std::max(blockMacsPerCore, p.macsPerCore);
    int gateUp = 0, dispatch = 0;
    for (const Phase& p : s.phases) {
        if (p.layer != 0)
            continue;
        QVERIFY2(p.kind != PhaseKind::MoeCombine, "sliced experts combine in the down projection's all-reduce");
        if (p.kind == PhaseKind::FfnGateUp) {
            ++gateUp;
            QCOMPARE(p.rect.x, r.x);
            QCOMPARE(p.rect.y, r.y);
            QCOMPARE(p.rect.width, r.width);
            QCOMPARE(p.rect.height, r.height);
            QVERIFY(p.macsPerCore * double(r.cores()) >= p.totalMacs); // the busiest core bounds the total
            // 128 experts on 300 x 300 cores: 703-core blocks, so about 90,000 / (8 x 703) = 16 x less per core.
            QVERIFY2(p.macsPerCore * 10 < blockMacsPerCore,
                     qPrintable(QStringLiteral("%1 vs %2").arg(p.macsPerCore).arg(blockMacsPerCore)));
        }
        if (p.kind == PhaseKind::MoeDispatch) {
            ++dispatch;
            QVERIFY(p.computes);
            QCOMPARE(p.axis, ReduceAxis::X);
        }
    }
    QCOMPARE(gateUp, 1);
    QCOMPARE(dispatch, 1);
    QVERIFY(s.cyclesByKind[size_t(PhaseKind::FfnGateUp)] < b.cyclesByKind[size_t(PhaseKind::FfnGateUp)]);
}

void TestSchedule::concatIsSlowerThanShift()
{
    ScheduleOptions shift;
    shift.context = 8192;
    ScheduleOptions concat = shift;
    concat.kv = KvPlacement::Concat;
    const ScheduleRegions l = gridLayout(80, 190, 235, 4, 20);
    const TimingModel t(someParams());
    const double a = buildTokenSchedule(llama70b(), l, t, shift).cyclesByKind[size_t(PhaseKind::AttnScores)];
    const double b = buildTokenSchedule(llama70b(), l, t, concat).cyclesByKind[size_t(PhaseKind::AttnScores)];
    QVERIFY(b > 10 * a); // one row does all the attention work
}

void TestSchedule::hopsCrossWafers()
{
    const ScheduleRegions l = gridLayout(80, 190, 235, 4, 20); // 4 wafers
    TimingParams p = someParams();
    p.interWaferLatencyS = 2e-6;
    const TokenSchedule s = buildTokenSchedule(llama70b(), l, TimingModel(p), {});
    int waferHops = 0;
    for (const Phase& ph : s.phases)
        if (ph.kind == PhaseKind::WaferHop) {
            ++waferHops;
            QVERIFY(ph.toDevice == ph.device + 1);
            QVERIFY(ph.durationCycles() >= 2e-6 * p.clockHz);
        }
    QCOMPARE(waferHops, 3);
    QVERIFY(s.cyclesByKind[size_t(PhaseKind::LmHead)] > 0);
    QVERIFY(s.cyclesByKind[size_t(PhaseKind::TokenFeedback)] > 0);
}

void TestSchedule::timingOnlyGivesTheSameTotals_data()
{
    QTest::addColumn<QString>("model");
    QTest::newRow("dense-70b") << "llama-3.1-70b";
    QTest::newRow("moe-30b") << "qwen3-30b-a3b";
    QTest::newRow("moe-30b-sliced") << "qwen3-30b-a3b";
    QTest::newRow("sliding-window-gemma") << "gemma-3-27b";
    QTest::newRow("prefill-70b") << "llama-3.1-70b";
}

void TestSchedule::timingOnlyGivesTheSameTotals()
{
    QFETCH(QString, model);
    const ModelConfig m = wstest::modelPreset(model.toLatin1().constData());
    ScheduleRegions l = gridLayout(m.layers, 190, 235, 4, 20);
    if (QByteArray(QTest::currentDataTag()).endsWith("sliced"))
        l.experts = ExpertLayout::Sliced;
    ScheduleOptions full;
    full.context = 8192;
    full.tokens = 3;
    if (QByteArray(QTest::currentDataTag()).startsWith("prefill"))
        full.promptTokens = 10; // 4 chunks of 3
    ScheduleOptions fast = full;
    fast.timingOnly = true;
    const TimingModel t(someParams());
    const TokenSchedule a = buildTokenSchedule(m, l, t, full);
    const TokenSchedule b = buildTokenSchedule(m, l, t, fast);
    QVERIFY(b.phases.empty());
    QVERIFY(std::abs(a.totalCycles - b.totalCycles) < 1e-9 * a.totalCycles);
    QVERIFY(std::abs(a.totalMacs() - b.totalMacs()) < 1e-9 * a.totalMacs());
    QVERIFY(std::abs(a.computeCycles - b.computeCycles) < 1e-9 * a.computeCycles);
    QCOMPARE(a.slowestLayerCycles, b.slowestLayerCycles);
    for (size_t k = 0; k < a.cyclesByKind.size(); ++k)
        QVERIFY(std::abs(a.cyclesByKind[k] - b.cyclesByKind[k]) <= 1e-9 * a.totalCycles);
}

void TestSchedule::prefillIsAPipelineOfChunks_data()
{
    QTest::addColumn<int>("prompt");
    QTest::addColumn<int>("chunkTokens");
    QTest::addColumn<int>("chunks");
    QTest::newRow("512-in-128") << 512 << 128 << 4;
    QTest::newRow("500-in-128") << 500 << 128 << 4; // the last chunk as full as the others
    QTest::newRow("512-whole") << 512 << 512 << 1;
}

void TestSchedule::prefillIsAPipelineOfChunks()
{
    QFETCH(int, prompt);
    QFETCH(int, chunkTokens);
    QFETCH(int, chunks);
    const ModelConfig m = llama70b();
    const ScheduleRegions l = gridLayout(80, 190, 235, 4, 20); // 4 wafers
    TimingParams params = someParams();
    params.interWaferLatencyS = 2e-6;
    const TimingModel t(params);
    ScheduleOptions o;
    o.tokens = chunkTokens;
    o.context = prompt / 2;
    o.promptTokens = prompt;
    const TokenSchedule s = buildTokenSchedule(m, l, t, o);
    ScheduleOptions pass = o; // one chunk's pass, the stages it is made of
    pass.promptTokens = 0;
    const TokenSchedule one = buildTokenSchedule(m, l, t, pass);
    QVERIFY(s.isPrefill());
    QCOMPARE(s.chunks, chunks);
    QCOMPARE(s.chunkTokens, chunkTokens);
    QCOMPARE(s.promptTokens, int64_t(prompt));
    QCOMPARE(s.passCycles, one.totalCycles);
    // A flow shop of identical chunks: the first chunk's pass, then the slowest stage (a layer) per further chunk.
    const double expected = one.totalCycles + (chunks - 1) * one.slowestLayerCycles;
    QVERIFY2(std::abs(s.totalCycles - expected) < 1e-9 * expected,
             qPrintable(QStringLiteral("%1 vs %2").arg(s.totalCycles).arg(expected)));
    QVERIFY(chunks == 1 || s.totalCycles > one.totalCycles);
    // Every chunk crosses every layer in order, and a layer takes chunk k only after chunk k - 1.
    std::vector<std::vector<double>> firstStart(size_t(chunks), std::vector<double>(80, -1));
    std::vector<std::vector<double>> lastEnd(size_t(chunks), std::vector<double>(80, -1));
    int lmHeads = 0;
    for (size_t i = 0; i < s.phases.size(); ++i) {
        const Phase& p = s.phases[i];
        QVERIFY(i == 0 || p.startCycle >= s.phases[i - 1].startCycle);
        QVERIFY(p.chunk >= 0 && p.chunk < chunks);
        if (p.kind == PhaseKind::LmHead) {
            ++lmHeads;
            QCOMPARE(p.chunk, chunks - 1);
            QVERIFY(p.startCycle >= s.promptEndCycle);
        }
        if (p.layer < 0 || p.kind == PhaseKind::LayerHop || p.kind == PhaseKind::WaferHop)
            continue;
        double& first = firstStart[size_t(p.chunk)][size_t(p.layer)];
        first = first < 0 ? p.startCycle : std::min(first, p.startCycle);
        lastEnd[size_t(p.chunk)][size_t(p.layer)] = std::max(lastEnd[size_t(p.chunk)][size_t(p.layer)], p.endCycle);
    }
    QCOMPARE(lmHeads, 1); // one first token
    for (int k = 0; k < chunks; ++k)
        for (int layer = 0; layer < 80; ++layer) {
            QVERIFY(firstStart[size_t(k)][size_t(layer)] >= 0);
            if (layer > 0)
                QVERIFY(firstStart[size_t(k)][size_t(layer)] >= lastEnd[size_t(k)][size_t(layer - 1)] - 1e-6);
            if (k > 0)
                QVERIFY(firstStart[size_t(k)][size_t(layer)] >= lastEnd[size_t(k - 1)][size_t(layer)] - 1e-6);
        }
    QCOMPARE(s.promptEndCycle, lastEnd[size_t(chunks - 1)][79]);
    if (chunks == 1)
        return;
    // A wave: while the second chunk is in layer 1, the first is further on, and the frame shows both regions.
    const double t1 = (firstStart[1][1] + lastEnd[1][1]) / 2;
    bool layer1 = false, further = false;
    for (size_t i : activePhases(s, t1)) {
        layer1 = layer1 || (s.phases[i].layer == 1 && s.phases[i].chunk == 1);
        further = further || (s.phases[i].layer > 1 && s.phases[i].chunk == 0);
    }
    QVERIFY(layer1);
    QVERIFY(further);
}

void TestSchedule::decodeIsOneChunk()
{
    const TokenSchedule s =
        buildTokenSchedule(llama70b(), gridLayout(80, 190, 235, 4, 20), TimingModel(someParams()), {});
    QVERIFY(!s.isPrefill());
    QCOMPARE(s.chunks, 1);
    QCOMPARE(s.passCycles, s.totalCycles);
    for (const Phase& p : s.phases)
        QCOMPARE(p.chunk, 0);
}

void TestSchedule::expertGridGivesExpertTiles()
{
    // The schedule reads a token's active experts' tiles from the grid; they are expertTiles' tiles.
    for (const CoreRect& region : {CoreRect{0, 0, 96, 96}, CoreRect{7, 3, 250, 61}, CoreRect{10, 10, 5, 40}})
        for (int count : {1, 8, 9, 64, 129, 257}) {
            const std::vector<CoreRect> tiles = expertTiles(region, count);
            const ExpertGrid grid = expertGrid(region, count);
            QCOMPARE(int(tiles.size()), count);
            for (int i = 0; i < count; ++i) {
                const CoreRect t = grid.tile(i);
                QCOMPARE(t.x, tiles[size_t(i)].x);
                QCOMPARE(t.y, tiles[size_t(i)].y);
                QCOMPARE(t.width, tiles[size_t(i)].width);
                QCOMPARE(t.height, tiles[size_t(i)].height);
            }
        }
}

QTEST_GUILESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
