// The window's Dataflow dock on the mesh engine's source: it executes the chosen layer of the scenario's placement
// off the GUI thread and plays its run; the inspector then shows what a clicked core of that layer did in the run
// (busy, waiting and idle cycles, the engine's own accounting for that core), says that a core outside the layer
// took no part, and drops the section when the dock goes back to the closed forms. A layer the model lacks is
// refused in the dock's label. The Links layer runs the engine and shows every link's words; the Values layer
// asks for a model's weights and, given stories260K's, shows what each of its weight cores computed.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/stage/stage.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindow.h"
#include "views/mesh/devicestrip.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

#include "engine/session/generatorsessionmodel.h"
#include "tests/common/testmodels.h"
#include "tests/common/testskips.h"

#include <QtTest>

#include <cmath>

using namespace ws;

namespace {
// "5,537 cycles (12.3%)" -> 5537
double cyclesIn(const QString& text)
{
    QString digits;
    for (const QChar c : text.section(QLatin1Char(' '), 0, 0))
        if (c.isDigit())
            digits += c;
    return digits.toDouble();
}
} // namespace

class TestEngineView : public QObject
{
    Q_OBJECT

private slots:
    void inspectorShowsTheEnginesCycles()
    {
        const PresetLibrary presets;
        LanguageManager languages;
        MainWindow window(presets, languages);
        window.resize(1366, 768);
        window.show();
        window.ensurePlacement();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 180000);
        // Two wafers: the strip says what crosses the link between them per token, the hidden state at 16 bits.
        const auto placed = window.findChild<views::DeviceStrip*>();
        QVERIFY(placed);
        const auto result = window.stage()->result();
        QVERIFY(result && result->devices == 2);
        const QString link = placed->linkText(0);
        QVERIFY2(link.contains(views::formatBytes(double(result->model().hiddenSize) * 2.0)), qPrintable(link));

        window.setLayer(MeshLayer::Dataflow);
        DataflowDock* dock = window.dataflowDock();
        dock->setSource(1, 2);
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isExecuting(), 120000);
        QVERIFY2(dock->errorText().isEmpty(), qPrintable(dock->errorText()));
        const auto executed = dock->controller()->executed();
        QVERIFY(executed);
        QCOMPARE(executed->schedule().phases.front().layer, 2);
        QCOMPARE(placed->linkText(0), link); // the whole token's link labels stay while one layer plays

        auto* inspector = window.findChild<InspectorDock*>();
        const Phase& first = executed->schedule().phases.front();
        const int x = first.rect.x + first.rect.width / 2, y = first.rect.y + first.rect.height / 2;
        inspector->setCore(first.device, x, y);
        const MeshRun& run = executed->run();
        const int index = run.fabric->findCore(first.device, x, y);
        QVERIFY(index >= 0);
        const CoreStats& stats = run.fabric->cores()[size_t(index)].stats;
        QCOMPARE(cyclesIn(inspector->valueFor(QStringLiteral("Busy"))), std::round(stats.total().busy));
        QCOMPARE(cyclesIn(inspector->valueFor(QStringLiteral("Waiting"))), std::round(stats.total().waiting));
        QVERIFY(stats.total().busy > 0);
        // Its messages, as the run's events give them ("12 · 3,456 words").
        const MeshPlayback::CoreTraffic traffic = executed->coreTraffic(index);
        QVERIFY(traffic.messagesOut > 0);
        QCOMPARE(cyclesIn(inspector->valueFor(QStringLiteral("Messages out"))), double(traffic.messagesOut));
        QCOMPARE(cyclesIn(inspector->valueFor(QStringLiteral("Messages in"))), double(traffic.messagesIn));
        QCOMPARE(cyclesIn(inspector->valueFor(QStringLiteral("Router words"))), std::round(traffic.routerWords));
        QVERIFY(!inspector->valueFor(QStringLiteral("FFN gate/up")).isNull());

        // A core far from layer 2's region took no part.
        const int farX = first.rect.x > 10 ? 0 : first.rect.x + first.rect.width + 5;
        inspector->setCore(first.device, farX, first.rect.y + first.rect.height + 5);
        QCOMPARE(inspector->valueFor(QStringLiteral("Took part")), QStringLiteral("no"));

        // Back to the closed forms: no engine section.
        dock->setSource(0);
        QVERIFY(!dock->controller()->executed());
        QVERIFY(inspector->valueFor(QStringLiteral("Took part")).isNull());

        // A layer the model lacks: the dock says so.
        dock->setSource(1, 999);
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isExecuting(), 120000);
        QVERIFY2(dock->errorText().contains(QStringLiteral("out of range")), qPrintable(dock->errorText()));
        QVERIFY(!dock->controller()->executed());

        // The Links layer: the dock stays (its source is the engine) and the view shows the run's link words.
        window.setLayer(MeshLayer::Links);
        QVERIFY(dock->isVisible());
        QCOMPARE(dock->source(), 1);
        dock->setSource(1, 2);
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isExecuting(), 120000);
        QVERIFY2(dock->errorText().isEmpty(), qPrintable(dock->errorText()));
        QTRY_VERIFY(window.stage()->view()->frame() && window.stage()->view()->frame()->overlayTop > 0);
        const auto links = window.stage()->view()->frame();
        QCOMPARE(links->overlayTop, dock->controller()->executed()->maxRouterWords());
        QCOMPARE(links->links.size(), dock->controller()->executed()->linkLoads().size());
        QVERIFY(!dock->controller()->isPlaying());
        dock->controller()->play(); // a still picture: nothing to play
        QVERIFY(!dock->controller()->isPlaying());

        // The Values layer without a model's weights says what it needs.
        window.setLayer(MeshLayer::Values);
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isExecuting(), 120000);
        QVERIFY2(dock->errorText().contains(QStringLiteral("weights")), qPrintable(dock->errorText()));
        // A model file whose shape is not the model on the wafer: refused by name, nothing computed.
        const QString other = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
        WS_REQUIRE_MODEL_FILE(other);
        dock->setWeightsFile(other);
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isExecuting(), 120000);
        QVERIFY2(dock->errorText().contains(QStringLiteral("Qwen3-32B")), qPrintable(dock->errorText()));
        QVERIFY(!dock->controller()->executed());
    }

    void valuesLayerShowsWhatEachCoreComputed()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto session = GeneratorSessionModel::load(path);
        QVERIFY(session.hasValue());
        const PresetLibrary presets;
        ScenarioSpec spec;
        spec.model = (*session)->info().config;
        spec.hardware = *presets.hardware(QStringLiteral("wse3"));
        spec.workload.contextTokens = 64;
        spec.fitSubMesh = true;
        auto result = computePlacement(spec);
        QVERIFY2(result.hasValue(), result ? "" : result.error().message().c_str());

        QWidget parent;
        Stage stage(&parent);
        DataflowDock dock(&stage);
        stage.showResult(std::make_shared<const PlacementResult>(std::move(*result)));
        stage.setLayer(MeshLayer::Values);
        dock.setWeightsFile(QString::fromStdString(path));
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isExecuting(), 120000);
        QVERIFY2(dock.errorText().isEmpty(), qPrintable(dock.errorText()));
        const auto executed = dock.controller()->executed();
        QVERIFY(executed && executed->hasValues());
        QTRY_VERIFY(stage.view()->frame() && stage.view()->frame()->overlayTop > 0);
        const auto frame = stage.view()->frame();
        const MeshSnapshot& s = *frame->base;
        // Each core with a value holds a weight matrix; the largest |value| is the scale's top.
        int valued = 0, weightCores = 0;
        double largest = 0;
        const std::vector<float>& cells = frame->activity.at(0);
        for (size_t i = 0; i < cells.size(); ++i) {
            const MeshOwner& owner = s.owners[s.owner[0][i]];
            const bool weights = s.owner[0][i] != 0 && owner.tensorKind != "kv" && owner.tensorKind != "token_embd";
            weightCores += weights;
            if (!std::isfinite(cells[i]))
                continue;
            ++valued;
            QVERIFY2(s.owner[0][i] != 0, qPrintable(QString::number(i)));
            largest = std::max(largest, std::abs(double(cells[i]) - 0.5) * 2 * frame->overlayTop);
        }
        QVERIFY2(valued > 0 && valued >= weightCores / 2,
                 qPrintable(QStringLiteral("%1 of %2").arg(valued).arg(weightCores)));
        QCOMPARE(largest, frame->overlayTop);
        // Against the engine's values: each one's signed sum is at most the magnitude of its partial products.
        for (const MeshCoreValue& v : executed->values())
            QVERIFY(std::abs(v.partialSum) <= v.partialMagnitude * (1 + 1e-9));
    }
};

QTEST_MAIN(TestEngineView)
#include "tst_engineview.moc"
