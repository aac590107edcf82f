// The window's Dataflow dock on the mesh engine's source: it executes the chosen layer of the scenario's placement
// off the GUI thread and plays its run; the inspector then shows what a clicked core of that layer did in the run
// (busy, waiting and idle cycles, the engine's own accounting for that core), says that a core outside the layer
// took no part, and drops the section when the dock goes back to the closed forms. A layer the model lacks is
// refused in the dock's label.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/stage/stage.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindow.h"
#include "views/mesh/devicestrip.h"
#include "views/mesh/meshimage.h"

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
    }
};

QTEST_MAIN(TestEngineView)
#include "tst_engineview.moc"
