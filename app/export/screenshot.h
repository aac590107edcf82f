#pragma once
// Screenshots: a widget saved as a PNG once the work it is waiting for has
// finished. The one way the app takes them: `waferscope --screenshot` (the
// main window after its placement and defect remap) and the compare-shot
// tool (the comparison panel, the race). The widget is shown, the event loop
// runs until each piece of pending work is done (in order: one piece may
// start another, as a placement starts the defect remap), the widget lays
// out and paints, and it is drawn and written as File > Export does it
// (Exporter::renderWidget, Exporter::saveImage).

#include <QString>

#include <functional>
#include <vector>

class QWidget;

namespace ws {

struct PendingWork
{
    std::function<bool()> busy; // true while the work runs
    QString what;               // for the timeout message: "the placement" did not finish within 120 s
};

// Runs the event loop until no piece of `pending` is busy, waiting for each in turn (up to timeoutMs
// each). False, with "<what> did not finish within <s> s" in *error, when one is still busy.
bool waitForPendingWork(const std::vector<PendingWork>& pending, int timeoutMs, QString* error);

// Shows the widget, waits for `pending`, lets it lay out and paint, and saves it at `scale` device
// pixels per widget pixel as the PNG file `path`. False with *error set if a wait times out or the
// file cannot be written.
bool saveScreenshot(QWidget* widget, const QString& path, const std::vector<PendingWork>& pending, double scale,
                    QString* error, int timeoutMs = 120000);

} // namespace ws
