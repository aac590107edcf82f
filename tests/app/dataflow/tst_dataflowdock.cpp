// The Dataflow dock's prefill source: the scenario's prompt (a 512-token one) in the predictor's chunks pipelined
// through the placed layers, then the first token. It plays the engine's prefill schedule (not the decode token's),
// lasting the predictor's time to first token; the timeline shows the prompt's band; the line beside the KV choice
// says the prompt, chunks and first-token time, its tooltip where they come from; a frame in mid-prompt lights
// several layers' regions at once (a wave). Back on the whole token, no prefill, and the token's schedule
// made before. The token crossing to the next wafer moves the frames, not the dock's visibility. The Values layer
// without weights shows nothing lit (not the frame of the layer before), and the Dataflow layer after it runs the
// engine's timing run again.
#include "app/common/placementresult.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/stage/stage.h"
#include "views/charts/chartformat.h"
#include "views/dataflow/playbackbar.h"
#include "views/dataflow/timelinechart.h"
#include "views/mesh/meshview.h"

#include "engine/predict/predictor.h"
#include "engine/wafer/dataflow/activity.h"

#include <QtTest>

#include <set>

using namespace ws;

namespace {
// `model` on WSE-3 (as many wafers as it needs), placed as the window places a scenario; null (and why, in the
// log) where it fails.
std::shared_ptr<const PlacementResult> placedOnWse3(const char* model, int64_t promptTokens = 0)
{
    const PresetLibrary presets;
    ScenarioSpec spec;
    spec.model = *presets.model(QString::fromLatin1(model));
    spec.hardware = *presets.hardware(QStringLiteral("wse3"));
    if (promptTokens > 0)
        spec.workload.promptTokens = promptTokens;
    auto result = computePlacement(spec);
    if (!result) {
        qWarning("%s", result.error().message().c_str());
        return nullptr;
    }
    return std::make_shared<const PlacementResult>(std::move(*result));
}
} // namespace

class TestDataflowDock : public QObject
{
    Q_OBJECT

private slots:
    void prefillPlaysThePromptThroughTheLayers()
    {
        const auto placed = placedOnWse3("qwen3-8b", 512);
        QVERIFY(placed);

        QWidget parent;
        Stage stage(&parent);
        DataflowDock dock(&stage);
        stage.showResult(placed);
        stage.setLayer(MeshLayer::Dataflow);
        const auto decode = dock.controller()->schedule();
        QVERIFY(decode && !decode->isPrefill());

        dock.setSource(2);
        QCOMPARE(dock.source(), 2);
        QVERIFY2(dock.errorText().isEmpty(), qPrintable(dock.errorText()));
        const auto prefill = dock.controller()->schedule();
        QVERIFY(prefill && prefill->isPrefill());
        QCOMPARE(prefill->promptTokens, int64_t(512));
        QVERIFY(prefill->chunks > 1);
        // The predictor's time to first token, not a figure of the dock's own.
        const auto predicted = predict(placed->spec());
        QVERIFY(predicted.hasValue());
        QVERIFY2(std::abs(prefill->seconds() - predicted->ttftSeconds) < 1e-9 * predicted->ttftSeconds,
                 qPrintable(QStringLiteral("%1 vs %2").arg(prefill->seconds()).arg(predicted->ttftSeconds)));
        // The prompt plays in about kPrefillPlaySeconds of real time, at a pace the playback bar offers.
        const double pace = dock.controller()->waferSecondsPerSecond();
        QCOMPARE(pace, views::PlaybackBar::nearestDilation(prefill->seconds() / DataflowDock::kPrefillPlaySeconds));
        QVERIFY(prefill->seconds() / pace > DataflowDock::kPrefillPlaySeconds / 4);
        QVERIFY(prefill->seconds() / pace < DataflowDock::kPrefillPlaySeconds * 4);
        QVERIFY(!dock.timeline()->prefillBandPoints().isEmpty());
        const QString info = dock.infoText();
        QVERIFY2(info.contains(QStringLiteral("512")), qPrintable(info));
        QVERIFY2(info.contains(views::formatSignificant(predicted->ttftSeconds * 1e3)), qPrintable(info));
        QVERIFY2(info.contains(QString::number(prefill->chunks)), qPrintable(info));

        // Mid-prompt: compute phases of several layers run at once, and the frame lights each one's region.
        dock.controller()->seek(prefill->promptEndCycle / 2);
        const auto frame = dock.controller()->currentFrame();
        QVERIFY(frame && !frame->activity.empty());
        std::set<int> lit;
        for (size_t i : activePhases(*prefill, prefill->promptEndCycle / 2)) {
            const Phase& p = prefill->phases[i];
            if (!p.computes || p.layer < 0 || p.device != 0 || p.rect.width <= 0)
                continue;
            const auto& cells = frame->activity.at(0);
            for (int y = p.rect.y; y < p.rect.y + p.rect.height; ++y)
                for (int x = p.rect.x; x < p.rect.x + p.rect.width; ++x) {
                    const size_t core = size_t(y) * size_t(frame->base->meshCols) + size_t(x);
                    if (core < cells.size() && cells[core] > 0)
                        lit.insert(p.layer);
                }
        }
        QVERIFY2(lit.size() >= 2, qPrintable(QString::number(lit.size())));

        dock.setSource(0);
        QVERIFY(!dock.controller()->schedule()->isPrefill());
        QVERIFY(dock.timeline()->prefillBandPoints().isEmpty());
        // The whole token's schedule is the one made before (kept for this placement and KV choice, not placed
        // again, as a tour switching sources would); a new placement gets its own.
        QCOMPARE(dock.controller()->schedule(), decode);
        const auto again = placedOnWse3("qwen3-8b", 512);
        QVERIFY(again);
        stage.showResult(again);
        QVERIFY(dock.controller()->schedule() && dock.controller()->schedule() != decode);
    }

    void aWaferHopLeavesTheDockShownOrHidden()
    {
        // The Dataflow layer follows its token from wafer to wafer (Stage::setDevice). Seen in the real window in
        // Compare mode: at such a hop the dock, which that mode hides, showed itself for a moment (its timeline
        // still empty) and was hidden again; in the workbench a dock the user had closed came back at every hop.
        const auto placed = placedOnWse3("qwen3-32b"); // bf16: two wafers
        QVERIFY(placed);
        QVERIFY2(placed->snapshot->deviceCount >= 2, qPrintable(QString::number(placed->snapshot->deviceCount)));

        struct ShowCount : QObject
        {
            int shows = 0;
            bool eventFilter(QObject* watched, QEvent* event) override
            {
                if (event->type() == QEvent::Show)
                    ++shows;
                return QObject::eventFilter(watched, event);
            }
        } count;
        QWidget parent;
        Stage stage(&parent);
        DataflowDock dock(&stage);
        dock.installEventFilter(&count);
        stage.showResult(placed);
        stage.setLayer(MeshLayer::Dataflow);
        QVERIFY(!dock.isHidden()); // it shows with its layer
        QCOMPARE(count.shows, 1);

        dock.hide(); // closed (by the user, or by a mode without it)
        stage.setDevice(1);
        QCOMPARE(stage.device(), 1);
        QCOMPARE(dock.controller()->device(), 1); // the frames are the second wafer's
        QVERIFY(dock.isHidden());
        QCOMPARE(count.shows, 1);

        // Choosing the layer again shows it, as before; a hop while shown leaves it shown.
        stage.setLayer(MeshLayer::SramOccupancy);
        QVERIFY(dock.isHidden());
        stage.setLayer(MeshLayer::Dataflow);
        QVERIFY(!dock.isHidden());
        stage.setDevice(0);
        QCOMPARE(dock.controller()->device(), 0);
        QVERIFY(!dock.isHidden());
        QCOMPARE(count.shows, 2);
    }

    void valuesWithoutWeightsShowNothingLit()
    {
        // Seen in the real window: Links, then Values with no model loaded. The dock said the layer needs weights,
        // but the heatmap kept the Links frame, its words per link drawn on the Values scale (-871 to 871, the
        // largest link's words); back on Dataflow the dock stayed on that error with no schedule.
        const auto placed = placedOnWse3("qwen3-0.6b");
        QVERIFY(placed);

        QWidget parent;
        Stage stage(&parent);
        DataflowDock dock(&stage);
        stage.showResult(placed);
        stage.setLayer(MeshLayer::Links); // the engine's still picture: its timing run of layer 0
        QCOMPARE(dock.source(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(dock.controller()->executed() != nullptr, 60000);
        const auto links = stage.view()->frame();
        QVERIFY(links && !links->links.empty() && links->overlayTop > 0);

        stage.setLayer(MeshLayer::Values); // no weights file given
        QTRY_VERIFY_WITH_TIMEOUT(!dock.errorText().isEmpty(), 60000);
        QVERIFY(!dock.controller()->executed());
        const auto shown = stage.view()->frame();
        QVERIFY(shown && shown != links);
        QCOMPARE(shown->base, placed->snapshot);
        QVERIFY(shown->links.empty());
        QCOMPARE(shown->overlayTop, 0.0);
        for (const std::vector<float>& device : shown->activity)
            QVERIFY(std::none_of(device.begin(), device.end(), [](float v) { return v > 0; }));

        stage.setLayer(MeshLayer::Dataflow); // the timing run serves this layer: made again
        QTRY_VERIFY_WITH_TIMEOUT(dock.controller()->executed() != nullptr, 60000);
        QVERIFY2(dock.errorText().isEmpty(), qPrintable(dock.errorText()));
    }
};

QTEST_MAIN(TestDataflowDock)
#include "tst_dataflowdock.moc"
