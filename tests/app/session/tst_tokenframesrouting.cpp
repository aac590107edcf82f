// The chat's wafer lights the experts a token really routed to. A random-weight
// qwen3moe model and a gpt-oss one (4 experts, 2 per token) decode a few tokens; its router's
// choice per step (Generator::routing) goes to the chat wafer of the model
// placed on a WSE-3 (TokenFrames::followRouting, as LiveWafer does in "the
// loaded model" mode). The experts whose tiles compute in that token's
// schedule are exactly the routed ones, and the frame the chat shows is that
// schedule's dataflow.
#include "app/session/tokenframes.h"
#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/model/ggufmodelimporter.h"
#include "engine/wafer/dataflow/meshframe.h"
#include "tests/common/presetfixture.h"
#include "tests/common/testmodels.h"

#include <QTest>

#include <set>

using namespace ws;

class TestTokenFramesRouting : public QObject
{
    Q_OBJECT
private slots:
    void litExpertsAreTheRoutedOnes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("layers");
        QTest::newRow("qwen3moe") << QStringLiteral("qwen3moe-random-F32.gguf") << 1;
        QTest::newRow("gpt-oss") << QStringLiteral("gptoss-random-F32.gguf") << 2;
    }
    void litExpertsAreTheRoutedOnes()
    {
        QFETCH(QString, file);
        QFETCH(int, layers);
        const std::string path =
            wstest::sourcePath(QStringLiteral("tests/engine/decode/data/ggmltypes/") + file).toStdString();
        auto model = DecodeModel::load(path);
        QVERIFY2(model, model ? "" : model.error().message().c_str());
        Generator gen(*model, 64, 1);
        GenerationSettings settings;
        settings.maxTokens = 8;
        settings.stopAtEndOfGeneration = false;
        QVERIFY(gen.start(std::vector<TokenId>{1, 403, 407, 261, 378}, settings));
        std::vector<std::shared_ptr<const ExpertRouting>> routings;
        for (int i = 0; i < 8; ++i) {
            auto r = std::make_shared<const ExpertRouting>(gen.routing());
            QCOMPARE(r->layers, layers);
            QCOMPARE(r->perLayer, 2);
            routings.push_back(r);
            QVERIFY(gen.step());
        }

        auto config = importGgufModel(path);
        QVERIFY2(config, config ? "" : config.error().message().c_str());
        QVERIFY(config->isMoe());
        ScenarioSpec request;
        request.model = *config;
        request.hardware = wstest::hardwarePreset(QStringLiteral("wse3"));
        request.workload.contextTokens = 64;
        request.fitSubMesh = true;
        auto scene = buildWaferScene(request, {.withSchedule = true});
        QVERIFY2(scene, scene ? "" : scene.error().message().c_str());
        QString error;
        auto wafer = TokenFrames::build(*scene, &error);
        QVERIFY2(wafer, qPrintable(error));
        wafer->followRouting(*scene);
        QVERIFY(wafer->routed);

        // Each expert's tile in the layer (the placement's, else the schedule's split of the layer region).
        const ScheduleRegions& regions = scene->timing->regions;
        std::vector<CoreRect> tiles;
        if (!regions.expertRegions.empty() && int(regions.expertRegions[0].size()) >= config->expertCount)
            for (const RegionRef& r : regions.expertRegions[0])
                tiles.push_back(r.rect);
        else
            tiles = expertTiles(regions.layers[0].rect, config->expertCount);
        QCOMPARE(int(tiles.size()), config->expertCount);
        auto litExperts = [&](const TokenSchedule& schedule) {
            std::set<int> lit;
            for (const Phase& p : schedule.phases)
                for (int e = 0; e < config->expertCount; ++e)
                    if (p.layer == 0 && p.computes && p.rect.x == tiles[size_t(e)].x &&
                        p.rect.y == tiles[size_t(e)].y && p.rect.width == tiles[size_t(e)].width &&
                        p.rect.height == tiles[size_t(e)].height)
                        lit.insert(e);
            return lit;
        };

        const std::set<int> standIn = litExperts(*wafer->schedule);
        const TokenFrames::Source source = wafer->frameSource(nullptr);
        std::set<std::set<int>> distinct;
        bool differsFromStandIn = false;
        for (size_t i = 0; i < routings.size(); ++i) {
            const auto routed = routings[i]->layer(0);
            const std::set<int> want(routed.begin(), routed.end());
            const auto schedule = wafer->scheduleFor(routings[i].get());
            QCOMPARE(litExperts(*schedule), want);
            distinct.insert(want);
            differsFromStandIn = differsFromStandIn || want != standIn;
            // The frame shown for the token is its own schedule's dataflow.
            const auto frame = source(int(i), 5 + int(i), routings[i]);
            QVERIFY(frame && frame->base);
            DataflowFrameOptions options;
            options.hops = false;
            options.cycle = goldenRatioCycle(*schedule, int(i));
            options.trailCycles = TokenFrames::trailFraction * schedule->totalCycles;
            std::vector<float> expected;
            fillDataflowGlow(*schedule, frame->base->meshCols, frame->base->meshRows, options, expected);
            QVERIFY(!frame->activity.empty());
            QCOMPARE(frame->activity[0], expected);
            // At an instant inside the experts' FFN (no trail), exactly the routed experts' tiles compute.
            const Phase* expertPhase = nullptr;
            for (const Phase& p : schedule->phases)
                if (p.layer == 0 && p.computes && p.rect.x == tiles[size_t(routed[0])].x &&
                    p.rect.y == tiles[size_t(routed[0])].y && p.rect.width == tiles[size_t(routed[0])].width &&
                    p.rect.height == tiles[size_t(routed[0])].height)
                    expertPhase = &p;
            QVERIFY(expertPhase);
            DataflowFrameOptions instant;
            instant.hops = false;
            instant.cycle = 0.5 * (expertPhase->startCycle + expertPhase->computeEndCycle);
            std::vector<float> glow;
            fillDataflowGlow(*schedule, frame->base->meshCols, frame->base->meshRows, instant, glow);
            for (int e = 0; e < config->expertCount; ++e) {
                const CoreRect& t = tiles[size_t(e)];
                int lit = 0;
                for (int y = t.y; y < t.y + t.height; ++y)
                    for (int x = t.x; x < t.x + t.width; ++x)
                        lit += glow[size_t(y) * size_t(frame->base->meshCols) + size_t(x)] > 0.5f ? 1 : 0;
                QCOMPARE(lit > 0, want.count(e) == 1);
                if (want.count(e))
                    QCOMPARE(lit, t.width * t.height);
            }
        }
        // The routing varies over the tokens and is not the schedule's fixed sample, so the check can fail.
        QVERIFY(distinct.size() >= 2);
        QVERIFY(differsFromStandIn);
        qInfo("%zu tokens, %zu distinct expert pairs lit", routings.size(), distinct.size());
    }
};

QTEST_GUILESS_MAIN(TestTokenFramesRouting)
#include "tst_tokenframesrouting.moc"
