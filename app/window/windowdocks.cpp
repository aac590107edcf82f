#include "app/window/windowdocks.h"

#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/explore/layoutdock.h"
#include "app/explore/layouteditcontroller.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/stage/stage.h"
#include "app/window/inspectordock.h"
#include "app/window/scenariocontroller.h"
#include "app/window/windowlayout.h"
#include "views/chat/chatpane.h"

#include <QMainWindow>
#include <QStatusBar>

namespace ws {

WindowDocks::WindowDocks(QMainWindow* window, Stage* stage) : QObject(window), m_window(window), m_stage(stage)
{
    m_inspector = new InspectorDock(window);
    connect(stage, &Stage::resultChanged, m_inspector, &InspectorDock::setResult);
    connect(stage, &Stage::deviceChanged, m_inspector, &InspectorDock::clearCore);
    window->addDockWidget(Qt::RightDockWidgetArea, m_inspector);
    window->resizeDocks({m_inspector}, {340}, Qt::Horizontal);
    m_defects = new DefectsDock(stage, window);
    window->tabifyDockWidget(m_inspector, m_defects);
    m_inspector->raise();
    connect(m_defects, &DefectsDock::defectsLayerRequested, this, &WindowDocks::defectsLayerRequested);
    // A failed remap or placement says so where the user looks, until an edit works again.
    connect(m_defects, &DefectsDock::problemChanged, this, [this](const QString& problem) {
        const QString text = problem.isEmpty()
                                 ? QString()
                                 : tr("Defects: %1 (the heatmap keeps the last placement that fits)").arg(problem);
        if (text.isEmpty())
            m_window->statusBar()->clearMessage();
        else
            m_window->statusBar()->showMessage(text);
        m_stage->showBanner(text);
        m_inspector->setProblem(problem);
    });
    // The live session: the chat dock, and the main wafer follows its answer (app/session/livewafer.h). Its race
    // is the comparison's token race (View menu), which follows the chat (app/window/windowmenus.cpp).
    m_chat = new ChatController(window);
    window->addDockWidget(Qt::RightDockWidgetArea, m_chat->pane());
    WindowLayout::keepOwnPlace(m_chat->pane()); // beside the inspector, never scrolled: Send stays on screen
    m_dataflow = new DataflowDock(stage, window);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dataflow);
    m_dataflow->hide(); // shown with the Dataflow layer
    connect(m_dataflow, &DataflowDock::executedChanged, m_inspector, &InspectorDock::setExecuted);
    connect(m_chat, &ChatController::modelChanged, m_dataflow, [this] { // the Values layer's weights
        const auto& info = m_chat->runController()->modelInfo();
        m_dataflow->setWeightsFile(info ? QString::fromStdString(info->filePath) : QString());
    });
    connect(m_chat, &ChatController::turnDecoded, m_dataflow,
            [this](const TurnRequest& request, const std::vector<TokenId>& answer, const QString& text) {
                // The chat's turn, as it decoded it, is what the Values layer decodes on the mesh engine; it is
                // named by the start of its text.
                constexpr int kShown = 40;
                QString label = text.simplified();
                if (label.size() > kShown)
                    label = label.left(kShown - 1) + QChar(0x2026);
                m_dataflow->setValuesTurn({request, answer, label});
            });
    window->resizeDocks({m_dataflow}, {300}, Qt::Vertical);
    m_chat->liveWafer()->setStage(stage);
    connect(m_chat->runController(), &RunController::runningChanged, this, [this](bool running) {
        if (running)
            m_dataflow->controller()->pause(); // the chat's tokens drive the wafer now
    });
    // The Layout dock and hand edits (connectScenarios: a fresh placement becomes the layout to edit).
    m_layoutEdit = new LayoutEditController(stage, window);
    window->addDockWidget(Qt::RightDockWidgetArea, m_layoutEdit->dock());
    window->tabifyDockWidget(m_inspector, m_layoutEdit->dock());
    m_inspector->raise();
}

void WindowDocks::connectScenarios(ScenarioController* scenarios)
{
    LiveWafer* live = m_chat->liveWafer();
    connect(live, &LiveWafer::placementReady, this, [this, scenarios](std::shared_ptr<const PlacementResult> r) {
        scenarios->showChatResult(r);
        m_layoutEdit->adopt(r); // the Layout dock reads and edits what the stage shows
    });
    connect(live, &LiveWafer::placementFailed, scenarios, &ScenarioController::showError);
    connect(live, &LiveWafer::mainPlacementWanted, scenarios, &ScenarioController::recompute);
    connect(live, &LiveWafer::layerWanted, m_stage, &Stage::setLayer);
    // Each edit's result is shown and saved with the scenario.
    connect(scenarios, &ScenarioController::placementFinished, m_layoutEdit, [this, scenarios](bool ok) {
        m_layoutEdit->adopt(ok ? m_stage->result() : nullptr, scenarios->scenario().layout);
    });
    connect(m_layoutEdit, &LayoutEditController::stateChanged, this,
            [this, scenarios](std::shared_ptr<const PlacementResult> r) {
                if (m_chat->liveWafer()->adoptChatPlacement(r)) { // the loaded model's layout: the chat's
                    scenarios->showChatResult(std::move(r));
                    return;
                }
                scenarios->showResult(std::move(r));
                scenarios->noteLayout(m_layoutEdit->state()->choice.layout);
            });
}

} // namespace ws
