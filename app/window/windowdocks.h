#pragma once
// The docks around the stage and the wiring between them: the inspector, the
// Defects dock (tabbed with it), the chat pane and its live wafer, the
// Dataflow dock below the heatmap and the Layout dock with its hand edits.
// Each subscribes to the stage; what goes through the scenario on show (the
// chat's placement, a hand edit, a failed remap) is wired once the
// ScenarioController exists (connectScenarios).

#include "app/common/placementresult.h"

#include <QObject>

class QMainWindow;

namespace ws {

class ChatController;
class DataflowDock;
class DefectsDock;
class InspectorDock;
class LayoutEditController;
class ScenarioController;
class Stage;

class WindowDocks : public QObject
{
    Q_OBJECT

public:
    // Adds the docks to window, around the stage's heatmap.
    WindowDocks(QMainWindow* window, Stage* stage);

    // The wiring through the scenario on show; call once, when scenarios exists.
    void connectScenarios(ScenarioController* scenarios);

    InspectorDock* inspector() const { return m_inspector; }
    DefectsDock* defects() const { return m_defects; }
    ChatController* chat() const { return m_chat; }
    DataflowDock* dataflow() const { return m_dataflow; }
    LayoutEditController* layoutEdit() const { return m_layoutEdit; }

signals:
    // The Defects dock asks for its layer (the user's pick, as from the Layer menu).
    void defectsLayerRequested();

private:
    QMainWindow* m_window;
    Stage* m_stage;
    InspectorDock* m_inspector = nullptr;
    DefectsDock* m_defects = nullptr;
    ChatController* m_chat = nullptr; // the live session (app/session)
    DataflowDock* m_dataflow = nullptr;
    LayoutEditController* m_layoutEdit = nullptr; // the Layout dock, hand edits and their undo stack (app/explore)
};

} // namespace ws
