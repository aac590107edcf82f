#pragma once
// Plays a tour on a TourStage, step by step. Time is injected: advance(dt)
// moves the tour dt seconds on (a recording calls it once per frame, a test
// with any step), and start() drives it from a timer in real time times the
// pace factor (setPace: 10 plays ten times faster). Time stands still while
// the stage is busy (a placement or a defect remap running) and while
// paused. next() and back() jump between the timed steps (captions that stay,
// waits, tokens played, races): the tour is replayed from its start to there
// with every timed step skipped, so each jump shows what a viewer who
// watched to that point would see.

#include "app/present/tourformat.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace ws {

class TourStage;

class TourPlayer : public QObject
{
    Q_OBJECT

public:
    TourPlayer(Tour tour, TourStage* stage, QObject* parent = nullptr);

    const Tour& tour() const { return m_tour; }
    void start(); // real time (times the pace) from a timer
    void stop();
    void setPace(double factor) { m_pace = factor; }
    void advance(double seconds);
    void next();
    void back();
    // From the first step again (Home), also after the end or an error; a player started in real time plays on.
    void restart();
    void setPaused(bool paused);
    void togglePause() { setPaused(!m_paused); }
    bool isPaused() const { return m_paused; }
    bool isFinished() const { return m_finished; }
    QString error() const { return m_error; }
    int stepIndex() const { return m_index; }           // the step running (steps().size() when finished)
    double elapsedSeconds() const { return m_elapsed; } // tour time played (skipped steps not counted)
    // The caption shown now, translated and filled (empty when none).
    QString caption() const;
    // Shows the caption again in the current language (call on a language change).
    void refreshCaption() { emit captionChanged(caption()); }

signals:
    void captionChanged(const QString& caption);
    void stepChanged(int index, int count);
    void pausedChanged(bool paused);
    void finished();
    void failed(const QString& error);

private:
    void restartTo(int target);
    // `live`: from the timer, where a step that changes the picture at once ends the tick (see run()).
    void run(double seconds, bool live = false);
    bool enter(const TourStep& step); // false on an error (the tour stops)
    void show(const TourStep& step, double seconds);
    void fail(const QString& error);
    bool isTimed(const TourStep& step) const;
    void tick();

    Tour m_tour;
    TourStage* m_stage;
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_pace = 1;
    int m_index = 0;
    int m_skipUntil = 0; // steps before this one finish at once (next / back)
    bool m_entered = false;
    double m_stepTime = 0;
    double m_stepDuration = 0;
    double m_elapsed = 0;
    double m_carry = 0;     // seconds of the call that found the stage busy (or ended a tick), played next
    bool m_waiting = false; // the stage was busy at the last call, or a live tick ended early
    bool m_paused = false;
    bool m_finished = false;
    QString m_caption;           // source text of the caption shown
    double m_captionAskedAt = 0; // the caption step's time when its values were last filled
    QString m_error;
};

} // namespace ws
