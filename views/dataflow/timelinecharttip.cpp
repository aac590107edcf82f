// TimelineChart's tooltip: the phase under the pointer, its cycles, its compute and its reductions.
#include "views/dataflow/timelinechart.h"

#include <QChart>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace ws::views {

QString TimelineChart::toolTipAt(QPoint widgetPos) const
{
    ensureBars();
    if (!m_schedule || !chart()->plotArea().contains(chart()->mapFromScene(mapToScene(widgetPos))))
        return {};
    const QPointF v = valueAt(widgetPos);
    const int i = phaseAt(v.x(), int(std::lround(v.y())));
    if (i < 0)
        return {};
    const Phase& p = m_schedule->phases[size_t(i)];
    const QLocale locale;
    const double usPerCycle = 1e6 / m_schedule->clockHz;
    QString text = tr("<b>%1</b><br>cycles %2 – %3 (%4 cycles, %5 µs)")
                       .arg(phaseLabel(p).toHtmlEscaped(), locale.toString(qint64(std::llround(p.startCycle))),
                            locale.toString(qint64(std::llround(p.endCycle))),
                            locale.toString(qint64(std::llround(p.durationCycles()))),
                            locale.toString(p.durationCycles() * usPerCycle, 'f', 3));
    if (p.computes && p.computeEndCycle > p.startCycle)
        text += tr("<br>local compute %1 cycles, %2 MACs per core")
                    .arg(locale.toString(qint64(std::llround(p.computeEndCycle - p.startCycle))),
                         locale.toString(p.macsPerCore, 'g', 4));
    if (p.reductions > 0)
        text += tr("<br>%1 allreduce(s) along %2 over %3 cores, %4 cycles each")
                    .arg(p.reductions)
                    .arg(p.axis == ReduceAxis::X ? QStringLiteral("x") : QStringLiteral("y"))
                    .arg(p.reduce.lineCores)
                    .arg(locale.toString(qint64(std::llround(p.reduce.totalCycles()))));
    if (!p.computes)
        text += tr("<br>cores only forward (wafer %1 → %2)").arg(p.device + 1).arg(p.toDevice + 1);
    const TokenSchedule& s = *m_schedule;
    if (s.isPrefill() && p.startCycle >= s.promptEndCycle)
        text += tr("<br>the first token, from the prompt's last chunk");
    else if (s.isPrefill())
        text += tr("<br>prompt chunk %1 of %2 (tokens %3 – %4)")
                    .arg(p.chunk + 1)
                    .arg(s.chunks)
                    .arg(qint64(p.chunk) * s.chunkTokens + 1)
                    .arg(std::min<qint64>(s.promptTokens, qint64(p.chunk + 1) * s.chunkTokens));
    if (s.timeStretch != 1)
        text += tr("<br>µs at the predictor's prefill pace: the timing model's cycles × %1 (fitted on WaferLLM's "
                   "measured prefill)")
                    .arg(locale.toString(s.timeStretch, 'g', 3));
    return text;
}

} // namespace ws::views
