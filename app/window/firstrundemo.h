#pragma once
// The first-run demo: with nothing opened and no model loaded, the default
// scenario's Dataflow layer plays on the Dataflow dock's own playback, at the
// bar's pace whose token lasts nearest kSecondsPerToken seconds (Qwen3-32B on
// WSE-3: 1.6 ms a token at 1 ms / s, one token every 1.6 s). It gives way
// (pace back to normal, paused unless the Dataflow layer is picked) when the
// user picks a layer, opens a scenario or loads a model in the chat.

#include <QObject>

namespace ws {

class ChatController;
class DataflowDock;
class Stage;

class FirstRunDemo : public QObject
{
    Q_OBJECT

public:
    static constexpr double kSecondsPerToken = 4.0;

    FirstRunDemo(Stage* stage, DataflowDock* dataflow, ChatController* chat, QObject* parent);

    // Starts the demo unless a model is loaded; call after the default placement was started.
    void start();
    // The demo's pace on the schedule now shown (each time the stage shows a placement).
    void play();
    // The user took over: keepPlaying when the Dataflow layer was picked.
    void end(bool keepPlaying);
    bool isOn() const { return m_on; }

private:
    Stage* m_stage;
    DataflowDock* m_dataflow;
    ChatController* m_chat;
    bool m_on = false;
    double m_normalPace = 0; // the dilation the demo replaced
};

} // namespace ws
