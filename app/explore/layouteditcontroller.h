#pragma once
// The layout explorer's editing: the Layout dock, hand edits on the heatmap
// (views/mesh/mesheditor.h intents turned into the engine's edit operations,
// engine/wafer/placement/layoutedit.h) and their undo stack. Every change,
// from the dock or by hand, is one QUndoCommand holding the layout before and
// after it, so undo places exactly the previous layout again. Placing runs on
// a worker through JobTracker (a newer change drops older results); a refused
// edit's one line appears where the pointer is and changes nothing.

#include "app/common/jobtracker.h"
#include "app/explore/explorestate.h"

#include <QObject>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QMainWindow;
class QMenu;
class QUndoStack;

namespace ws {

class Stage;

namespace views {
class MeshEditor;
} // namespace views

class LayoutDock;

class LayoutEditController : public QObject
{
    Q_OBJECT

public:
    // Edits by hand on the stage's heatmap (its editor overlay).
    LayoutEditController(Stage* stage, QMainWindow* window);
    ~LayoutEditController() override;

    LayoutDock* dock() const { return m_dock; }
    QUndoStack* undoStack() const { return m_stack; }
    views::MeshEditor* editor() const { return m_editor; }
    // The Edit menu (Undo, Redo) before `before` in the window's menu bar.
    void installMenus(QAction* before);

    // The window placed afresh (a picker changed, a scenario opened): that placement becomes the layout to edit
    // and the undo history of the previous one is cleared; `saved` (a scenario's edited layout) is then placed
    // exactly in its stead.
    void adopt(std::shared_ptr<const PlacementResult> result, const std::optional<Layout>& saved = {});
    std::shared_ptr<const ExploreState> state() const { return m_state; }
    bool isBusy() const { return m_jobs.isBusy(); }

    // The edits (also what the heatmap's intents call). Each is checked at once: a refusal returns false and
    // shows its reason by the pointer; an accepted edit is pushed on the undo stack and placed.
    bool moveLayer(int layer, int dxCores, int dyCores);
    bool resizeLayer(int layer, int edge, int deltaCores); // edge: ws::RegionEdge order
    bool swapLayers(int a, int b);
    bool moveTable(int table, int layer); // table: ws::LayoutTable order
    // Places `choice` exactly (undo and redo; no new undo entry).
    void show(const LayoutChoice& choice);

signals:
    // A change (edit, settings, undo, redo) was placed: the window draws its result.
    void stateChanged(std::shared_ptr<const PlacementResult> result);
    void refused(const QString& reason);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();
    void settingsChanged();
    bool edit(Expected<Layout> edited, const QString& what);
    void accept(ExploreState state, bool changed);

    QMainWindow* m_window;
    LayoutDock* m_dock = nullptr;
    views::MeshEditor* m_editor = nullptr;
    QUndoStack* m_stack = nullptr;
    QMenu* m_editMenu = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    std::shared_ptr<const ExploreState> m_state; // what is shown
    std::optional<LayoutChoice> m_target;        // the latest choice asked for (edits build on it)
    // Snapshots of earlier states: once nothing else holds one, the next edit writes into its buffers.
    std::vector<std::shared_ptr<const MeshSnapshot>> m_retired;
    JobTracker m_jobs;
};

} // namespace ws
