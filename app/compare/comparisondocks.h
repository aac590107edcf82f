#pragma once
// Puts the comparison into a main window with one call: a "Comparison" dock
// (ComparisonPanel) and a "Token race" dock (TokenRace, replaying the sample
// token stream until a live session feeds it), in the bottom dock area,
// hidden until their actions (added to `viewMenu` when given) show them, and
// the ComparisonController that fills both. The window owns everything.
//
//   auto* compare = ws::attachComparison(this, m_presets, viewMenu);
//   connect(run, &RunController::snapshotReady, compare, &ComparisonController::followSession); // live chat

#include <QCoreApplication>

class QMainWindow;
class QMenu;

namespace ws {

class ComparisonController;
class PresetLibrary;

ComparisonController* attachComparison(QMainWindow* window, const PresetLibrary& presets, QMenu* viewMenu = nullptr);

} // namespace ws
