#include "app/window/mainwindow.h"

#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/explore/layoutexplorer.h"
#include "app/present/presentationmode.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/stage/stage.h"
#include "app/window/filemenucontroller.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindowactions.h"
#include "app/window/modecontroller.h"
#include "app/window/scenariobar.h"
#include "app/window/windowlayout.h"
#include "views/chat/chatmessagelist.h"
#include "views/chat/chatpane.h"
#include "views/mesh/devicestrip.h"
#include "views/mesh/meshview.h"
#include "views/widgets/wheelguard.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QScrollArea>

namespace ws {

MainWindow::MainWindow(const PresetLibrary& presets, LanguageManager& languages, QWidget* parent)
    : QMainWindow(parent), m_presets(presets), m_languages(languages), m_actions(std::make_unique<Actions>())
{
    setObjectName(QStringLiteral("mainWindow"));
    // The wheel scrolls docks and never edits an unfocused spin box or combo box, in every window of the
    // application (views/widgets/wheelguard.h); installed before the first control is made.
    views::WheelGuard::install(QApplication::instance());
    m_scenarioBar = new ScenarioBar(this);
    m_scenarioBar->setPresets(presets);

    createDocks();
    m_scenarios = new ScenarioController(
        presets, {m_scenarioBar, m_stage, m_chat, m_defects, [this] { m_files->markModified(); }}, this);
    connect(m_scenarioBar, &ScenarioBar::requestChanged, m_scenarios, &ScenarioController::userChangedRequest);
    connect(m_scenarios, &ScenarioController::opened, this, [this] { endDemo(false); });
    connect(m_scenarios, &ScenarioController::placementFinished, this, &MainWindow::placementFinished);
    createActions();
    // The layout explorer (app/explore): the Explore menu, the Compare Layouts and Sweep docks, the optimiser.
    m_explorer = new LayoutExplorer(
        this, presets, [this] { return LayoutExplorer::withPlacedLayout(scenario(), m_stage->result().get()); });
    connect(this, &MainWindow::placementFinished, m_explorer, [this](bool ok) {
        if (ok)
            m_explorer->windowScenarioChanged();
    });
    retranslate();
    m_layout = new WindowLayout(this);
    m_layout->arrange(QSize(1600, 1000)); // every dock the window has by now; bounded by the screen
    // The modes arrange these docks; the first layout is the Explore mode's (the workbench).
    ModeController::Parts modes;
    modes.window = this;
    modes.chat = m_chat->pane();
    modes.comparison = findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
    modes.inspector = m_inspector;
    modes.workbenchOnly = {m_dataflow};
    modes.presentation = findChild<PresentationMode*>();
    modes.defaultState = m_layout->defaultState();
    modes.stateVersion = WindowLayout::stateVersion();
    modes.restored = [this] { m_dataflow->layerChanged(); }; // the Dataflow dock shows with its layer
    modes.arranged = [this] { m_stage->fitToWindow(); };
    m_modes = new ModeController(std::move(modes), this);
    connect(m_modes, &ModeController::modeChanged, this, [this](ModeController::Mode mode) {
        // The chat's wafer rests (nothing lit) until a turn plays, not the Dataflow dock's last frame.
        if (mode == ModeController::Mode::Chat && m_stage->frameSource() != Stage::FrameSource::Chat) {
            m_dataflow->controller()->pause();
            m_chat->liveWafer()->showIdle();
        }
    });
    m_actions->view->insertMenu(m_actions->view->actions().constFirst(), m_modes->menu());
    m_actions->view->insertSeparator(m_actions->view->actions().at(1));
}

QWidget* MainWindow::transcriptView() const
{
    // The conversation's place in the pane: the messages, or before a model is loaded the page saying how to get
    // one (both pages of one stack).
    QWidget* messages = m_chat->pane()->findChild<views::ChatMessageList*>();
    return messages && messages->parentWidget() ? messages->parentWidget() : messages;
}

GeometryReport MainWindow::geometryReport() const
{
    auto* self = const_cast<MainWindow*>(this);
    return GeometryReport::measure(self, m_stage->widget(), transcriptView(), ModeController::modeId(m_modes->mode()));
}

MainWindow::~MainWindow() = default;

std::shared_ptr<const PlacementResult> MainWindow::result() const
{
    return m_stage->result();
}

QString MainWindow::lastError() const
{
    return m_stage->error();
}

void MainWindow::userSetLayer(MeshLayer layer)
{
    endDemo(layer == MeshLayer::Dataflow);
    setLayer(layer);
    if (layer == MeshLayer::Defects) { // the layer's controls live in the Defects dock
        m_defects->show();
        m_defects->raise();
    }
    m_scenarios->noteLayer(layer);
}

void MainWindow::userSetDevice(int device)
{
    const auto result = m_stage->result();
    if (!result || !result->snapshot || device < 0 || device >= result->snapshot->deviceCount)
        return;
    setDevice(device);
    m_scenarios->noteDevice(device);
}

void MainWindow::resultShown()
{
    const auto result = m_stage->result();
    m_strip->setSnapshot(result ? result->snapshot : nullptr);
    m_strip->setCurrentDevice(m_stage->device());
    m_strip->resize(m_strip->sizeHint());
    if (!result) {
        updateStatus();
        return;
    }
    playDemo();
    m_zoomLabel->setText(
        tr("Zoom: %1 px per core").arg(QLocale().toString(m_stage->view()->transform().scale, 'g', 3)));
    updateStatus();
}

void MainWindow::setLayer(MeshLayer layer)
{
    m_stage->setLayer(layer); // layerShown follows
}

void MainWindow::layerShown(MeshLayer layer)
{
    m_strip->setLayer(layer);
    for (QAction* action : m_actions->layerGroup->actions())
        action->setChecked(action->data().toInt() == static_cast<int>(layer));
}

void MainWindow::setDevice(int device)
{
    m_stage->setDevice(device); // the strip and the inspector follow deviceChanged
}

void MainWindow::onCoreClicked(int device, int x, int y)
{
    m_inspector->setCore(device, x, y);
    m_modes->showInspector(); // a dock, or in Wafer mode an overlay on the heatmap
}

void MainWindow::onCoreHovered(int device, int x, int y)
{
    m_hoverLabel->setText(x < 0 ? QString() : tr("Wafer %1, core (%2, %3)").arg(device + 1).arg(x).arg(y));
}

void MainWindow::updateStatus()
{
    const QLocale locale;
    const auto result = m_stage->result();
    m_stripArea->setVisible(result && result->snapshot && result->snapshot->deviceCount > 1);
    if (!result) {
        m_zoomLabel->clear();
        m_devicesLabel->setText(tr("Devices: –"));
        m_sramLabel->setText(tr("SRAM used: –"));
        setWindowTitle(tr("WaferScope"));
        return;
    }
    const PlacementResult& r = *result;
    const QString hardware = QString::fromStdString(r.hardware().name);
    m_devicesLabel->setText(tr("Devices: %1 × %2").arg(locale.toString(r.devices), hardware));
    m_devicesLabel->setToolTip(tr("Wafers the engine's placement needs for the model's weights and KV cache at "
                                  "%1 tokens of context.")
                                   .arg(locale.toString(qlonglong(r.spec().workload.contextTokens))));
    const double share = r.sramTotalBytes > 0 ? 100.0 * double(r.sramUsedBytes) / double(r.sramTotalBytes) : 0;
    m_sramLabel->setText(tr("SRAM used: %1 of %2 (%3%)")
                             .arg(views::formatBytes(double(r.sramUsedBytes)),
                                  views::formatBytes(double(r.sramTotalBytes)), locale.toString(share, 'f', 1)));
    m_sramLabel->setToolTip(tr("Sum over all cores of the bytes the placement puts there (weights and KV cache), "
                               "against %1 per core from the hardware preset.")
                                .arg(views::formatBytes(double(r.hardware().wafer.sramBytesPerCore))));
    setWindowTitle(tr("WaferScope — %1 on %2 × %3 (%4)")
                       .arg(QString::fromStdString(r.model().name), locale.toString(r.devices), hardware,
                            QString::fromLatin1(precisionId(r.spec().workload.precision).data()).toUpper()));
}

} // namespace ws
