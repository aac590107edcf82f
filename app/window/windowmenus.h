#pragma once
// The window's menus and toolbars: the scenario toolbar, the File menu (its
// own controller), View (zoom, layers, playback, wafers, docks, the
// comparison, presentation and language) and Help, and the view toolbar with
// the layers and the zoom. It attaches the comparison docks and presentation
// mode, which live in the View menu. A layer or wafer picked here is the
// user's pick (layerPicked, devicePicked): the window notes it in the scenario.

#include "engine/wafer/placement/meshsnapshot.h"

#include <QObject>

#include <array>

class QAction;
class QActionGroup;
class QMenu;
class QToolBar;

namespace ws {

class FileMenuController;
class LanguageManager;
class MainWindow;
class PresetLibrary;
class ScenarioBar;
class ScenarioController;

class WindowMenus : public QObject
{
    Q_OBJECT

public:
    // Builds every menu and toolbar of window, whose docks exist by now.
    WindowMenus(MainWindow& window, const PresetLibrary& presets, LanguageManager& languages, ScenarioBar* bar,
                ScenarioController* scenarios);

    FileMenuController* files() const { return m_files; }
    // Puts menu (View > Mode) first in the View menu, above a separator.
    void addModeMenu(QMenu* menu);
    // Every title, text and tooltip in the language now installed.
    void retranslate();

signals:
    void layerPicked(MeshLayer layer);
    void devicePicked(int device);

private:
    void createViewMenu();
    void nameMenuActions(); // object names of every menu action
    void updateAccessibleNames();

    MainWindow& m_window;
    const PresetLibrary& m_presets;
    LanguageManager& m_languages;
    ScenarioController* m_scenarios;
    FileMenuController* m_files = nullptr;
    QMenu* m_view = nullptr;
    QMenu* m_layers = nullptr;
    QMenu* m_language = nullptr;
    QMenu* m_help = nullptr;
    QMenu* m_playback = nullptr;
    QToolBar* m_scenarioToolBar = nullptr;
    QToolBar* m_viewToolBar = nullptr;
    QAction* m_zoomIn = nullptr;
    QAction* m_zoomOut = nullptr;
    QAction* m_fit = nullptr;
    QAction* m_previousWafer = nullptr;
    QAction* m_nextWafer = nullptr;
    std::array<QAction*, 7> m_layerActions{}; // allMeshLayers() order: Ctrl+1 ... Ctrl+7
    QActionGroup* m_layerGroup = nullptr;
    QActionGroup* m_languageGroup = nullptr;
    QAction* m_inspector = nullptr; // the Inspector dock's own toggle, with Ctrl+I
    QAction* m_resetLayout = nullptr;
    QAction* m_about = nullptr;
    QAction* m_shortcuts = nullptr;
};

} // namespace ws
