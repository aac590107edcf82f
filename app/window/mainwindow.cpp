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
#include "app/window/firstrundemo.h"
#include "app/window/inspectordock.h"
#include "app/window/modecontroller.h"
#include "app/window/scenariobar.h"
#include "app/window/windowdocks.h"
#include "app/window/windowlayout.h"
#include "app/window/windowmenus.h"
#include "app/window/windowstatus.h"
#include "views/chat/chatmessagelist.h"
#include "views/chat/chatpane.h"
#include "views/mesh/devicestrip.h"
#include "views/mesh/meshview.h"
#include "views/widgets/wheelguard.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QEvent>
#include <QHBoxLayout>
#include <QSettings>

namespace ws {

MainWindow::MainWindow(const PresetLibrary& presets, LanguageManager& languages, QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    // The wheel scrolls docks and never edits an unfocused spin box or combo box, in every window of the
    // application (views/widgets/wheelguard.h); installed before the first control is made.
    views::WheelGuard::install(QApplication::instance());
    m_scenarioBar = new ScenarioBar(this);
    m_scenarioBar->setPresets(presets);

    // Centre: the strip of wafers and the heatmap of the selected one.
    auto* centre = new QWidget(this);
    auto* row = new QHBoxLayout(centre);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    m_stage = new Stage(centre, this); // the heatmap, and the one writer of what it shows
    m_status = new WindowStatus(this, m_stage, centre);
    row->addWidget(m_status->stripArea());
    row->addWidget(m_stage->widget(), 1);
    setCentralWidget(centre);
    connect(m_status->strip(), &views::DeviceStrip::deviceSelected, this, &MainWindow::userSetDevice);
    connect(m_stage->view(), &views::MeshView::coreClicked, this, [this](int device, int x, int y) {
        inspector()->setCore(device, x, y);
        m_modes->showInspector(); // a dock, or in Wafer mode an overlay on the heatmap
    });

    m_docks = new WindowDocks(this, m_stage);
    connect(m_docks, &WindowDocks::defectsLayerRequested, this, [this] { userSetLayer(MeshLayer::Defects); });
    connect(dataflowDock(), &DataflowDock::waferLinksChanged, m_status->strip(), &views::DeviceStrip::setLinks);
    // After every dock that follows the stage: the demo plays on the schedule the Dataflow dock has just built.
    m_demo = new FirstRunDemo(m_stage, dataflowDock(), chat(), this);
    m_scenarios = new ScenarioController(
        presets, {m_scenarioBar, m_stage, chat(), defectsDock(), [this] { fileMenu()->markModified(); }}, this);
    m_docks->connectScenarios(m_scenarios);
    connect(m_stage->view(), &views::MeshView::viewChangedByUser, m_scenarios, &ScenarioController::noteView);
    connect(m_scenarioBar, &ScenarioBar::requestChanged, m_scenarios, &ScenarioController::userChangedRequest);
    connect(m_scenarios, &ScenarioController::opened, m_demo, [this] { m_demo->end(false); });
    connect(m_scenarios, &ScenarioController::placementFinished, this, &MainWindow::placementFinished);
    m_menus = new WindowMenus(*this, presets, languages, m_scenarioBar, m_scenarios);
    connect(m_menus, &WindowMenus::layerPicked, this, &MainWindow::userSetLayer);
    connect(m_menus, &WindowMenus::devicePicked, this, &MainWindow::userSetDevice);
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
    modes.chat = chat()->pane();
    modes.comparison = findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
    modes.inspector = inspector();
    modes.workbenchOnly = {dataflowDock()};
    modes.presentation = findChild<PresentationMode*>();
    modes.defaultState = m_layout->defaultState();
    modes.stateVersion = WindowLayout::stateVersion();
    modes.restored = [this] { dataflowDock()->layerChanged(); }; // the Dataflow dock shows with its layer
    modes.arranged = [this] {
        m_stage->fitToWindow();
        chat()->liveWafer()->zoomToPlacedCores(); // the chat's small model, not a dot on a whole wafer
    };
    m_modes = new ModeController(std::move(modes), this);
    connect(m_modes, &ModeController::modeChanged, this, [this](ModeController::Mode mode) {
        // The heatmap fills the window in Wafer mode as in Present: a portrait wafer in a landscape room turns.
        if (mode != ModeController::Mode::Present)
            m_stage->setTurnToFit(mode == ModeController::Mode::Wafer);
        // The chat's wafer rests (nothing lit) until a turn plays, not the Dataflow dock's last frame.
        if (mode == ModeController::Mode::Chat && m_stage->frameSource() != Stage::FrameSource::Chat) {
            dataflowDock()->controller()->pause();
            chat()->liveWafer()->showIdle();
        }
    });
    m_menus->addModeMenu(m_modes->menu());
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::transcriptView() const
{
    // The conversation's place in the pane: the messages, or before a model is loaded the page saying how to get
    // one (both pages of one stack).
    QWidget* messages = chat()->pane()->findChild<views::ChatMessageList*>();
    return messages && messages->parentWidget() ? messages->parentWidget() : messages;
}

GeometryReport MainWindow::geometryReport() const
{
    auto* self = const_cast<MainWindow*>(this);
    return GeometryReport::measure(self, m_stage->widget(), transcriptView(), ModeController::modeId(m_modes->mode()));
}

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
    m_demo->end(layer == MeshLayer::Dataflow);
    setLayer(layer);
    if (layer == MeshLayer::Defects) { // the layer's controls live in the Defects dock
        defectsDock()->show();
        defectsDock()->raise();
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

void MainWindow::setLayer(MeshLayer layer)
{
    m_stage->setLayer(layer);
}

void MainWindow::setDevice(int device)
{
    m_stage->setDevice(device); // the strip and the inspector follow deviceChanged
}

void MainWindow::startFirstRunDemo()
{
    m_demo->start();
}

bool MainWindow::isFirstRunDemo() const
{
    return m_demo->isOn();
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::retranslate()
{
    m_menus->retranslate();
    m_status->retranslate();
    m_stage->widget()->setToolTip(QString());
    if (m_stage->error().isEmpty() && !m_stage->result())
        m_stage->showBusy(tr("Computing the placement…"));
    else if (!m_stage->error().isEmpty())
        m_stage->showError(m_stage->error()); // again, in the new language
}

void MainWindow::rememberLayout()
{
    m_rememberLayout = true;
    QSettings settings;
    if (m_layout->restore(settings)) {
        m_modes->restore(settings);     // the mode the saved layout is of, and each mode's own
        dataflowDock()->layerChanged(); // the Dataflow dock shows with its layer, whatever was saved
    }
}

void MainWindow::resetLayout()
{
    m_layout->reset();    // the first size
    m_modes->resetMode(); // the docks of the mode in use
    dataflowDock()->layerChanged();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Reached only when the close goes ahead (the File menu's unsaved-changes question filters it before).
    if (m_rememberLayout) {
        QSettings settings;
        m_layout->save(settings);
        m_modes->save(settings);
    }
    QMainWindow::closeEvent(event);
}

} // namespace ws
