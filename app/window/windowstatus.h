#pragma once
// What the window says about the placement on stage: the strip of all wafers
// beside the heatmap (shown when there are several), the status bar (the core
// under the mouse, the zoom, the devices and the SRAM used, each with where
// its number comes from) and the window title. It follows the stage's signals.

#include "app/common/jobtracker.h"

#include <QObject>

class QLabel;
class QMainWindow;
class QScrollArea;
class QWidget;

namespace ws {

namespace views {
class DeviceStrip;
} // namespace views

class Stage;

class WindowStatus : public QObject
{
    Q_OBJECT

public:
    // Adds its labels to window's status bar and makes the strip, a child of stripParent, to lay out beside
    // the stage's heatmap.
    WindowStatus(QMainWindow* window, Stage* stage, QWidget* stripParent);

    views::DeviceStrip* strip() const { return m_strip; }
    QWidget* stripArea() const;

    // Every text again, in the language now installed.
    void retranslate();

private:
    void resultShown();
    void update();

    QMainWindow* m_window;
    Stage* m_stage;
    views::DeviceStrip* m_strip;
    QScrollArea* m_stripArea;
    QLabel* m_hoverLabel;
    QLabel* m_zoomLabel;
    QLabel* m_devicesLabel;
    QLabel* m_sramLabel;
    JobTracker m_thumbnails{this}; // the strip's thumbnails, made off the GUI thread
};

} // namespace ws
