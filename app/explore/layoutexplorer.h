#pragma once
// The layout explorer's part of the main window: the Explore menu (Pin as A,
// Compare Layouts, Sweep, Optimise Layout, What Would It Take), the Compare Layouts and Sweep
// docks and the optimiser, wired together: a sweep point or the optimiser's
// result opens as B in the compare dock. The window gives it its current
// scenario (with the placed layout, withPlacedLayout) and tells it when that
// changes (windowScenarioChanged), so B follows the layout being edited.

#include "app/scenario/scenario.h"

#include <QObject>

#include <functional>

class QAction;
class QMainWindow;
class QMenu;

namespace ws {

class CompareDock;
class OptimizeRunner;
class PresetLibrary;
class SweepDock;
class WhatItTakesDialog;
struct PlacementResult;

class LayoutExplorer : public QObject
{
    Q_OBJECT

public:
    LayoutExplorer(QMainWindow* window, const PresetLibrary& presets, std::function<Scenario()> currentScenario);

    // `scenario` with the layout `result` placed, when it has none of its own and no defects (a layout is
    // not placed around defects).
    static Scenario withPlacedLayout(Scenario scenario, const PlacementResult* result);

    void windowScenarioChanged();
    void pinCurrentAsA();
    void optimize();
    // Explore > What Would It Take…: the target search for the current scenario.
    void whatItTakes();

    CompareDock* compareDock() const { return m_compare; }
    SweepDock* sweepDock() const { return m_sweep; }
    OptimizeRunner* optimizer() const { return m_optimizer; }
    QMenu* menu() const { return m_menu; }
    WhatItTakesDialog* whatItTakesDialog() const { return m_whatItTakes; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();
    void showCompare();

    QMainWindow* m_window;
    const PresetLibrary& m_presets;
    std::function<Scenario()> m_current;
    CompareDock* m_compare = nullptr;
    SweepDock* m_sweep = nullptr;
    OptimizeRunner* m_optimizer = nullptr;
    QMenu* m_menu = nullptr;
    QAction* m_pin = nullptr;
    QAction* m_compareAction = nullptr;
    QAction* m_sweepAction = nullptr;
    QAction* m_optimize = nullptr;
    QAction* m_whatItTakesAction = nullptr;
    WhatItTakesDialog* m_whatItTakes = nullptr;
    bool m_sweepSized = false; // the Sweep dock gets half the window's height the first time it shows
};

} // namespace ws
