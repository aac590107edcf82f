#pragma once
// MainWindow's menus, actions and toolbars (app/window/mainwindowactions.cpp) and
// the scenario file's ids of the heatmap layers. Private to app/window.

#include "app/window/mainwindow.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QString>

#include <array>

class QAction;
class QActionGroup;
class QMenu;
class QToolBar;

namespace ws {

struct MainWindow::Actions
{
    QMenu* view = nullptr;
    QMenu* layers = nullptr;
    QMenu* language = nullptr;
    QMenu* help = nullptr;
    QToolBar* scenarioToolBar = nullptr;
    QToolBar* viewToolBar = nullptr;
    QAction* zoomIn = nullptr;
    QAction* zoomOut = nullptr;
    QAction* fit = nullptr;
    QAction* previousWafer = nullptr;
    QAction* nextWafer = nullptr;
    std::array<QAction*, 7> layerActions{}; // allMeshLayers() order: Ctrl+1 ... Ctrl+7
    QMenu* playback = nullptr;
    QActionGroup* layerGroup = nullptr;
    QActionGroup* languageGroup = nullptr;
    QAction* inspector = nullptr;
    QAction* resetLayout = nullptr;
    QAction* about = nullptr;
    QAction* shortcuts = nullptr;
};

} // namespace ws
