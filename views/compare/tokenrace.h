#pragma once
// The race, the one race view: the same token stream in one lane per system,
// each revealed at that system's predicted pace (engine/session/tokenpacer.h,
// the one pacing formula), with a live tokens/s counter and a marker for
// where a human reader would be. A QTimer drives the reveal (it starts when
// the race is shown), or the caller's clock does (a tour, a recording:
// setExternalClock); advanceTo() is the one place that decides what every
// lane shows, so a test can step time by hand. Race time runs slower than
// wall time at the demo pace (the default): the slowest lane then comes out
// at a human reader's pace, so the factor ("slowed 10×", shown above the
// lanes) comes from the predicted rates and the cited reading speed; as in
// the chat (TokenPacer::slowedBy), each lane's first token still comes at its
// predicted time and only its decode is stretched. The token pieces (one string per real token) come
// from a finished text (replay) or grow while a live session streams (appendPieces): a lane never runs ahead of the
// tokens that exist. Below the lanes, while a live session runs, a chart gives the time for the session's tokens so
// far: this CPU measured (prompt evaluation and decode steps, without pacing waits) against each compared system's
// predicted time (showSessionTimes).

#include "engine/session/sessionsnapshot.h"
#include "views/charts/chartdata.h"
#include "views/compare/racechart.h"

#include <QColor>
#include <QElapsedTimer>
#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QComboBox;
class QTimer;

namespace ws::views {

class RaceLane;

// A published or measured decode speed for the race's model and hardware: the lane shows a mark where a
// system at that pace would be (same first-token time as the prediction).
struct RaceMark
{
    double tokensPerSecondPerUser = 0;
    QString tooltip; // names the figure's source
};

struct RaceSystem
{
    SystemPace pace; // id, name, predicted tokens/s per user and time to first token
    QString label;   // shown name, e.g. "8 × H100"
    QColor color;
    QString tooltip;             // where the predicted pace comes from
    std::vector<RaceMark> marks; // published figures that match (shipped reference, calibration, the user's)
};

class TokenRace : public QWidget
{
    Q_OBJECT

public:
    explicit TokenRace(QWidget* parent = nullptr);

    // New race: pieces (token texts, in order), the systems, and a line saying where the text came from.
    void setRace(const QStringList& pieces, const std::vector<RaceSystem>& systems, const QString& textSource);
    // Live stream: more token pieces, one per token (the race keeps running while pieces arrive).
    void appendPieces(const QStringList& pieces);
    // Adds `text` to the last piece (the rest of its character, released later); a first piece when none.
    void extendLastPiece(const QString& text);
    // While streaming, the race clock keeps running after the lanes catch up (more pieces will come).
    void setStreaming(bool streaming);
    bool isStreaming() const { return m_streaming; }
    // Human reading speed in tokens/s (0: no marker) and where it comes from.
    void setReadingSpeed(double tokensPerSecond, const QString& source);

    void start();
    void pause();
    void restart();
    bool isRunning() const;
    // The caller drives the race with advanceTo (a tour, a recording): the timer stops and the race does not start
    // by itself when shown. start() (the Start button) hands the clock back to the timer.
    void setExternalClock(bool external);
    // Slow motion: race seconds per wall second (1 = real time).
    void setTimeScale(double scale);
    double timeScale() const { return m_timeScale; }
    // The demo pace (the default): the time scale follows demoTimeScale for the race's systems and reading speed.
    void setDemoPace();
    bool isDemoPace() const { return m_demoPace; }
    // Race seconds per wall second at which the slowest system comes out at `readingTokensPerSecond` or below:
    // 1 over the round slow-motion factor of engine/session/tokenpacer.h (TokenPacer::slowMotionFor), the one
    // the chat's wafer is slowed by; 1 (real time) when that system is no faster than a reader.
    static double demoTimeScale(const std::vector<RaceSystem>& systems, double readingTokensPerSecond);
    // What the race shows about its pace: "slowed 10×" or "real time".
    QString paceText() const;

    // Shows the race as it stands `seconds` after it started.
    void advanceTo(double seconds);
    double elapsedSeconds() const { return m_elapsed; }

    // The live session's times for its tokens so far (this CPU measured, its systems predicted) in the chart.
    void showSessionTimes(const SessionSnapshot& snapshot);
    static std::vector<RaceRow> rowsFor(const SessionSnapshot& snapshot);
    RaceChart* chart() const { return m_chart; }

    // The race as it stands, for CSV/JSON export: each lane's pace, tokens out and published figures.
    ChartData chartData() const;
    QPushButton* exportButton() const { return m_export; }

    int laneCount() const { return int(m_lanes.size()); }
    RaceLane* lane(int index) const { return m_lanes.at(size_t(index)); }
    const QStringList& pieces() const { return m_pieces; }
    bool isFinished() const;

signals:
    void finished();
    // The Export button: `content` is drawn for PNG/SVG, `data` written for CSV/JSON (the app writes files).
    void exportRequested(QWidget* content, const ws::views::ChartData& data, const QString& title);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void tick();
    void refreshButtons();
    void applyTimeScale(double scale);

    QStringList m_pieces;
    std::vector<RaceSystem> m_systems;
    std::vector<RaceLane*> m_lanes;
    double m_readingTokensPerSecond = 0;
    double m_elapsed = 0;
    bool m_lanesStale = false; // the lanes show an earlier time (hidden when the race advanced)
    double m_elapsedAtResume = 0;
    double m_timeScale = 1.0;
    bool m_demoPace = true;
    bool m_externalClock = false;
    bool m_streaming = false;
    QElapsedTimer m_clock;
    QTimer* m_timer = nullptr;
    QWidget* m_laneBox = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_source = nullptr;
    QLabel* m_readerNote = nullptr;
    QLabel* m_pace = nullptr; // the slow-motion factor
    QLabel* m_chartCaption = nullptr;
    RaceChart* m_chart = nullptr;
    QPushButton* m_play = nullptr;
    QPushButton* m_restart = nullptr;
    QPushButton* m_export = nullptr;
    QComboBox* m_speed = nullptr;
};

} // namespace ws::views
