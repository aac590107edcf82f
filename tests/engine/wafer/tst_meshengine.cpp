// The mesh engine (engine/wafer/mesh): a decode step executed core by core as
// discrete events. Timing-only runs of Llama-3.1-8B- and 70B-shaped layers on
// WSE-2 and WSE-3 meet the closed forms phase by phase; words are conserved,
// every core's cycles add up to the token's, no core holds more than its SRAM;
// in values mode the logits equal the dense decoder's.

#include "engine/model/ggufmodelimporter.h"
#include "engine/wafer/dataflow/timingmodel.h"
#include "engine/wafer/mesh/meshallreduce.h"
#include "engine/wafer/mesh/meshengine.h"
#include "engine/wafer/mesh/meshvalues.h"
#include "engine/wafer/placement/placer.h"

#include "tests/common/presetfixture.h"

#include <QFileInfo>
#include <QTest>

#include <cmath>

namespace {

using Placed = wstest::PlacedPreset;
using wstest::placePreset;

// A model file on the WSE-3 preset, on the smallest sub-mesh that holds it (its own weights' precision).
ws::Placement placeFile(const ws::ModelConfig& model, const ws::HardwareSpec& hw, int context)
{
    ws::PlacementOptions o;
    o.precision = ws::Precision::Fp32;
    o.contextTokens = context;
    o.fitSubMesh = true;
    auto placed = ws::placeModel(model, hw.wafer, o);
    if (!placed)
        qFatal("%s", placed.error().message().c_str());
    return *placed;
}

// The first two layers of a model preset, each over the whole P x P mesh (WaferLLM's tensor-parallel layout) at bf16.
Placed placeTwoLayersTensorParallel(const QString& model, const QString& hardware, int p)
{
    Placed placed{wstest::modelPreset(model), wstest::hardwarePreset(hardware), {}};
    placed.model.layers = 2;
    ws::PlacementOptions o;
    o.precision = ws::Precision::Bf16;
    o.contextTokens = 4096;
    o.strategy = ws::PlacementStrategy::TensorParallel;
    o.usableCols = o.usableRows = p;
    auto layout = ws::placeModel(placed.model, placed.hardware.wafer, o);
    if (!layout)
        qFatal("%s", layout.error().message().c_str());
    placed.placement = *layout;
    return placed;
}

} // namespace

class TstMeshEngine : public QObject
{
    Q_OBJECT

private slots:
    void valuesEqualDense_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("stories260K") << "stories260K/stories260K.gguf";
        QTest::newRow("llama3 random") << "random/llama3-tiny-random.gguf";
        QTest::newRow("qwen2 random") << "random/qwen2-tiny-random.gguf";
    }

    // Eight greedy tokens after a one-token prompt: the engine's logits equal the dense decoder's within 1e-5 of the
    // largest logit magnitude, and both pick the same ids.
    void valuesEqualDense()
    {
        QFETCH(QString, file);
        const QString path_q = wstest::testModelPath(file);
        WS_REQUIRE_MODEL_FILE(path_q);
        const std::string path = path_q.toStdString();
        auto model = ws::DecodeModel::load(path);
        QVERIFY2(model.hasValue(), model ? "" : model.error().message().c_str());
        const ws::HardwareSpec hw = wstest::hardwarePreset(QStringLiteral("wse3"));
        const int context = 16;
        const ws::Placement placement = placeFile(model->modelConfig(), hw, context);
        auto values = ws::MeshValues::create(placement, *model, ws::MeshParams::fromHardware(hw.wafer), context);
        QVERIFY2(values.hasValue(), values ? "" : values.error().message().c_str());
        ws::TokenId token = 1;
        for (int pos = 0; pos < 9; ++pos) {
            auto step = values->step(token, pos);
            QVERIFY2(step.hasValue(), step ? "" : step.error().message().c_str());
            qInfo("position %d: %.0f cycles, max |engine - dense| %.3g of max |logit| %.3g, ids %d / %d", pos,
                  step->run.totalCycles, double(step->maxLogitDifference), double(step->maxAbsLogit),
                  int(step->engineId), int(step->denseId));
            QVERIFY(step->maxAbsLogit > 0);
            QVERIFY2(step->maxLogitDifference <= 1e-5f * step->maxAbsLogit, qPrintable(QString::number(pos)));
            QCOMPARE(step->engineId, step->denseId);
            QVERIFY(step->run.totalCycles > 0);
            // What each core computed for this token: every tile-holding core, on the placement's own cores.
            QCOMPARE(step->cores.size(), values->tiled().cores().size());
            double magnitude = 0;
            for (const ws::MeshCoreValue& c : step->cores) {
                QVERIFY(c.partialMagnitude >= 0);
                QVERIFY(!placement.regionsAt(c.device, c.fabricX - placement.originX, c.fabricY - placement.originY)
                             .empty());
                magnitude += c.partialMagnitude;
            }
            QVERIFY(magnitude > 0);
            token = step->engineId;
        }
    }

    void layerMeetsClosedForms_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("layer");
        QTest::addColumn<bool>("tensorParallel");
        QTest::newRow("llama-3.1-8b wse2") << "llama-3.1-8b"
                                           << "wse2" << 3 << false;
        QTest::newRow("llama-3.1-8b wse3") << "llama-3.1-8b"
                                           << "wse3" << 3 << false;
        QTest::newRow("llama-3.1-70b wse2") << "llama-3.1-70b"
                                            << "wse2" << 5 << false;
        QTest::newRow("llama-3.1-70b wse3") << "llama-3.1-70b"
                                            << "wse3" << 5 << false;
        QTest::newRow("llama-3.1-70b wse3 last layer of a wafer") << "llama-3.1-70b"
                                                                  << "wse3" << 19 << false;
        // WaferLLM's layout: two 8B-shaped layers, each over the whole 420 x 420 mesh (their Table 4's smallest), so
        // the hidden state stays where the last allreduce left it.
        QTest::newRow("llama-3.1-8b wse2 tensor-parallel 420 x 420") << "llama-3.1-8b"
                                                                     << "wse2" << 0 << true;
    }

    // Per phase, the engine's cycles and the closed forms' (the schedule timed with the same unit costs) agree
    // within 15 %. Phases of a few cycles (RoPE, the residual, the KV shift: a hop and a few words) may differ by
    // two hops and a word more: the engine starts each core's share as soon as that core has its input, the
    // closed form when the slowest core has.
    void layerMeetsClosedForms()
    {
        QFETCH(QString, model);
        QFETCH(QString, hardware);
        QFETCH(int, layer);
        QFETCH(bool, tensorParallel);
        const Placed p =
            tensorParallel ? placeTwoLayersTensorParallel(model, hardware, 420) : placePreset(model, hardware);
        const ws::MeshParams params = ws::MeshParams::fromHardware(p.hardware.wafer);
        ws::MeshOptions o;
        o.context = 4096;
        o.layer = layer;
        const auto run = ws::executeMeshToken(p.placement, p.model, params, o);
        QVERIFY2(run.hasValue(), run ? "" : run.error().message().c_str());
        qInfo("%s on %s, layer %d: engine %.0f cycles, closed form %.0f", qPrintable(model), qPrintable(hardware),
              layer, run->totalCycles, run->closedFormCycles());
        QVERIFY(run->phases.size() >= 12);
        const double slack = 2 * params.hopCycles + 1;
        for (const ws::MeshPhase& ph : run->phases) {
            const std::string name(ws::phaseKindId(ph.kind));
            qInfo("  %-12s engine %7.0f closed form %7.0f (%+.1f %%)", name.c_str(), ph.engineCycles,
                  ph.closedFormCycles, 100.0 * (ph.engineCycles / ph.closedFormCycles - 1));
            QCOMPARE(ph.layer, layer);
            if (ph.kind == ws::PhaseKind::WaferHop) // the hidden state crosses the wafer link whole
                QVERIFY(ph.traffic.interWaferBytes >= p.model.hiddenSize * ws::TimingParams{}.activationBytes);
            const double tolerance = std::max(0.15 * ph.closedFormCycles, slack);
            QVERIFY2(std::fabs(ph.engineCycles - ph.closedFormCycles) <= tolerance, name.c_str());
        }
        QVERIFY(std::fabs(run->totalCycles / run->closedFormCycles() - 1) <= 0.15);
    }

    void conservation_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("hardware");
        QTest::newRow("llama-3.1-8b wse3") << "llama-3.1-8b"
                                           << "wse3";
        QTest::newRow("llama-3.1-70b wse2") << "llama-3.1-70b"
                                            << "wse2";
    }

    // Every word sent is delivered once and carried by links hop by hop; the GEMVs' reductions carry exactly what
    // the schedule needs (per line of cores 2 (n - 1) messages of the line's rows: n - 1 partial sums in, n - 1
    // copies of the sum out); no core holds more than its SRAM; each core's busy and waiting cycles fit in the
    // token.
    void conservation()
    {
        QFETCH(QString, model);
        QFETCH(QString, hardware);
        const Placed p = placePreset(model, hardware);
        const ws::MeshParams params = ws::MeshParams::fromHardware(p.hardware.wafer);
        ws::MeshOptions o;
        o.context = 1024;
        o.layer = 1;
        const auto run = ws::executeMeshToken(p.placement, p.model, params, o);
        QVERIFY2(run.hasValue(), run ? "" : run.error().message().c_str());

        const ws::TrafficStats total = run->traffic();
        QVERIFY(total.wordsSent > 0);
        QCOMPARE(total.wordsDelivered, total.wordsSent);
        double linkWords = 0;
        for (const ws::MeshLink& l : run->fabric->links())
            linkWords += l.stats.words;
        QCOMPARE(linkWords, total.linkWords);
        QVERIFY(total.linkWords >= total.wordsSent); // every message moves at least one hop

        // The schedule's needs, from the model's dimensions and the region (balanced splits, as the placement makes
        // them).
        ws::CoreRect rect;
        for (const ws::PlacedRegion& r : p.placement.regions)
            if (r.layer == 1)
                rect = r.rect;
        const double wordBytes = p.hardware.wafer.linkWidthBits / 8.0;
        const double valueBytes = ws::TimingParams{}.activationBytes;
        auto part = [](int64_t n, int parts, int i) { return (i + 1) * n / parts - i * n / parts; };
        auto words = [&](double values) { return std::ceil(values * valueBytes / wordBytes); };
        const int64_t hidden = p.model.hiddenSize;
        const ws::LayerDims dims = ws::LayerDims::fromModel(p.model, 1);
        const int64_t kv = dims.kvDim, q = dims.qDim;
        double qkv = 0, down = 0;
        for (int c = 0; c < rect.width; ++c) // Q, K, V: one line per column of cores, outputs split over columns
            qkv += 2.0 * (rect.height - 1) * words(double(part(q, rect.width, c) + 2 * part(kv, rect.width, c)));
        for (int r = 0; r < rect.height; ++r) // down: one line per row, the hidden outputs split over rows
            down += 2.0 * (rect.width - 1) * words(double(part(hidden, rect.height, r)));
        int checked = 0;
        for (const ws::MeshPhase& ph : run->phases) {
            if (ph.kind == ws::PhaseKind::QkvGemv) {
                QCOMPARE(ph.traffic.wordsDelivered, qkv);
                ++checked;
            }
            if (ph.kind == ws::PhaseKind::FfnDown || ph.kind == ws::PhaseKind::OutProj) {
                QCOMPARE(ph.traffic.wordsDelivered, down);
                ++checked;
            }
            // Every weight multiplied once.
            if (ph.kind == ws::PhaseKind::QkvGemv)
                QCOMPARE(ph.traffic.macs, double(hidden) * double(q + 2 * kv));
            if (ph.kind == ws::PhaseKind::FfnDown)
                QCOMPARE(ph.traffic.macs, double(hidden) * double(dims.ffn));
        }
        QCOMPARE(checked, 3);

        QVERIFY(run->maxCoreBytes > 0);
        QVERIFY(run->maxCoreBytes <= run->sramBytesPerCore);
        double busy = 0, waiting = 0;
        for (const ws::MeshCore& c : run->fabric->cores()) {
            const ws::CoreCycles t = c.stats.total();
            QVERIFY(t.busy >= 0 && t.waiting >= 0);
            QVERIFY(c.cursor <= run->totalCycles);
            QVERIFY(c.stats.idle(run->totalCycles) >= -1e-9);
            QCOMPARE(t.busy + t.waiting + c.stats.idle(run->totalCycles), run->totalCycles);
            busy += t.busy;
            waiting += t.waiting;
        }
        QVERIFY(busy > 0 && waiting > 0);
        // The critical path runs from the layer's start to its end.
        double critical = 0;
        for (const ws::CriticalStep& s : run->criticalPath)
            critical += s.cycles;
        QCOMPARE(critical, run->totalCycles);
    }

    void allreduceAlone_data()
    {
        QTest::addColumn<int>("cores");
        QTest::addColumn<double>("words");
        for (int n : {20, 151, 183})
            for (double w : {1.0, 42.0, 93.0})
                QTest::addRow("%d cores, %.0f words", n, w) << n << w;
    }

    // One line of cores, alone on the mesh, all partial sums ready at cycle 0. The closed form streams the
    // payload once; the engine finds it twice on the links where a group root's stream enters the next group
    // while that group's own chain still streams towards its middle, so it meets the closed form plus one
    // payload (with more than one group), within 10 %.
    void allreduceAlone()
    {
        QFETCH(int, cores);
        QFETCH(double, words);
        const ws::MeshParams params = ws::MeshParams::fromHardware(wstest::hardwarePreset("wse3").wafer);
        ws::MeshFabric fabric(params);
        fabric.setMesh(4, cores + 2);
        fabric.setPhase(0, ws::PhaseKind::QkvGemv);
        ws::ReduceLine line;
        for (int y = 0; y < cores; ++y)
            line.cores.push_back(fabric.coreIndex(0, 1, y));
        line.words = words;
        std::vector<ws::Ready> ready(fabric.cores().size());
        ws::allreduceLines(fabric, ready, {line});
        double engine = 0;
        for (const ws::Ready& r : ready)
            engine = std::max(engine, r.time);
        const ws::AllreduceTiming closed = ws::TimingModel(params.closedForm()).allreduce(cores, int(words));
        const double second = closed.groupCount > 1 ? closed.payloadCycles : 0.0;
        qInfo("engine %.0f cycles, closed form %.0f, with the payload twice %.0f", engine, closed.totalCycles(),
              closed.totalCycles() + second);
        QVERIFY(engine >= closed.totalCycles());
        QVERIFY(std::fabs(engine / (closed.totalCycles() + second) - 1) <= 0.10);
        // Every core but the root sends its running sum once and receives the sum once.
        QCOMPARE(fabric.phaseTraffic()[0].messages, int64_t(2 * (cores - 1)));
    }

    // One placement, one result: the same events in the same order, the same cycles.
    void deterministic()
    {
        const Placed p = placePreset(QStringLiteral("llama-3.1-8b"), QStringLiteral("wse2"));
        const ws::MeshParams params = ws::MeshParams::fromHardware(p.hardware.wafer);
        ws::MeshOptions o;
        o.context = 512;
        o.layer = 0;
        const auto a = ws::executeMeshToken(p.placement, p.model, params, o);
        const auto b = ws::executeMeshToken(p.placement, p.model, params, o);
        QVERIFY(a.hasValue() && b.hasValue());
        QCOMPARE(a->totalCycles, b->totalCycles);
        QCOMPARE(a->fabric->events().size(), b->fabric->events().size());
        for (size_t i = 0; i < a->fabric->events().size(); ++i) {
            const ws::MeshEvent& x = a->fabric->events()[i];
            const ws::MeshEvent& y = b->fabric->events()[i];
            QVERIFY(x.start == y.start && x.end == y.end && x.cause == y.cause && x.core == y.core &&
                    x.toCore == y.toCore);
        }
    }

    void errors()
    {
        const Placed p = placePreset(QStringLiteral("llama-3.1-8b"), QStringLiteral("wse3"));
        ws::MeshOptions o;
        o.layer = p.model.layers;
        const auto run = ws::executeMeshToken(p.placement, p.model, ws::MeshParams::fromHardware(p.hardware.wafer), o);
        QVERIFY(!run.hasValue());
        QVERIFY(run.error().message().find("out of range") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstMeshEngine)
#include "tst_meshengine.moc"
