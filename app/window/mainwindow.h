#pragma once
// The main window: scenario pickers on top, the wafer heatmap (the stage) in
// the centre with a strip of all wafers beside it, the docks around it and a
// status bar with devices and SRAM used. It builds the widgets and menus; the
// scenario on show and its placement are the ScenarioController's, what the
// heatmap shows is the Stage's.

#include "app/common/placementresult.h"
#include "app/scenario/scenario.h"
#include "app/window/geometryreport.h"
#include "app/window/scenariocontroller.h"

#include <QMainWindow>

#include <memory>

class QActionGroup;
class QLabel;
class QMenu;
class QScrollArea;

namespace ws {

namespace views {
class DeviceStrip;
} // namespace views

class ChatController;
class DefectsDock;
class DataflowDock;
class FileMenuController;
class InspectorDock;
class LayoutExplorer;
class LanguageManager;
class LayoutEditController;
class ModeController;
class PresetLibrary;
class ScenarioBar;
class Stage;
class WindowLayout;

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
    FileMenuController* fileMenu() const { return m_files; }
    // What the stage shows (the pickers' choice, or the chat's loaded model while the wafer shows it).
    Scenario request() const { return m_scenarios->shown(); }
    bool isBusy() const { return m_scenarios->isBusy(); }
    std::shared_ptr<const PlacementResult> result() const;
    QString lastError() const;

    // The main heatmap and what it shows (app/stage/stage.h).
    Stage* stage() const { return m_stage; }
    InspectorDock* inspector() const { return m_inspector; }
    DefectsDock* defectsDock() const { return m_defects; }
    ChatController* chat() const { return m_chat; }
    DataflowDock* dataflowDock() const { return m_dataflow; }
    LayoutExplorer* explorer() const { return m_explorer; }
    LayoutEditController* layoutEdit() const { return m_layoutEdit; }
    void setLayer(MeshLayer layer);
    void setDevice(int device);

    // Window and dock layout (mainwindowlayout.cpp): restores the one saved in QSettings and saves it on close;
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

    // First run (mainwindowlayout.cpp): with nothing opened and no model loaded, the default scenario's
    // Dataflow layer plays on the Dataflow dock's own playback, at the bar's pace whose token lasts nearest
    // kDemoSecondsPerToken seconds (Qwen3-32B on WSE-3: 1.6 ms a token at 1 ms / s, one token every 1.6 s). It gives
    // way (pace back to normal, paused unless the Dataflow layer is picked) when the user picks a layer, opens a
    // scenario or loads a model in the chat. Call after ensurePlacement().
    static constexpr double kDemoSecondsPerToken = 4.0;
    void startFirstRunDemo();
    bool isFirstRunDemo() const { return m_demo; }

signals:
    void placementFinished(bool ok);

public slots:
    void recompute() { m_scenarios->recompute(); }

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createDocks();   // mainwindowdocks.cpp
    void createActions(); // mainwindowactions.cpp, with retranslate()
    void retranslate();
    void nameMenuActions();       // object names of every menu action (mainwindowactions.cpp)
    void updateAccessibleNames(); // every menu's accessible name, from its title
    void resultShown();           // the stage's resultChanged: the strip and the status bar
    void layerShown(MeshLayer layer);
    void updateStatus();
    void onCoreClicked(int device, int x, int y);
    void onCoreHovered(int device, int x, int y);
    void userSetLayer(MeshLayer layer);
    void userSetDevice(int device);
    void playDemo(); // the first-run demo's pace on the shown schedule (mainwindowlayout.cpp)
    void endDemo(bool keepPlaying);

    const PresetLibrary& m_presets;
    LanguageManager& m_languages;
    ScenarioBar* m_scenarioBar = nullptr;
    Stage* m_stage = nullptr;
    views::DeviceStrip* m_strip = nullptr;
    QScrollArea* m_stripArea = nullptr;
    InspectorDock* m_inspector = nullptr;
    DefectsDock* m_defects = nullptr;
    ChatController* m_chat = nullptr; // the live session (app/session)
    DataflowDock* m_dataflow = nullptr;
    LayoutExplorer* m_explorer = nullptr;
    LayoutEditController* m_layoutEdit = nullptr; // the Layout dock, hand edits and their undo stack (app/explore)
    FileMenuController* m_files = nullptr;
    QLabel* m_hoverLabel = nullptr;
    QLabel* m_devicesLabel = nullptr;
    QLabel* m_sramLabel = nullptr;
    QLabel* m_zoomLabel = nullptr;

    struct Actions;
    std::unique_ptr<Actions> m_actions;
    WindowLayout* m_layout = nullptr;
    ModeController* m_modes = nullptr;
    bool m_rememberLayout = false;
    bool m_demo = false;
    double m_normalPace = 0; // the dilation the demo replaced

    ScenarioController* m_scenarios = nullptr; // what Save writes, and its placement
};

} // namespace ws
