#pragma once
// The Defects dock of the main window: the DefectsPanel (views) driven by a
// DefectsController, wired to the heatmap. The window hands it every new
// placement it shows (setPlacement); the dock has the stage put the remapped
// snapshot (Defects layer filled) on the heatmap and asks the window to show the Defects layer when a
// tool is used. With the brush on, clicks and drags on the heatmap kill or
// revive cores.

#include "app/common/placementresult.h"
#include "app/defects/defectscontroller.h"
#include "app/scenario/scenario.h"

#include <QDockWidget>

#include <memory>
#include <optional>

namespace ws {

namespace views {
class DefectsPanel;
} // namespace views

class Stage;

class DefectsDock : public QDockWidget
{
    Q_OBJECT

public:
    // Follows the stage: each scene it shows is the placement the defects apply to.
    DefectsDock(Stage* stage, QWidget* parent = nullptr);

    void setPlacement(std::shared_ptr<const PlacementResult> result, int device);
    // A scenario's defects: a random fraction of dead cores (seeded) and explicit physical cores,
    // applied to the next placement (replacing what was injected before).
    void setScenarioDefects(double deadFraction, uint64_t seed, const QVector<DeadCore>& cores);
    DefectsController* controller() const { return m_controller; }
    views::DefectsPanel* panel() const { return m_panel; }
    bool isBusy() const { return m_controller->isBusy(); }

signals:
    void defectsLayerRequested();
    void idle(); // a computation finished and no other is running

protected:
    void changeEvent(QEvent* event) override;

private:
    void report(const Status& status);
    void showOutcome();

    Stage* m_stage = nullptr;
    views::DefectsPanel* m_panel = nullptr;
    DefectsController* m_controller = nullptr;
    std::shared_ptr<const PlacementResult> m_result;
    QString m_lastError;
    struct ScenarioDefects
    {
        double deadFraction = 0;
        uint64_t seed = 1;
        QVector<DeadCore> cores;
    };
    std::optional<ScenarioDefects> m_scenarioDefects;
};

} // namespace ws
