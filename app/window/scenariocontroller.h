#pragma once
// The scenario on show: what File > Save writes (as opened, plus the user's
// changes) and the placement the stage shows for it. A change of picker, an
// opened scenario or the default on first start runs the engine's placement
// on a worker thread (app/common/jobtracker.h); a newer request makes older
// results stale, and they are dropped. The window builds the widgets and
// menus and hands the user's changes here.

#include "app/common/jobtracker.h"
#include "app/common/placementresult.h"
#include "app/scenario/scenario.h"

#include <QObject>

#include <functional>
#include <memory>

namespace ws {

class ChatController;
class DefectsDock;
class PresetLibrary;
class ScenarioBar;
class Stage;

class ScenarioController : public QObject
{
    Q_OBJECT

public:
    struct Parts
    {
        ScenarioBar* bar = nullptr;
        Stage* stage = nullptr;
        ChatController* chat = nullptr;
        DefectsDock* defects = nullptr;
        std::function<void()> markModified; // the File menu's unsaved-changes mark
    };

    ScenarioController(const PresetLibrary& presets, Parts parts, QObject* parent);

    // The default Scenario (app/scenario/scenario.h): Qwen3-32B at bf16 on WSE-3, 8,192 tokens of context.
    static Scenario defaultRequest() { return {}; }

    const Scenario& scenario() const { return m_scenario; }
    void applyScenario(const Scenario& scenario);
    // Starts the default placement if nothing was requested yet (no scenario opened); true if it did.
    bool ensurePlacement();
    // Shows `request`'s choice (model preset, hardware, precision, context, draft) in the pickers and places it
    // with the scenario's workload and defects.
    void setRequest(const Scenario& request);
    // The scenario on show with the pickers' choice.
    Scenario request() const;
    // What the stage shows, as a scenario: request(), or while the wafer shows the chat's loaded model that model's
    // file with the context and precision it was placed with (what the comparison, exports and tests follow).
    Scenario shown() const;
    bool isBusy() const { return m_placements.isBusy(); }
    void recompute();
    // Shows a placement made elsewhere (the chat's model, a hand edit), on the wafer an opened scenario names.
    void showResult(std::shared_ptr<const PlacementResult> result);
    // The chat's own model placed for the wafer ("the loaded model"): it takes the stage from any placement of the
    // scenario's model still running, which would otherwise replace it when it ends.
    void showChatResult(std::shared_ptr<const PlacementResult> result);
    void showError(const QString& message);

    // The user's changes, kept in the scenario (and marked unsaved).
    void userChangedRequest();
    void noteLayer(MeshLayer layer);
    void noteDevice(int device);
    void noteView();
    void noteLayout(const Layout& layout);

signals:
    void opened(); // a scenario was opened or the default shown
    void placementFinished(bool ok);

private:
    void resultShown();
    // The Defects dock's answer to an edit: the scenario's defects, and the scene placed around them.
    void defectsEdited(const DefectRequest& defects, std::shared_ptr<const WaferScene> scene);

    const PresetLibrary& m_presets;
    Parts m_parts;
    Scenario m_scenario;
    int m_pendingDevice = 0;    // device to show once the placement of an opened scenario arrives
    bool m_pendingView = false; // apply the scenario's zoom and centre once the placement arrives
    JobTracker m_placements;    // the placement for the pickers' request; a newer request drops older results
};

} // namespace ws
