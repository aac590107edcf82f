#include "views/dataflow/playbackbar.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace ws::views {

PlaybackBar::PlaybackBar(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_previous = new QToolButton(this);
    m_previous->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    m_play = new QToolButton(this);
    m_next = new QToolButton(this);
    m_next->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, sliderSteps);
    m_dilation = new QComboBox(this);
    m_phase = new QLabel(this);
    m_phase->setMinimumWidth(200);
    m_time = new QLabel(this);
    m_time->setMinimumWidth(190);
    layout->addWidget(m_previous);
    layout->addWidget(m_play);
    layout->addWidget(m_next);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_time);
    layout->addWidget(m_phase);
    layout->addWidget(m_dilation);

    connect(m_play, &QToolButton::clicked, this, &PlaybackBar::playToggled);
    connect(m_previous, &QToolButton::clicked, this, [this] { emit stepRequested(-1); });
    connect(m_next, &QToolButton::clicked, this, [this] { emit stepRequested(+1); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (!m_updating)
            emit seekRequested(m_state.totalCycles * value / sliderSteps);
    });
    connect(m_dilation, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_updating && index >= 0 && size_t(index) < dilations().size())
            emit dilationRequested(dilations()[size_t(index)]);
    });
    retranslate();
    setState(m_state);
}

const std::vector<double>& PlaybackBar::dilations()
{
    static const std::vector<double> values = {1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2};
    return values;
}

double PlaybackBar::nearestDilation(double waferSecondsPerSecond)
{
    const auto& d = dilations();
    return *std::min_element(d.begin(), d.end(), [&](double a, double b) {
        return std::abs(std::log(a / waferSecondsPerSecond)) < std::abs(std::log(b / waferSecondsPerSecond));
    });
}

QString PlaybackBar::timeText() const
{
    const QLocale locale;
    const double us = m_state.clockHz > 0 ? m_state.cycle / m_state.clockHz * 1e6 : 0.0;
    const double totalUs = m_state.clockHz > 0 ? m_state.totalCycles / m_state.clockHz * 1e6 : 0.0;
    return tr("%1 / %2 µs · cycle %3")
        .arg(locale.toString(us, 'f', 2), locale.toString(totalUs, 'f', 2),
             locale.toString(qint64(std::llround(m_state.cycle))));
}

void PlaybackBar::setState(const PlaybackState& state)
{
    m_state = state;
    m_updating = true;
    const bool any = state.totalCycles > 0;
    if (m_playShowsPause != state.playing) {
        m_play->setIcon(style()->standardIcon(state.playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        m_play->setToolTip(state.playing ? tr("Pause (Space)") : tr("Play (Space)"));
        m_playShowsPause = state.playing;
    }
    for (QWidget* w : {static_cast<QWidget*>(m_play), static_cast<QWidget*>(m_previous), static_cast<QWidget*>(m_next),
                       static_cast<QWidget*>(m_slider)})
        w->setEnabled(any);
    m_slider->setValue(any ? int(std::lround(std::clamp(state.cycle / state.totalCycles, 0.0, 1.0) * sliderSteps)) : 0);
    const auto& d = dilations();
    m_dilation->setCurrentIndex(
        int(std::find(d.begin(), d.end(), nearestDilation(state.waferSecondsPerSecond)) - d.begin()));
    m_phase->setText(any ? (state.phase.isEmpty() ? tr("between phases") : state.phase) : tr("no schedule"));
    m_time->setText(any ? timeText() : QString());
    m_updating = false;
}

void PlaybackBar::retranslate()
{
    m_previous->setToolTip(tr("Previous phase (Left)"));
    m_next->setToolTip(tr("Next phase (Right)"));
    m_slider->setToolTip(tr("Time into the token"));
    m_time->setToolTip(tr("Wafer time of one token in this timetable: the closed forms with the calibration's "
                          "constants for WaferLLM's published kernels (Timing constants tab), the mesh engine's "
                          "reference. Predictions of a serving stack (Layout dock, comparison, CLI) scale the "
                          "kernels' cycles by the stack's fitted factor."));
    m_dilation->setToolTip(tr("Time dilation: wafer time shown per second"));
    m_updating = true;
    const int index = m_dilation->currentIndex();
    m_dilation->clear();
    const QLocale locale;
    for (double seconds : dilations()) {
        const double us = seconds * 1e6;
        m_dilation->addItem(us >= 1000 ? tr("%1 ms / s").arg(locale.toString(us / 1000, 'g', 3))
                                       : tr("%1 µs / s").arg(locale.toString(us, 'g', 3)));
    }
    m_dilation->setCurrentIndex(std::max(0, index));
    m_updating = false;
    m_playShowsPause.reset(); // the play button's tooltip in the new language
    setState(m_state);
}

void PlaybackBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::StyleChange) { // the style's icons
        m_playShowsPause.reset();
        setState(m_state);
    }
    QWidget::changeEvent(event);
}

} // namespace ws::views
