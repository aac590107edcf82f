#include "views/compare/tokenrace.h"

#include "engine/session/tokenpacer.h"
#include "views/charts/chartformat.h"
#include "views/compare/racelane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ws::views {

TokenRace::TokenRace(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(tr("<b>The same answer, at each system's predicted pace</b>"));
    m_play = new QPushButton(tr("Start"));
    m_restart = new QPushButton(tr("Restart"));
    m_speed = new QComboBox;
    m_speed->setToolTip(tr("Slow motion: how fast race time runs against wall time"));
    for (double s : {1.0, 0.5, 0.25, 0.1})
        m_speed->addItem(s == 1.0 ? tr("real time") : tr("%1× slow motion").arg(s), s);
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this](int i) { setTimeScale(m_speed->itemData(i).toDouble()); });
    connect(m_play, &QPushButton::clicked, this, [this] { isRunning() ? pause() : start(); });
    connect(m_restart, &QPushButton::clicked, this, &TokenRace::restart);
    m_export = new QPushButton(tr("Export…"));
    m_export->setToolTip(tr("Save the race as PNG or SVG, or its figures (paces, tokens out, published speeds) as "
                            "CSV or JSON"));
    connect(m_export, &QPushButton::clicked, this,
            [this] { emit exportRequested(this, chartData(), tr("Token race")); });

    auto* top = new QHBoxLayout;
    m_readerNote = new QLabel;
    m_readerNote->setStyleSheet(QStringLiteral("color: #333;"));
    top->addWidget(m_title);
    top->addSpacing(16);
    top->addWidget(m_readerNote, 1);
    top->addWidget(m_speed);
    top->addWidget(m_play);
    top->addWidget(m_restart);
    top->addWidget(m_export);

    m_laneBox = new QWidget;
    new QHBoxLayout(m_laneBox);
    m_laneBox->layout()->setContentsMargins(0, 0, 0, 0);
    m_laneBox->layout()->setSpacing(8);
    m_source = new QLabel;
    m_source->setWordWrap(true);
    m_source->setStyleSheet(QStringLiteral("color: #555;"));

    m_chartCaption = new QLabel;
    m_chartCaption->setWordWrap(true);
    m_chart = new RaceChart;
    m_chartCaption->hide(); // shown with the first session times
    m_chart->hide();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_laneBox, 1);
    layout->addWidget(m_source);
    layout->addWidget(m_chartCaption);
    layout->addWidget(m_chart);

    m_timer = new QTimer(this);
    m_timer->setInterval(16);
    connect(m_timer, &QTimer::timeout, this, &TokenRace::tick);
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
        lane->setSystem(s.label, s.color, s.pace.tokensPerSecondPerUser, s.tooltip);
        std::vector<double> speeds;
        QStringList tips;
        for (const RaceMark& m : s.marks) {
            speeds.push_back(m.tokensPerSecondPerUser);
            tips << m.tooltip;
        }
        lane->setMarks(speeds, tips);
        QPalette pal = lane->palette();
        // A light tint of the system's colour: 12 % colour over white.
        const QColor tint(255 - (255 - s.color.red()) * 12 / 100, 255 - (255 - s.color.green()) * 12 / 100,
                          255 - (255 - s.color.blue()) * 12 / 100);
        pal.setColor(QPalette::Window, tint);
        lane->setPalette(pal);
        m_laneBox->layout()->addWidget(lane);
        m_lanes.push_back(lane);
    }
    m_source->setText(textSource);
    m_elapsed = 0;
    m_elapsedAtResume = 0;
    advanceTo(0);
    refreshButtons();
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
    advanceTo(m_elapsed);
}

void TokenRace::advanceTo(double seconds)
{
    m_elapsed = std::max(0.0, seconds);
    const int total = int(m_pieces.size());
    for (size_t i = 0; i < m_lanes.size(); ++i) {
        const TokenPacer pacer = TokenPacer::atPaceOf(m_systems[i].pace);
        const int out = pacer.tokensOutAt(m_elapsed, total);
        m_lanes[i]->show(m_pieces, out, total, pacer.clockAt(m_elapsed, total), pacer.rateAt(m_elapsed, total));
        std::vector<double> marks;
        for (const RaceMark& m : m_systems[i].marks) {
            SystemPace at = m_systems[i].pace; // the published speed after the predicted first token
            at.tokensPerSecondPerUser = m.tokensPerSecondPerUser;
            marks.push_back(total > 0 ? double(TokenPacer::atPaceOf(at).tokensOutAt(m_elapsed, total)) / total : 0);
        }
        m_lanes[i]->setMarkFractions(marks);
        if (m_readingTokensPerSecond > 0 && total > 0)
            m_lanes[i]->setReaderFraction(std::min(1.0, m_elapsed * m_readingTokensPerSecond / total));
        else
            m_lanes[i]->setReaderFraction(-1);
    }
    if (isFinished() && m_timer->isActive() && !m_streaming) {
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

void TokenRace::setTimeScale(double scale)
{
    if (!(scale > 0))
        return;
    m_elapsedAtResume = m_elapsed;
    m_clock.restart();
    m_timeScale = scale;
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
