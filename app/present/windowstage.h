#pragma once
// The tour's stage in the main window: each step drives the window's own
// pieces (opening a scenario as File > Open does, the layer as View > Layer
// does, the heatmap's zoom, the Dataflow dock's controller, the Defects dock's
// controller, the comparison and token race docks). The window hands them in
// (app/present does not know app/window): pointers to its docks and views, and
// functions for what only the window does.

#include "app/common/placementresult.h"
#include "app/present/tourstage.h"
#include "app/scenario/scenario.h"

#include <functional>
#include <memory>

class QDockWidget;
class QMainWindow;

namespace ws {

namespace views {
class TokenRace;
} // namespace views

class Stage;

class ComparisonController;
class DataflowDock;
class DefectsDock;

struct WindowParts
{
    QMainWindow* window = nullptr;
    Stage* stage = nullptr; // the main heatmap and the scene on show (app/stage/stage.h)
    DataflowDock* dataflow = nullptr;
    DefectsDock* defects = nullptr;
    ComparisonController* comparison = nullptr;
    QDockWidget* comparisonDock = nullptr;
    QDockWidget* raceDock = nullptr;    // shows the comparison's race (ComparisonController::race())
    std::function<Scenario()> scenario; // what the window shows (restored when a presentation ends)
    std::function<void(const Scenario&)> applyScenario;
    std::function<void(MeshLayer)> setLayer;
    std::function<void(int)> setDevice; // the wafer the heatmap shows
    std::function<bool()> isBusy;       // the placement is running
};

class WindowStage : public TourStage
{
public:
    explicit WindowStage(WindowParts parts);

    QString open(const TourStep& step, const QString& tourFile) override;
    QString injectDefects(double deadFraction, quint64 seed) override;
    void setLayer(MeshLayer layer, int engineLayer = -1) override;
    void zoomTo(const QRectF& region) override;
    void showComparison(bool show) override;
    void startRace(double timeScale) override;
    void showRaceAt(double seconds) override;
    double raceTimeScale() const override;
    void showToken(int token, int tokens, double fraction, double waferMicrosecondsPerSecond) override;
    double tokenSeconds() const override;
    bool isBusy() const override;
    QString lastError() const override;
    QMap<QString, QString> values() const override;

    const WindowParts& parts() const { return m_parts; }

private:
    views::TokenRace* race() const;

    WindowParts m_parts;
};

} // namespace ws
