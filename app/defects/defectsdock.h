#pragma once
// The Defects dock of the main window: the DefectsPanel (views) driven by a
// DefectsController, wired to the heatmap. It follows the stage: each scene
// shown is the scenario the defects belong to (setPlacement). An edit's
// answer (the model placed around the edited defects, engine/scene/defectsanswer.h)
// goes to the scenario as its defects (defectsChanged), which puts that scene
// on the stage: the window shows what `render` draws for the same scenario.
// The dock asks the window to show the Defects layer when a tool is used. With
// the brush on, clicks and drags on the heatmap kill or revive cores.

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
    DefectsController* controller() const { return m_controller; }
    views::DefectsPanel* panel() const { return m_panel; }
    bool isBusy() const { return m_controller->isBusy(); }

signals:
    // An edit answered: the scenario's defects are now `defects`, and `scene` is its placement around them.
    void defectsChanged(const DefectRequest& defects, std::shared_ptr<const WaferScene> scene);
    void defectsLayerRequested();
    // What went wrong with the latest answer (the remap or the placement around it failed); empty once one works.
    void problemChanged(const QString& problem);
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
    QString m_problem; // the latest answer's error, as problemChanged said it
};

} // namespace ws
