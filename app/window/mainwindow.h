#pragma once
// The main window: scenario pickers on top, the wafer heatmap (the stage) in
// the centre with a strip of all wafers beside it, the docks around it and a
// status bar with devices and SRAM used. It puts the pieces together: the docks
// and their wiring are WindowDocks', the menus WindowMenus', the status bar
// WindowStatus', the scenario on show and its placement the
// ScenarioController's, and what the heatmap shows the Stage's.

#include "app/common/placementresult.h"
#include "app/scenario/scenario.h"
#include "app/window/geometryreport.h"
#include "app/window/scenariocontroller.h"
#include "app/window/windowdocks.h"
#include "app/window/windowmenus.h"

#include <QMainWindow>

#include <memory>

namespace ws {

class ChatController;
class DefectsDock;
class DataflowDock;
class FileMenuController;
class FirstRunDemo;
class InspectorDock;
class LayoutExplorer;
class LanguageManager;
class LayoutEditController;
class ModeController;
class PresetLibrary;
class ScenarioBar;
class Stage;
class WindowLayout;
class WindowStatus;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(const PresetLibrary& presets, LanguageManager& languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Qwen3-32B at bf16 on WSE-3, 8,192 tokens of context.
    static Scenario defaultRequest() { return ScenarioController::defaultRequest(); }

    void setRequest(const Scenario& request) { m_scenarios->setRequest(request); }
    // Starts the default placement if nothing was requested yet (no scenario opened); true if it did.
    bool ensurePlacement() { return m_scenarios->ensurePlacement(); }
    // The scenario as File > Save writes it, and opening one (what FileMenuController calls).
    Scenario scenario() const { return m_scenarios->scenario(); }
    void applyScenario(const Scenario& scenario) { m_scenarios->applyScenario(scenario); }
    FileMenuController* fileMenu() const { return m_menus->files(); }
    // What the stage shows (the pickers' choice, or the chat's loaded model while the wafer shows it).
    Scenario request() const { return m_scenarios->shown(); }
    bool isBusy() const { return m_scenarios->isBusy(); }
    std::shared_ptr<const PlacementResult> result() const;
    QString lastError() const;

    // The main heatmap and what it shows (app/stage/stage.h).
    Stage* stage() const { return m_stage; }
    InspectorDock* inspector() const { return m_docks->inspector(); }
    DefectsDock* defectsDock() const { return m_docks->defects(); }
    ChatController* chat() const { return m_docks->chat(); }
    DataflowDock* dataflowDock() const { return m_docks->dataflow(); }
    LayoutExplorer* explorer() const { return m_explorer; }
    LayoutEditController* layoutEdit() const { return m_docks->layoutEdit(); }
    void setLayer(MeshLayer layer);
    void setDevice(int device);

    // Window and dock layout: restores the one saved in QSettings and saves it on close;
    // without this call a window neither reads nor writes one (tests stay independent of each other).
    void rememberLayout();
    void resetLayout(); // View > Reset Layout: the default docks, the default size
    WindowLayout* windowLayout() const { return m_layout; }
    // The modes (Wafer, Chat, Compare, Explore, Present: app/window/modecontroller.h), View > Mode.
    ModeController* modes() const { return m_modes; }
    // The chat's conversation as it scrolls (the transcript the geometry report measures).
    QWidget* transcriptView() const;
    // Where the heatmap, the transcript and every visible chart and table lie now (--geometry-report).
    GeometryReport geometryReport() const;

    // The first-run demo (app/window/firstrundemo.h); call after ensurePlacement().
    void startFirstRunDemo();
    bool isFirstRunDemo() const;

signals:
    void placementFinished(bool ok);

public slots:
    void recompute() { m_scenarios->recompute(); }

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void retranslate();
    void userSetLayer(MeshLayer layer);
    void userSetDevice(int device);

    ScenarioBar* m_scenarioBar = nullptr;
    Stage* m_stage = nullptr;
    WindowDocks* m_docks = nullptr;   // the inspector, Defects, chat, Dataflow and Layout docks
    WindowMenus* m_menus = nullptr;   // the menus and toolbars, and the File menu's controller
    WindowStatus* m_status = nullptr; // the strip of wafers, the status bar and the title
    FirstRunDemo* m_demo = nullptr;
    LayoutExplorer* m_explorer = nullptr;
    WindowLayout* m_layout = nullptr;
    ModeController* m_modes = nullptr;
    bool m_rememberLayout = false;

    ScenarioController* m_scenarios = nullptr; // what Save writes, and its placement
};

} // namespace ws
