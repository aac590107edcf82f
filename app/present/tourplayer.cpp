#include "app/present/tourplayer.h"

#include "app/dataflow/dataflowcontroller.h"
#include "app/present/tourcaptions.h"
#include "app/present/tourstage.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
// Sums of frame times differ from a step's length by rounding: a step ends when less than this is left.
constexpr double kTimeEpsilon = 1e-9;
// A caption's values (a remap's figures, the comparison's) are asked again at most this often in tour time, not at
// every frame: filling one took about 0.5 ms of the GUI thread (the race's systems, the prediction, the locale).
constexpr double kCaptionRefreshSeconds = 0.25;
} // namespace

TourPlayer::TourPlayer(Tour tour, TourStage* stage, QObject* parent)
    : QObject(parent), m_tour(std::move(tour)), m_stage(stage)
{
    m_timer.setInterval(DataflowController::frameIntervalMs); // the animation's own frame rate: 60 per second
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &TourPlayer::tick);
}

void TourPlayer::start()
{
    m_clock.start();
    m_timer.start();
    run(0);
}

void TourPlayer::stop()
{
    m_timer.stop();
}

void TourPlayer::tick()
{
    const double seconds = double(m_clock.restart()) / 1000.0 * m_pace;
    if (!m_paused)
        run(seconds, true);
}

void TourPlayer::advance(double seconds)
{
    if (!m_paused && seconds >= 0 && std::isfinite(seconds))
        run(seconds);
}

void TourPlayer::setPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    m_clock.restart();
    emit pausedChanged(paused);
}

bool TourPlayer::isTimed(const TourStep& step) const
{
    return TourFormat::stepSeconds(step, 1.0) > 0;
}

void TourPlayer::next()
{
    int target = int(m_tour.steps.size());
    for (int i = m_index + 1; i < int(m_tour.steps.size()); ++i)
        if (isTimed(m_tour.steps[size_t(i)])) {
            target = i;
            break;
        }
    restartTo(target);
}

void TourPlayer::back()
{
    int target = 0;
    for (int i = std::min(m_index, int(m_tour.steps.size())) - 1; i >= 0; --i)
        if (isTimed(m_tour.steps[size_t(i)])) {
            target = i;
            break;
        }
    restartTo(target);
}

// From the first step again, finishing every step before `target` at once (the state they leave is shown).
void TourPlayer::restart()
{
    if (m_clock.isValid() && !m_timer.isActive()) { // stopped by an error: real time again
        m_clock.start();
        m_timer.start();
    }
    restartTo(0);
}

void TourPlayer::restartTo(int target)
{
    m_index = 0;
    m_skipUntil = target;
    m_entered = false;
    m_finished = false;
    m_error.clear();
    m_elapsed = 0;
    m_carry = 0;
    m_waiting = false;
    m_caption.clear();
    emit captionChanged(QString());
    run(0);
}

void TourPlayer::run(double seconds, bool live)
{
    if (m_waiting && !m_stage->isBusy()) {
        seconds += m_carry; // what was left of the call that met the busy stage
        m_carry = 0;
        m_waiting = false;
    }
    while (!m_finished) {
        if (m_stage->isBusy()) {
            // Time stands still until the placement or remap is there; the rest of this call is kept for then.
            if (!m_waiting)
                m_carry = seconds;
            m_waiting = true;
            return;
        }
        const int count = int(m_tour.steps.size());
        if (!m_entered) {
            if (m_index >= count) {
                m_finished = true;
                emit finished();
                return;
            }
            const TourStep& step = m_tour.steps[size_t(m_index)];
            if (!enter(step))
                return;
            m_entered = true;
            m_stepTime = 0;
            m_stepDuration = m_index < m_skipUntil ? 0.0 : TourFormat::stepSeconds(step, m_stage->tokenSeconds());
            emit stepChanged(m_index, count);
            // Played live, an instant step that changes the picture (a layer, a zoom, defects, a dock) ends the
            // timer's tick, and the steps after it run on the next one (a frame later) with the rest of its time:
            // run back to back, the first tour's steps 14 to 16 (the whole token's layer again, a fit, a caption)
            // held the GUI thread for 9-12 ms of CPU before their paint. Skipped steps (next, back) still run at
            // once, and so does advance() (recordings, tests).
            const bool changesPicture = step.kind == TourStepKind::Layer || step.kind == TourStepKind::Zoom ||
                                        step.kind == TourStepKind::Defects || step.kind == TourStepKind::Compare;
            if (live && changesPicture && m_stepDuration <= 0 && m_index >= m_skipUntil) {
                m_carry = seconds;
                m_waiting = true;
                return;
            }
            continue;
        }
        const TourStep& step = m_tour.steps[size_t(m_index)];
        if (step.kind == TourStepKind::Open || step.kind == TourStepKind::Defects)
            if (const QString error = m_stage->lastError(); !error.isEmpty())
                return fail(error);
        if (step.kind == TourStepKind::Play && m_stage->tokenSeconds() <= 0)
            return fail(QStringLiteral("%1: step %2 (play): no dataflow schedule to play")
                            .arg(m_tour.source, QString::number(m_index + 1)));
        const double remaining = m_stepDuration - m_stepTime;
        if (seconds < remaining - kTimeEpsilon) {
            m_stepTime += seconds;
            m_elapsed += seconds;
            show(step, m_stepTime);
            return;
        }
        seconds = std::max(0.0, seconds - remaining);
        m_elapsed += m_index < m_skipUntil ? 0.0 : remaining;
        m_stepTime = m_stepDuration;
        show(step, m_stepDuration);
        m_entered = false;
        ++m_index;
    }
}

bool TourPlayer::enter(const TourStep& step)
{
    QString error;
    switch (step.kind) {
    case TourStepKind::Open:
        error = m_stage->open(step, m_tour.source);
        break;
    case TourStepKind::Layer:
        m_stage->setLayer(step.layer, step.engineLayer);
        break;
    case TourStepKind::Zoom:
        m_stage->zoomTo(step.region);
        break;
    case TourStepKind::Defects:
        error = m_stage->injectDefects(step.deadFraction, step.seed);
        break;
    case TourStepKind::Compare:
        m_stage->showComparison(step.show);
        break;
    case TourStepKind::Race:
        m_stage->startRace(step.timeScale);
        break;
    case TourStepKind::Caption:
        m_caption = step.text;
        m_captionAskedAt = 0;
        emit captionChanged(caption());
        break;
    case TourStepKind::Play:
    case TourStepKind::Wait:
        break;
    }
    if (!error.isEmpty()) {
        fail(QStringLiteral("%1: step %2 (%3): %4")
                 .arg(m_tour.source, QString::number(m_index + 1), TourFormat::kindId(step.kind), error));
        return false;
    }
    return true;
}

void TourPlayer::show(const TourStep& step, double seconds)
{
    if (step.kind == TourStepKind::Race) {
        m_stage->showRaceAt(seconds * m_stage->raceTimeScale());
    } else if (step.kind == TourStepKind::Play) {
        // Token k plays over [k, k+1) of the step's duration; the end shows the last token finished.
        const double position = m_stepDuration > 0 ? seconds / m_stepDuration * step.tokens : double(step.tokens);
        const int token = std::min(int(position), step.tokens - 1);
        const double part = std::clamp(position - token, 0.0, 1.0);
        m_stage->showToken(token, step.tokens, step.from + part * (step.to - step.from),
                           step.waferMicrosecondsPerSecond);
    } else if (step.kind == TourStepKind::Caption && m_caption == step.text &&
               (seconds >= m_captionAskedAt + kCaptionRefreshSeconds || seconds < m_captionAskedAt ||
                seconds >= m_stepDuration)) {
        m_captionAskedAt = seconds;
        emit captionChanged(caption()); // its values may have changed (a remap finished)
    }
}

void TourPlayer::fail(const QString& error)
{
    m_error = error;
    m_finished = true;
    m_timer.stop();
    emit failed(error);
}

QString TourPlayer::caption() const
{
    return m_caption.isEmpty() ? QString() : TourCaptions::display(m_caption, m_stage->values());
}

} // namespace ws
