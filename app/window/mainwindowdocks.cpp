#include "app/window/mainwindow.h"

#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/explore/layoutdock.h"
#include "app/explore/layouteditcontroller.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/stage/stage.h"
#include "app/window/filemenucontroller.h"
#include "app/window/inspectordock.h"
#include "app/window/windowlayout.h"
#include "views/chat/chatpane.h"
#include "views/mesh/devicestrip.h"
#include "views/mesh/meshview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QStatusBar>

namespace ws {

// The centre (strip of wafers and heatmap), the docks and the status bar labels.
void MainWindow::createDocks()
{
    // Centre: the strip of wafers and the heatmap of the selected one.
    auto* centre = new QWidget(this);
    auto* layout = new QHBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_strip = new views::DeviceStrip(centre);
    m_stripArea = new QScrollArea(centre);
    m_stripArea->setWidget(m_strip);
    m_stripArea->setWidgetResizable(false);
    m_stripArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stripArea->setFrameShape(QFrame::NoFrame);
    m_stripArea->setFixedWidth(m_strip->sizeHint().width() + 14);
    m_stage = new Stage(centre, this); // the heatmap, and the one writer of what it shows
    layout->addWidget(m_stripArea);
    layout->addWidget(m_stage->widget(), 1);
    setCentralWidget(centre);
    connect(m_strip, &views::DeviceStrip::deviceSelected, this, &MainWindow::userSetDevice);
    const views::MeshView* view = m_stage->view();
    connect(view, &views::MeshView::coreClicked, this, &MainWindow::onCoreClicked);
    connect(view, &views::MeshView::coreHovered, this, &MainWindow::onCoreHovered);
    connect(view, &views::MeshView::viewChangedByUser, this, [this] { m_scenarios->noteView(); });
    connect(view, &views::MeshView::turnedChanged, m_strip, [this](bool turned) {
        m_strip->setTurned(turned); // the thumbnails as the heatmap draws the wafer
        m_strip->resize(m_strip->sizeHint());
    });
    connect(m_stage, &Stage::deviceChanged, this, [this](int device) {
        m_strip->setCurrentDevice(device);
        m_inspector->clearCore();
    });

    m_inspector = new InspectorDock(this);
    connect(m_stage, &Stage::resultChanged, m_inspector, &InspectorDock::setResult);
    addDockWidget(Qt::RightDockWidgetArea, m_inspector);
    resizeDocks({m_inspector}, {340}, Qt::Horizontal);
    m_defects = new DefectsDock(m_stage, this);
    tabifyDockWidget(m_inspector, m_defects);
    m_inspector->raise();
    connect(m_defects, &DefectsDock::defectsLayerRequested, this, [this] { userSetLayer(MeshLayer::Defects); });
    // A failed remap or placement says so where the user looks, until an edit works again.
    connect(m_defects, &DefectsDock::problemChanged, this, [this](const QString& problem) {
        const QString text = problem.isEmpty()
                                 ? QString()
                                 : tr("Defects: %1 (the heatmap keeps the last placement that fits)").arg(problem);
        if (text.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(text);
        m_stage->showBanner(text);
        m_inspector->setProblem(problem);
    });
    // The live session: the chat dock, and the main wafer follows its answer (app/session/livewafer.h). Its race
    // is the comparison's token race (View menu), which follows the chat (createActions).
    m_chat = new ChatController(this);
    addDockWidget(Qt::RightDockWidgetArea, m_chat->pane());
    WindowLayout::keepOwnPlace(m_chat->pane()); // beside the inspector, never scrolled: Send stays on screen
    m_dataflow = new DataflowDock(m_stage, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_dataflow);
    m_dataflow->hide(); // shown with the Dataflow layer
    connect(m_dataflow, &DataflowDock::executedChanged, m_inspector, &InspectorDock::setExecuted);
    connect(m_dataflow, &DataflowDock::waferLinksChanged, m_strip, &views::DeviceStrip::setLinks);
    connect(m_chat, &ChatController::modelChanged, m_dataflow, [this] { // the Values layer's weights
        const auto& info = m_chat->runController()->modelInfo();
        m_dataflow->setWeightsFile(info ? QString::fromStdString(info->filePath) : QString());
    });
    resizeDocks({m_dataflow}, {300}, Qt::Vertical);
    LiveWafer* live = m_chat->liveWafer();
    live->setStage(m_stage);
    connect(live, &LiveWafer::placementReady, this, [this](std::shared_ptr<const PlacementResult> r) {
        m_scenarios->showChatResult(r);
        m_layoutEdit->adopt(r); // the Layout dock reads and edits what the stage shows
    });
    connect(live, &LiveWafer::placementFailed, this, [this](const QString& e) { m_scenarios->showError(e); });
    connect(live, &LiveWafer::mainPlacementWanted, this, &MainWindow::recompute);
    connect(live, &LiveWafer::layerWanted, this, &MainWindow::setLayer);
    connect(m_chat->runController(), &RunController::runningChanged, this, [this](bool running) {
        if (running)
            m_dataflow->controller()->pause(); // the chat's tokens drive the wafer now
    });

    // The Layout dock and hand edits: a fresh placement becomes the layout to edit; each edit's result is shown
    // and saved with the scenario.
    m_layoutEdit = new LayoutEditController(m_stage, this);
    addDockWidget(Qt::RightDockWidgetArea, m_layoutEdit->dock());
    tabifyDockWidget(m_inspector, m_layoutEdit->dock());
    m_inspector->raise();
    connect(this, &MainWindow::placementFinished, m_layoutEdit,
            [this](bool ok) { m_layoutEdit->adopt(ok ? m_stage->result() : nullptr, scenario().layout); });
    connect(m_layoutEdit, &LayoutEditController::stateChanged, this, [this](std::shared_ptr<const PlacementResult> r) {
        if (m_chat->liveWafer()->adoptChatPlacement(r)) { // the loaded model's layout: the chat's, not the scenario's
            m_scenarios->showChatResult(std::move(r));
            return;
        }
        m_scenarios->showResult(std::move(r));
        m_scenarios->noteLayout(m_layoutEdit->state()->choice.layout);
    });

    m_hoverLabel = new QLabel(this);
    m_zoomLabel = new QLabel(this);
    m_devicesLabel = new QLabel(this);
    m_sramLabel = new QLabel(this);
    statusBar()->addWidget(m_hoverLabel, 1);
    statusBar()->addPermanentWidget(m_zoomLabel);
    statusBar()->addPermanentWidget(m_devicesLabel);
    statusBar()->addPermanentWidget(m_sramLabel);
    connect(view, &views::MeshView::zoomChanged, this, [this](double scale) {
        if (m_stage->result())
            m_zoomLabel->setText(tr("Zoom: %1 px per core").arg(QLocale().toString(scale, 'g', 3)));
    });
    // After every dock that follows the stage: the demo plays on the schedule the Dataflow dock has just built.
    connect(m_stage, &Stage::resultChanged, this, &MainWindow::resultShown);
    connect(m_stage, &Stage::layerChanged, this, &MainWindow::layerShown);
}

} // namespace ws
