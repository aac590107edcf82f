// computePlacement of a scenario's spec (the main window's placement) and
// ScenarioScene (the CLI's render and record, the chat's wafer) build the
// same engine scene: a scenario's defects are honoured in the placement the
// window shows, and the window and the CLI path give the same wafers, core
// for core.
#include "app/common/placementresult.h"
#include "app/common/presetlibrary.h"
#include "app/scenario/scenarioscene.h"

#include <QTest>

#include <algorithm>

using namespace ws;

namespace {
// The window's placement of `target` on WSE-3 with the Draft picker's `draft` and without it.
struct Drafted
{
    Scenario scenario;
    Expected<ModelConfig> draft;
    Expected<PlacementResult> window;
    Expected<PlacementResult> plain;
    bool ok() const { return draft && window && plain; }
};

Drafted drafted(const PresetLibrary& presets, const char* target, const char* draft, int64_t contextTokens)
{
    Scenario scenario;
    scenario.modelPreset = QString::fromLatin1(target);
    scenario.hardwarePreset = QStringLiteral("wse3");
    scenario.draftModel = QString::fromLatin1(draft);
    scenario.contextTokens = contextTokens;
    Scenario withoutDraft = scenario;
    withoutDraft.draftModel.clear();
    const auto spec = scenarioSpec(scenario, presets);
    const auto plainSpec = scenarioSpec(withoutDraft, presets);
    auto draftModel = presets.model(scenario.draftModel);
    if (!spec || !plainSpec || !draftModel)
        return {scenario, makeError(ErrorCode::NotFound, "preset"), makeError(ErrorCode::NotFound, "preset"),
                makeError(ErrorCode::NotFound, "preset")};
    auto window = computePlacement(*spec);
    auto plain = computePlacement(*plainSpec);
    return {scenario, std::move(draftModel), std::move(window), std::move(plain)};
}
} // namespace

class TestPlacementResult : public QObject
{
    Q_OBJECT

private slots:
    void windowAndCliShowTheSameWafers_data()
    {
        QTest::addColumn<double>("rate");
        QTest::addColumn<bool>("explicitCores");
        QTest::newRow("no defects") << 0.0 << false;
        QTest::newRow("random defects") << 0.001 << false;
        QTest::newRow("random and explicit defects") << 0.001 << true;
    }
    void windowAndCliShowTheSameWafers()
    {
        QFETCH(double, rate);
        QFETCH(bool, explicitCores);
        Scenario scenario;
        scenario.modelPreset = QStringLiteral("llama-3.1-70b");
        scenario.hardwarePreset = QStringLiteral("wse3");
        scenario.contextTokens = 4096;
        scenario.defects.rate = rate;
        scenario.defects.seed = 7;
        if (explicitCores)
            scenario.defects.cores = {{0, 100, 120}, {1, 300, 410}, {1, 301, 410}};
        const PresetLibrary presets{QString()};
        QString error;
        const auto cli = ScenarioScene::build(scenario, presets, {}, &error);
        QVERIFY2(cli, qPrintable(error));

        const auto spec = scenarioSpec(scenario, presets);
        QVERIFY(spec.hasValue());
        const auto window = computePlacement(*spec);
        QVERIFY2(window.hasValue(), window ? "" : window.error().message().c_str());

        const MeshSnapshot& a = *window->snapshot;
        const MeshSnapshot& b = *cli->snapshot;
        QCOMPARE(window->devices, cli->placement->deviceCount);
        QCOMPARE(a.meshCols, b.meshCols);
        QCOMPARE(a.meshRows, b.meshRows);
        QCOMPARE(enginePlacement(*window)->usableCols, cli->placement->usableCols);
        QCOMPARE(enginePlacement(*window)->usableRows, cli->placement->usableRows);
        QVERIFY(a.sramFraction == b.sramFraction);
        QVERIFY(a.owner == b.owner);
        QVERIFY(a.coreState == b.coreState);

        // Defects are honoured: the Defects layer shows dead cores and the placement avoids them.
        const auto deadOn = [&](int device) {
            return device < int(a.coreState.size()) ? std::count(a.coreState[size_t(device)].begin(),
                                                                 a.coreState[size_t(device)].end(), CoreState::Dead)
                                                    : 0;
        };
        if (rate > 0 || explicitCores) {
            QCOMPARE(int(a.coreState.size()), window->devices);
            QVERIFY(deadOn(0) > 0);
            QVERIFY(deadOn(1) > 0);
            for (int d = 0; d < window->devices; ++d)
                QCOMPARE(window->scene->remap(d)->summary().deadCores, cli->remap(d)->summary().deadCores);
        } else {
            QCOMPARE(deadOn(0), 0);
        }
    }

    void defectsShrinkTheWindowsPlacement()
    {
        const PresetLibrary presets{QString()};
        Scenario scenario;
        scenario.modelPreset = QStringLiteral("llama-3.1-70b");
        scenario.hardwarePreset = QStringLiteral("wse3");
        auto spec = scenarioSpec(scenario, presets);
        QVERIFY(spec.hasValue());
        const auto clean = computePlacement(*spec);
        spec->defects.rate = 0.001;
        spec->defects.seed = 7;
        const auto defective = computePlacement(*spec);
        QVERIFY(clean.hasValue() && defective.hasValue());
        const Placement* c = enginePlacement(*clean);
        const Placement* d = enginePlacement(*defective);
        QVERIFY(int64_t(d->usableCols) * d->usableRows < int64_t(c->usableCols) * c->usableRows);
        QVERIFY(defective->sramTotalBytes / defective->devices < clean->sramTotalBytes / clean->devices);
        // The inspector's physical coordinates come from each wafer's own remap.
        const auto info = coreInfo(*defective, 1, 10, 10);
        QVERIFY(info.hasValue());
        QVERIFY(info->physicalX.has_value());
    }

    void aDraftModelHasItsOwnCoresInTheWindowAndTheScenario()
    {
        // The window (computePlacement with the Draft picker's model) and a scenario with workload.draft_model
        // give the same wafers; a core of the draft's strip is the draft's in the inspector, a core beside it
        // the target's, and the SRAM totals include the draft's strip.
        const PresetLibrary presets{QString()};
        // At 4,096 tokens of context the target keeps its 2 wafers beside a strip; at 8,192 it would not, and
        // the draft then gets a wafer of its own (3 wafers either way, its own the faster).
        const Drafted both = drafted(presets, "qwen3-32b", "qwen3-0.6b", 4096);
        QVERIFY(both.ok());
        const auto& draft = both.draft;
        const auto& window = both.window;
        const auto& plain = both.plain;
        const WaferScene& scene = *window->scene;
        QVERIFY(scene.draftPlacement && scene.draftHome && !scene.draftHome->ownWafer());
        const Placement& d = *scene.draftPlacement;
        QCOMPARE(window->sramTotalBytes, scene.placement->sramTotalBytes() + d.sramTotalBytes());
        QCOMPARE(window->sramUsedBytes, scene.placement->sramUsedBytes() + d.sramUsedBytes());

        const int fx = d.originX + d.regions.front().rect.x + 1;
        const int fy = d.originY + d.regions.front().rect.y + 1;
        const auto onDraft = coreInfo(*window, 0, fx, fy);
        QVERIFY(onDraft);
        QCOMPARE(onDraft->draftModel, draft->name);
        QCOMPARE(onDraft->layerIndex, d.regions.front().layer);
        QVERIFY(!onDraft->tiles.empty());
        QVERIFY(onDraft->usedBytes > 0 && onDraft->usedBytes <= onDraft->sramBytes);
        // The same core without a draft belongs to the target's first layer.
        const auto withoutDraft = coreInfo(*plain, 0, fx, fy);
        QVERIFY(withoutDraft && withoutDraft->draftModel.empty());
        const auto beside = coreInfo(*window, 0, scene.placement->originX + 1, fy);
        QVERIFY(beside && beside->draftModel.empty() && !beside->tiles.empty());

        QString error;
        const auto cli = ScenarioScene::build(both.scenario, presets, {}, &error);
        QVERIFY2(cli, qPrintable(error));
        QVERIFY(*cli->snapshot == *window->snapshot);
    }

    void theDraftsOwnWaferInTheInspector()
    {
        // Llama-3.1-70B with the Llama-3.1-8B draft: the draft decodes on a wafer of its own after the target's
        // (engine/predict/speculative.h chooseDraftHome); the window counts it and its cores are the draft's.
        const PresetLibrary presets{QString()};
        const Drafted both = drafted(presets, "llama-3.1-70b", "llama-3.1-8b", Scenario{}.contextTokens);
        QVERIFY(both.ok());
        const auto& draft = both.draft;
        const auto& window = both.window;
        const auto& plain = both.plain;
        const WaferScene& scene = *window->scene;
        QVERIFY(scene.draftHome && scene.draftHome->ownWafer());
        QCOMPARE(window->devices, plain->devices + 1);
        QCOMPARE(scene.draftDevice(), plain->devices);
        const Placement& d = *scene.draftPlacement;
        QCOMPARE(window->sramTotalBytes, plain->sramTotalBytes + d.sramTotalBytes());
        const int fx = d.originX + d.regions.front().rect.x + 1;
        const int fy = d.originY + d.regions.front().rect.y + 1;
        const auto onDraft = coreInfo(*window, scene.draftDevice(), fx, fy);
        QVERIFY(onDraft);
        QCOMPARE(onDraft->draftModel, draft->name);
        QCOMPARE(onDraft->layerIndex, d.regions.front().layer);
        QVERIFY(!onDraft->tiles.empty());
        // The same core on wafer 1 is the target's, as without a draft.
        const auto onTarget = coreInfo(*window, 0, fx, fy);
        const auto onTargetAlone = coreInfo(*plain, 0, fx, fy);
        QVERIFY(onTarget && onTargetAlone && onTarget->draftModel.empty());
        QVERIFY(onTarget->tiles == onTargetAlone->tiles);
        bool noted = false;
        for (const std::string& n : window->notes)
            noted = noted || n.find("wafer of its own") != std::string::npos;
        QVERIFY(noted);
    }
};

QTEST_MAIN(TestPlacementResult)
#include "tst_placementresult.moc"
