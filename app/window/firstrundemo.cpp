#include "app/window/firstrundemo.h"

#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/stage/stage.h"
#include "views/dataflow/playbackbar.h"

namespace ws {

FirstRunDemo::FirstRunDemo(Stage* stage, DataflowDock* dataflow, ChatController* chat, QObject* parent)
    : QObject(parent), m_stage(stage), m_dataflow(dataflow), m_chat(chat)
{
    connect(m_stage, &Stage::resultChanged, this, &FirstRunDemo::play);
}

void FirstRunDemo::start()
{
    if (m_chat->runController()->modelInfo())
        return;
    m_on = true;
    m_normalPace = m_dataflow->controller()->waferSecondsPerSecond();
    connect(
        m_chat, &ChatController::modelChanged, this, [this] { end(false); }, Qt::SingleShotConnection);
    m_stage->setLayer(MeshLayer::Dataflow);
    play();
}

void FirstRunDemo::play()
{
    DataflowController* controller = m_dataflow->controller();
    const auto schedule = controller->schedule();
    if (!m_on || !m_stage->result() || !schedule || !(schedule->seconds() > 0))
        return;
    // The playback bar's own pace whose token lasts nearest kSecondsPerToken (so the bar shows the pace played).
    controller->setWaferSecondsPerSecond(views::PlaybackBar::nearestDilation(schedule->seconds() / kSecondsPerToken));
    controller->play();
}

void FirstRunDemo::end(bool keepPlaying)
{
    if (!m_on)
        return;
    m_on = false;
    DataflowController* controller = m_dataflow->controller();
    if (!keepPlaying) {
        controller->pause();
        // A loaded model: the wafer rests idle until the chat's first answer (not frozen mid-token, L6 lit, while
        // the playback bar reads cycle 0). Without one the scenario stays on the stage: the chat's idle frame
        // would show its empty KV cache on the KV layer (0-100 %, dark) beside the strip's 0-5 % of the scenario.
        if (m_chat->runController()->modelInfo())
            m_chat->liveWafer()->showIdle();
    }
    controller->setWaferSecondsPerSecond(m_normalPace);
}

} // namespace ws
