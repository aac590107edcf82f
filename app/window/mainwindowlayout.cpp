// MainWindow's layout memory (QSettings), View > Reset Layout and the first-run demo.
#include "app/window/mainwindow.h"

#include "app/dataflow/dataflowdock.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/window/modecontroller.h"
#include "app/window/windowlayout.h"
#include "views/dataflow/playbackbar.h"
#include "views/mesh/meshview.h"

#include <QCloseEvent>
#include <QSettings>

#include <algorithm>
#include <cmath>

namespace ws {

void MainWindow::rememberLayout()
{
    m_rememberLayout = true;
    QSettings settings;
    if (m_layout->restore(settings)) {
        m_modes->restore(settings); // the mode the saved layout is of, and each mode's own
        m_dataflow->layerChanged(); // the Dataflow dock shows with its layer, whatever was saved
    }
}

void MainWindow::resetLayout()
{
    m_layout->reset();    // the first size
    m_modes->resetMode(); // the docks of the mode in use
    m_dataflow->layerChanged();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Reached only when the close goes ahead (the File menu's unsaved-changes question filters it before).
    if (m_rememberLayout) {
        QSettings settings;
        m_layout->save(settings);
        m_modes->save(settings);
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::startFirstRunDemo()
{
    if (m_chat->runController()->modelInfo())
        return;
    m_demo = true;
    m_normalPace = m_dataflow->controller()->waferSecondsPerSecond();
    connect(
        m_chat, &ChatController::modelChanged, this, [this] { endDemo(false); }, Qt::SingleShotConnection);
    setLayer(MeshLayer::Dataflow);
    playDemo();
}

void MainWindow::playDemo()
{
    DataflowController* controller = m_dataflow->controller();
    const auto schedule = controller->schedule();
    if (!m_demo || !schedule || !(schedule->seconds() > 0))
        return;
    // The playback bar's own pace whose token lasts nearest kDemoSecondsPerToken (so the bar shows the pace played).
    controller->setWaferSecondsPerSecond(
        views::PlaybackBar::nearestDilation(schedule->seconds() / kDemoSecondsPerToken));
    controller->play();
}

void MainWindow::endDemo(bool keepPlaying)
{
    if (!m_demo)
        return;
    m_demo = false;
    DataflowController* controller = m_dataflow->controller();
    if (!keepPlaying) {
        controller->pause();
        // A loaded model: the wafer rests idle until the chat's first answer (not frozen mid-token, L6 lit, while
        // the playback bar reads cycle 0).
        m_chat->liveWafer()->showIdle();
    }
    controller->setWaferSecondsPerSecond(m_normalPace);
}

} // namespace ws
