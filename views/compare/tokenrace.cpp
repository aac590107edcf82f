#include "views/compare/tokenrace.h"

#include "engine/session/tokenpacer.h"
#include "views/charts/chartformat.h"
#include "views/compare/racelane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {
// A slow-motion factor as people say it: "4", "4.2", "10", "125" (a ratio of rates, not an exact setting).
QString slowdownText(double factor)
{
    return factor >= 10 ? QLocale().toString(qlonglong(std::llround(factor))) : QLocale().toString(factor, 'g', 2);
}
} // namespace

TokenRace::TokenRace(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(tr("<b>The same answer, at each system's predicted pace</b>"));
    m_title->setWordWrap(true);
    m_play = new QPushButton(tr("Start"));
    m_restart = new QPushButton(tr("Restart"));
    m_speed = new QComboBox;
    m_speed->setToolTip(tr("Slow motion: how fast race time runs against wall time. Demo pace: the slowest lane "
                           "comes out at a human reader's pace."));
    m_speed->addItem(tr("demo pace"), 0.0);
    m_speed->addItem(tr("real time"), 1.0);
    for (int slower : {2, 4, 10})
        m_speed->addItem(tr("slowed %1×").arg(slower), 1.0 / slower);
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this](int i) {
        const double scale = m_speed->itemData(i).toDouble();
        scale > 0 ? setTimeScale(scale) : setDemoPace();
    });
    connect(m_play, &QPushButton::clicked, this, [this] { isRunning() ? pause() : start(); });
    connect(m_restart, &QPushButton::clicked, this, &TokenRace::restart);
    m_export = new QPushButton(tr("Export…"));
    m_export->setToolTip(tr("Save the race as PNG or SVG, or its figures (paces, tokens out, published speeds) as "
                            "CSV or JSON"));
    connect(m_export, &QPushButton::clicked, this,
            [this] { emit exportRequested(this, chartData(), tr("Token race")); });

    // Two rows, so that the controls stay inside a narrow dock (a 1366-pixel window beside the chat).
    auto* top = new QHBoxLayout;
    m_pace = new QLabel;
    QFont paceFont = m_pace->font();
    paceFont.setBold(true);
    m_pace->setFont(paceFont);
    m_pace->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    top->addWidget(m_title, 1);
    top->addWidget(m_pace);
    auto* controls = new QHBoxLayout;
    m_readerNote = new QLabel;
    m_readerNote->setWordWrap(true);
    m_readerNote->setForegroundRole(QPalette::PlaceholderText); // a footnote, in the theme's own quiet colour
    controls->addWidget(m_readerNote, 1);
    controls->addWidget(m_speed);
    controls->addWidget(m_play);
    controls->addWidget(m_restart);
    controls->addWidget(m_export);

    m_laneBox = new QWidget;
    new QHBoxLayout(m_laneBox);
    m_laneBox->layout()->setContentsMargins(0, 0, 0, 0);
    m_laneBox->layout()->setSpacing(8);
    m_source = new QLabel;
    m_source->setWordWrap(true);
    m_source->setForegroundRole(QPalette::PlaceholderText);

    m_chartCaption = new QLabel;
    m_chartCaption->setWordWrap(true);
    m_chart = new RaceChart;
    m_chartCaption->hide(); // shown with the first session times
    m_chart->hide();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(controls);
    layout->addWidget(m_laneBox, 1);
    layout->addWidget(m_source);
    layout->addWidget(m_chartCaption);
    layout->addWidget(m_chart);

    m_timer = new QTimer(this);
    m_timer->setInterval(16);
    connect(m_timer, &QTimer::timeout, this, &TokenRace::tick);
    setDemoPace();
    refreshButtons();
}

void TokenRace::setRace(const QStringList& pieces, const std::vector<RaceSystem>& systems, const QString& textSource)
{
    m_timer->stop();
    m_pieces = pieces;
    m_systems = systems;
    for (RaceLane* l : m_lanes)
        delete l;
    m_lanes.clear();
    for (const RaceSystem& s : systems) {
        auto* lane = new RaceLane;
        lane->setSystem(s.label, s.color, s.pace.tokensPerSecondPerUser, s.tooltip, s.pace.firstTokenSeconds);
        std::vector<double> speeds;
        QStringList tips;
        for (const RaceMark& m : s.marks) {
            speeds.push_back(m.tokensPerSecondPerUser);
            tips << m.tooltip;
        }
        lane->setMarks(speeds, tips);
        QPalette pal = lane->palette();
        // A tint of the system's colour: 12 % colour over the theme's window colour (light or dark).
        const QColor window = pal.color(QPalette::Window);
        const auto mix = [](int under, int over) { return under + (over - under) * 12 / 100; };
        pal.setColor(QPalette::Window, QColor(mix(window.red(), s.color.red()), mix(window.green(), s.color.green()),
                                              mix(window.blue(), s.color.blue())));
        lane->setPalette(pal);
        static_cast<QHBoxLayout*>(m_laneBox->layout())->addWidget(lane, 1); // equal widths where the texts allow
        m_lanes.push_back(lane);
    }
    m_source->setText(textSource);
    m_elapsed = 0;
    m_elapsedAtResume = 0;
    if (m_demoPace)
        applyTimeScale(demoTimeScale(m_systems, m_readingTokensPerSecond));
    advanceTo(0);
    refreshButtons();
    if (isVisible() && !m_externalClock)
        start(); // a race on show runs
}

void TokenRace::appendPieces(const QStringList& pieces)
{
    m_pieces.append(pieces);
    advanceTo(m_elapsed);
}

void TokenRace::extendLastPiece(const QString& text)
{
    if (m_pieces.isEmpty())
        m_pieces.append(text);
    else
        m_pieces.last() += text;
    advanceTo(m_elapsed);
}

std::vector<RaceRow> TokenRace::rowsFor(const SessionSnapshot& s)
{
    std::vector<RaceRow> rows;
    if (s.generatedTokens <= 0)
        return rows;
    rows.push_back({tr("This CPU"), s.firstTokenSeconds + s.decodeSeconds, true});
    for (const SystemPace& system : s.systems) {
        if (system.tokensPerSecondPerUser > 0)
            rows.push_back({QString::fromStdString(system.name),
                            TokenPacer::atPaceOf(system).dueSeconds(s.generatedTokens - 1), false});
    }
    return rows;
}

void TokenRace::showSessionTimes(const SessionSnapshot& snapshot)
{
    m_chart->setRows(rowsFor(snapshot), snapshot.generatedTokens);
    m_chartCaption->setText(snapshot.generatedTokens > 0
                                ? tr("Time for the %1 tokens so far: this CPU measured, the other systems predicted.")
                                      .arg(snapshot.generatedTokens)
                                : tr("Time for the answer so far: this CPU measured, the other systems predicted."));
    m_chartCaption->show();
    m_chart->show();
}

void TokenRace::setStreaming(bool streaming)
{
    m_streaming = streaming;
    advanceTo(m_elapsed);
}

void TokenRace::setReadingSpeed(double tokensPerSecond, const QString& source)
{
    m_readingTokensPerSecond = tokensPerSecond > 0 ? tokensPerSecond : 0;
    m_readerNote->setText(
        m_readingTokensPerSecond > 0
            ? tr("▍ black line: a human reader at %1 tokens/s").arg(formatSignificant(m_readingTokensPerSecond))
            : QString());
    m_readerNote->setToolTip(source);
    if (m_demoPace)
        applyTimeScale(demoTimeScale(m_systems, m_readingTokensPerSecond));
    advanceTo(m_elapsed);
}

void TokenRace::advanceTo(double seconds)
{
    m_elapsed = std::max(0.0, seconds);
    const int total = int(m_pieces.size());
    // Slow motion as the chat's (TokenPacer::slowedBy): each lane's first token at its predicted time on the wall
    // clock, its decode stretched; m_elapsed is race time (wall time x the time scale).
    const bool slowed = m_timeScale < 1.0;
    const double wall = slowed ? m_elapsed / m_timeScale : m_elapsed;
    const auto pacerOf = [&](const SystemPace& pace) {
        const TokenPacer pacer = TokenPacer::atPaceOf(pace);
        return slowed ? pacer.slowedBy(1.0 / m_timeScale) : pacer;
    };
    // Hidden in a shown window (another mode, its dock closed): the lanes' texts catch up when the race is shown
    // (showEvent), not at every tick; whether every lane is out is the pacers' to say.
    m_lanesStale = window()->isVisible() && !isVisible();
    bool allOut = total > 0 && !m_lanes.empty();
    for (size_t i = 0; i < m_lanes.size(); ++i) {
        const TokenPacer pacer = pacerOf(m_systems[i].pace);
        const int out = pacer.tokensOutAt(wall, total);
        allOut = allOut && out >= total;
        if (m_lanesStale)
            continue;
        m_lanes[i]->show(m_pieces, out, total, pacer.clockAt(wall, total), pacer.rateAt(wall, total));
        std::vector<double> marks;
        for (const RaceMark& m : m_systems[i].marks) {
            SystemPace at = m_systems[i].pace; // the published speed after the predicted first token
            at.tokensPerSecondPerUser = m.tokensPerSecondPerUser;
            marks.push_back(total > 0 ? double(pacerOf(at).tokensOutAt(wall, total)) / total : 0);
        }
        m_lanes[i]->setMarkFractions(marks);
        if (m_readingTokensPerSecond > 0 && total > 0)
            m_lanes[i]->setReaderFraction(std::min(1.0, m_elapsed * m_readingTokensPerSecond / total));
        else
            m_lanes[i]->setReaderFraction(-1);
    }
    if (allOut && m_timer->isActive() && !m_streaming) {
        m_timer->stop();
        refreshButtons();
        emit finished();
    }
}

ChartData TokenRace::chartData() const
{
    ChartData d;
    d.name = QStringLiteral("token_race");
    d.columns = {QStringLiteral("system"),        QStringLiteral("kind"),       QStringLiteral("tokens_per_second"),
                 QStringLiteral("first_token_s"), QStringLiteral("tokens_out"), QStringLiteral("race_seconds"),
                 QStringLiteral("source")};
    for (size_t i = 0; i < m_systems.size() && i < m_lanes.size(); ++i) {
        const RaceSystem& s = m_systems[i];
        d.rows.append(QVariantList{s.label, QStringLiteral("predicted"), s.pace.tokensPerSecondPerUser,
                                   s.pace.firstTokenSeconds, m_lanes[i]->revealed(), m_elapsed, s.tooltip});
        for (const RaceMark& m : s.marks)
            d.rows.append(QVariantList{s.label, QStringLiteral("published"), m.tokensPerSecondPerUser, QVariant(),
                                       QVariant(), QVariant(), m.tooltip});
    }
    return d;
}

bool TokenRace::isFinished() const
{
    if (m_pieces.isEmpty() || m_lanes.empty())
        return false;
    for (const RaceLane* l : m_lanes)
        if (l->revealed() < m_pieces.size())
            return false;
    return true;
}

void TokenRace::start()
{
    m_externalClock = false;
    if (m_lanes.empty())
        return;
    if (isFinished())
        advanceTo(0);
    m_elapsedAtResume = m_elapsed;
    m_clock.start();
    m_timer->start();
    refreshButtons();
}

void TokenRace::pause()
{
    m_timer->stop();
    refreshButtons();
}

void TokenRace::restart()
{
    m_timer->stop();
    advanceTo(0);
    start();
}

bool TokenRace::isRunning() const
{
    return m_timer->isActive();
}

void TokenRace::setExternalClock(bool external)
{
    m_externalClock = external;
    if (external)
        pause();
}

void TokenRace::setTimeScale(double scale)
{
    if (!(scale > 0))
        return;
    m_demoPace = false;
    applyTimeScale(scale);
}

void TokenRace::setDemoPace()
{
    m_demoPace = true;
    applyTimeScale(demoTimeScale(m_systems, m_readingTokensPerSecond));
}

double TokenRace::demoTimeScale(const std::vector<RaceSystem>& systems, double readingTokensPerSecond)
{
    double slowest = 0;
    for (const RaceSystem& s : systems)
        if (s.pace.tokensPerSecondPerUser > 0 && (slowest == 0 || s.pace.tokensPerSecondPerUser < slowest))
            slowest = s.pace.tokensPerSecondPerUser;
    // The one slow-motion rule (engine/session/tokenpacer.h): the round factor (2, 5, 10, 20, …) that brings the
    // slowest lane down to the reader's pace, as the chat's wafer is slowed.
    return 1.0 / TokenPacer::slowMotionFor(slowest, readingTokensPerSecond);
}

QString TokenRace::paceText() const
{
    return m_timeScale < 1.0 ? tr("slowed %1×").arg(slowdownText(1.0 / m_timeScale)) : tr("real time");
}

void TokenRace::applyTimeScale(double scale)
{
    m_elapsedAtResume = m_elapsed;
    m_clock.restart();
    m_timeScale = scale;
    m_pace->setText(paceText());
    m_pace->setToolTip(m_demoPace && scale < 1.0
                           ? tr("Demo pace: every lane's first token at its predicted time, then its tokens %1 times "
                                "slower than real time, so that the slowest lane comes out at a human reader's %2 "
                                "tokens/s.")
                                 .arg(slowdownText(1.0 / scale), formatSignificant(m_readingTokensPerSecond))
                           : tr("Race time against wall time"));
    const QSignalBlocker block(m_speed);
    m_speed->setCurrentIndex(m_demoPace ? 0 : m_speed->findData(scale)); // -1 (blank) for a scale not listed
}

void TokenRace::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_lanesStale)
        advanceTo(m_elapsed);
    // Shown (the View menu, the Compare mode): a race that has not begun runs; a tour keeps its own clock.
    if (!m_externalClock && !isRunning() && m_elapsed == 0)
        start();
}

void TokenRace::tick()
{
    advanceTo(m_elapsedAtResume + m_clock.elapsed() / 1000.0 * m_timeScale);
}

void TokenRace::refreshButtons()
{
    m_play->setText(isRunning() ? tr("Pause") : tr("Start"));
    m_play->setEnabled(!m_lanes.empty());
    m_restart->setEnabled(!m_lanes.empty());
    m_export->setEnabled(!m_lanes.empty());
}

} // namespace ws::views
