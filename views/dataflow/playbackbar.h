#pragma once
// The playback controls of the dataflow animation: play/pause, previous and
// next phase, a scrub slider over the token's cycles, the time dilation
// (wafer time shown per real second) and the current phase with its time in
// microseconds and cycles. A function of a PlaybackState; it emits requests
// and never changes the time itself (the app's controller does).

#include <QString>
#include <QWidget>

#include <optional>

#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace ws::views {

struct PlaybackState
{
    double cycle = 0;
    double totalCycles = 0;
    double clockHz = 1.1e9;
    bool playing = false;
    QString phase; // e.g. "L12 · QKV projection"
    double waferSecondsPerSecond = 1e-6;
};

class PlaybackBar : public QWidget
{
    Q_OBJECT

public:
    static constexpr int sliderSteps = 10000;

    explicit PlaybackBar(QWidget* parent = nullptr);

    void setState(const PlaybackState& state);
    const PlaybackState& state() const { return m_state; }
    // The dilations offered, wafer seconds per real second.
    static const std::vector<double>& dilations();
    // The offered dilation nearest `waferSecondsPerSecond` (by ratio).
    static double nearestDilation(double waferSecondsPerSecond);
    QString timeText() const;

signals:
    void playToggled();
    void seekRequested(double cycle);
    void stepRequested(int direction);
    void dilationRequested(double waferSecondsPerSecond);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    PlaybackState m_state;
    QToolButton* m_play = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QSlider* m_slider = nullptr;
    QComboBox* m_dilation = nullptr;
    QLabel* m_phase = nullptr;
    QLabel* m_time = nullptr;
    bool m_updating = false;
    // What the play button shows (true: Pause), set when it changes: QStyle::standardIcon reads the icon's files
    // each time (a fifth of a playing frame's GUI-thread work in Present mode).
    std::optional<bool> m_playShowsPause;
};

} // namespace ws::views
