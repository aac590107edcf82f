#pragma once
// A recording frame source for the app: each frame is what the heatmap widget
// (and, when the recording asks for it, the chat pane beside it) shows at that
// moment, scaled to fit the frame, letterboxed on the app's dark background.
// Use with the File menu's setFrameSource and real-time pacing.

#include "app/record/recorddialog.h"

#include <QPointer>
#include <QWidget>

namespace ws {

class WidgetFrameSource
{
public:
    static RecordFrameSource make(QWidget* heatmap, QWidget* chatPane = nullptr);
    // One frame: `heatmap` (and `chatPane` when given) drawn side by side into `size`.
    static QImage grab(QWidget* heatmap, QWidget* chatPane, QSize size);
};

} // namespace ws
