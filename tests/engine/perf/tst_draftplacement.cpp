// The draft model of speculative decoding on the wafer has its own cores: a strip at the left edge of wafer 0,
// the narrowest that holds it (engine/wafer/placement/draftplacement.h); the target is placed on the rest, and
// the predictor times each on its own cores. Checked against placements made here, not against the code's
// own figures: the draft's core count is the usable mesh of its own placement, the strip is minimal (one
// column fewer does not hold the draft), the two never share a core and together stay within the usable
// cores, and the scene's snapshot and per-core details name the draft's layers.
#include "engine/perf/predictor.h"
#include "engine/perf/speculative.h"
#include "engine/perf/waferpredictor.h"
#include "engine/wafer/placement/draftplacement.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/scene.h"
#include "presetfixture.h"

#include <QTest>

#include <cstdio>
#include <set>

using namespace ws;

namespace {
Workload drafted(const char* draft)
{
    Workload w;
    w.speculative.enabled = true;
    w.speculative.tokensPerStep = 4;
    w.speculative.acceptanceRate = 0.7;
    w.speculative.draftModel = wstest::modelPreset(draft);
    return w;
}
} // namespace

class TestDraftPlacement : public QObject
{
    Q_OBJECT
private slots:
    void theDraftsCoresAreItsPlacementsAndBesideTheTargets()
    {
        const ModelConfig target = wstest::modelPreset("qwen3-32b");
        const ModelConfig draft = wstest::modelPreset("qwen3-0.6b");
        const HardwareSpec wse3 = wstest::hardwarePreset("wse3");
        const Workload w = drafted("qwen3-0.6b");
        auto p = predict(target, wse3, w);
        QVERIFY2(p, p ? "" : p.error().message().c_str());
        QVERIFY(p->draftCores > 0);
        const long long usable = static_cast<long long>(wse3.wafer.usableCols()) * wse3.wafer.usableRows();
        QCOMPARE(p->usableCoresPerDevice, usable);

        // The draft's own placement on a full-height strip of the width the prediction's core count implies.
        QCOMPARE(p->draftCores % wse3.wafer.usableRows(), 0);
        const int columns = int(p->draftCores / wse3.wafer.usableRows());
        PlacementOptions po;
        po.precision = w.precision;
        po.contextTokens = w.contextTokens;
        PlacementOptions strip = po;
        strip.usableCols = columns;
        strip.maxDevices = 1;
        auto onStrip = placeModel(draft, wse3.wafer, strip);
        QVERIFY2(onStrip, onStrip ? "" : onStrip.error().message().c_str());
        QCOMPARE(onStrip->deviceCount, 1);
        QCOMPARE(static_cast<long long>(onStrip->usableCols) * onStrip->usableRows, p->draftCores);
        QVERIFY(conservationError(*onStrip, draft).empty());
        // Minimal: one column fewer does not hold the draft on one wafer.
        strip.usableCols = columns - 1;
        auto narrower = placeModel(draft, wse3.wafer, strip);
        QVERIFY(!narrower || narrower->deviceCount > 1);

        // The target on the rest: together within the usable cores of a wafer.
        PlacementOptions rest = po;
        rest.usableCols = wse3.wafer.usableCols() - columns;
        auto targetPlaced = placeModel(target, wse3.wafer, rest);
        QVERIFY(targetPlaced);
        const long long targetCores = static_cast<long long>(targetPlaced->usableCols) * targetPlaced->usableRows;
        QVERIFY(targetCores + p->draftCores <= usable);
        QCOMPARE(p->devicesNeeded, targetPlaced->deviceCount);

        // The draft's k tokens per step: k times its own token on its own cores (not the whole wafer).
        WaferPredictOptions own;
        own.usableCols = columns;
        own.devices = 1;
        Workload plain;
        auto draftOwn = predictWafer(draft, wse3, plain, own);
        auto draftWhole = predictWafer(draft, wse3, plain);
        QVERIFY(draftOwn && draftWhole);
        QVERIFY(std::abs(p->draftSecondsPerStep - 4 * draftOwn->secondsPerToken) <= 1e-12 * p->draftSecondsPerStep);
        std::printf("\nQwen3-0.6B drafting for Qwen3-32B on WSE-3: %d columns x %d rows = %lld cores (%.2f%% of "
                    "%lld); its token %.4f ms on them vs %.4f ms on the whole wafer; target on %lld cores, %d wafer(s)\n",
                    columns, wse3.wafer.usableRows(), static_cast<long long>(p->draftCores),
                    100.0 * double(p->draftCores) / double(usable), usable, draftOwn->secondsPerToken * 1e3,
                    draftWhole->secondsPerToken * 1e3, targetCores, targetPlaced->deviceCount);
    }

    void theSceneShowsTheDraftOnItsOwnCores()
    {
        SceneRequest r;
        r.model = wstest::modelPreset("llama-3.1-70b");
        r.hardware = wstest::hardwarePreset("wse3");
        r.workload = drafted("llama-3.1-8b");
        auto scene = buildWaferScene(r);
        QVERIFY2(scene, scene ? "" : scene.error().message().c_str());
        QVERIFY(scene->draftPlacement && scene->draftShare && scene->draftModel());
        const Placement& t = *scene->placement;
        const Placement& d = *scene->draftPlacement;
        const DraftShare& share = *scene->draftShare;
        QCOMPARE(d.usableCols, share.columns);
        QCOMPARE(t.usableCols + d.usableCols, r.hardware.wafer.usableCols());
        // Fabric columns: the draft's from the wafer's first usable one, the target's right after.
        QCOMPARE(d.originX, r.hardware.wafer.reservedLeftCols);
        QCOMPARE(t.originX, d.originX + d.usableCols);
        QVERIFY(conservationError(t, r.model).empty());
        QVERIFY(conservationError(d, r.workload.speculative.draftModel.value()).empty());

        // The snapshot: every draft region listed as the draft's, every core of the strip on wafer 0 owned by
        // the draft where its placement puts something, and the target's cores untouched.
        const MeshSnapshot& s = *scene->snapshot;
        int draftRegions = 0;
        std::set<int> draftLayers;
        for (const MeshRegion& region : s.regions)
            if (region.draft) {
                ++draftRegions;
                QCOMPARE(region.device, 0);
                QVERIFY(region.label.rfind("draft ", 0) == 0);
                QVERIFY(region.x + region.width <= t.originX);
                if (region.layerIndex >= 0)
                    draftLayers.insert(region.layerIndex);
            }
        QCOMPARE(draftRegions, int(d.regions.size()));
        QCOMPARE(int(draftLayers.size()), r.workload.speculative.draftModel->layers);
        const int fx = d.originX + d.regions.front().rect.x;
        const int fy = d.originY + d.regions.front().rect.y;
        const size_t f = size_t(fy) * size_t(s.meshCols) + size_t(fx);
        const MeshOwner& owner = s.owners[s.owner[0][f]];
        QVERIFY(owner.draft);
        QCOMPARE(owner.layerIndex, d.regions.front().layer);
        const auto detail = d.coreDetail(0, fx, fy);
        QVERIFY(detail && !detail->tiles.empty());
        QVERIFY(std::abs(double(s.sramFraction[0][f]) - double(detail->bytes.used()) / double(d.sramBytesPerCore)) < 1e-6);
        // A target core is the target's.
        const int tx = t.originX + t.regions.front().rect.x;
        const int ty = t.originY + t.regions.front().rect.y;
        QVERIFY(!s.owners[s.owner[0][size_t(ty) * size_t(s.meshCols) + size_t(tx)]].draft);
        const auto targetDetail = t.coreDetail(0, fx, fy);
        QVERIFY(targetDetail && targetDetail->tiles.empty() && targetDetail->usableX < 0);
    }

    void aDraftThatDoesNotFitNamesTheCores()
    {
        // Llama-3.1-70B at bf16 cannot draft on one WSE-3 (about 141 GB of weights, 44 GB of SRAM).
        const HardwareSpec wse3 = wstest::hardwarePreset("wse3");
        auto p = predict(wstest::modelPreset("llama-3.1-405b"), wse3, drafted("llama-3.1-70b"));
        QVERIFY(!p);
        QCOMPARE(p.error().field, std::string("draft"));
        QVERIFY2(p.error().text.find("usable cores") != std::string::npos, p.error().text.c_str());
        QVERIFY(p.error().text.find(std::to_string(static_cast<long long>(wse3.wafer.usableCols()) *
                                                   wse3.wafer.usableRows())) != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestDraftPlacement)
#include "tst_draftplacement.moc"
