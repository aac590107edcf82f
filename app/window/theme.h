#pragma once
// The application's look: Qt's Fusion style with a dark palette that matches
// the heatmap's background, so the wafer stands out (the app is used for demos).

class QApplication;

namespace ws {

void applyTheme(QApplication& app);

} // namespace ws
