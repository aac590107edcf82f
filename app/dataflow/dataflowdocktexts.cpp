// DataflowDock's texts: its controls' names and tooltips in the language shown, the wafer links' labels for the
// heatmap's strip, and the summary of the prompt's prefill beside the KV choice, with the sources of its numbers
// in its tooltip.
#include "app/dataflow/dataflowdock.h"

#include "views/charts/chartformat.h"
#include "views/mesh/meshimage.h"
#include "views/widgets/comboitems.h"
#include "views/widgets/elidedlabel.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QTabWidget>

#include <cmath>

namespace ws {

void DataflowDock::emitWaferLinks()
{
    QStringList texts, tips;
    if (m_result) {
        const QLocale locale;
        for (const DataflowSetup::WaferLink& link : m_waferLinks) {
            if (link.to != link.from + 1 || link.from < 0)
                continue;
            while (texts.size() <= link.from) {
                texts << QString();
                tips << QString();
            }
            const double share = m_tokenCycles > 0 ? 100.0 * link.cycles / m_tokenCycles : 0.0;
            texts[link.from] = tr("↓ %1 per token\n%2% of its time")
                                   .arg(views::formatBytes(link.bytes), locale.toString(share, 'f', 1));
            tips[link.from] =
                tr("Wafer %1 to wafer %2: the hidden state (%3 values of %4 bytes) crosses the wafer-to-wafer link "
                   "once per token, %5 cycles of the token's %6 (the closed forms' schedule, with the preset's system "
                   "I/O bandwidth and latency).")
                    .arg(link.from + 1)
                    .arg(link.to + 1)
                    .arg(locale.toString(qint64(m_result->model().hiddenSize)))
                    .arg(locale.toString(link.bytes / double(std::max<int64_t>(1, m_result->model().hiddenSize))))
                    .arg(locale.toString(qint64(std::llround(link.cycles))),
                         locale.toString(qint64(std::llround(m_tokenCycles))));
        }
    }
    emit waferLinksChanged(texts, tips);
}

void DataflowDock::showPrefillSummary()
{
    const ScenePrefill& p = *m_setup->prefill;
    const TokenSchedule& s = *p.timing.schedule;
    const QLocale locale;
    const int layers = int(p.timing.regions.layers.size());
    const QString ms = views::formatSignificant(p.ttft.seconds * 1e3);
    const QString low = views::formatSignificant(p.ttft.range.low * 1e3);
    const QString high = views::formatSignificant(p.ttft.range.high * 1e3);
    // The first token's time first: the line is cut where the dock is narrow (its tooltip has it all).
    m_kvLabel->setText(s.chunks > 1 ? tr("Prefill of %1 tokens: first token at %2 ms (%3 – %4), the prompt in %5 "
                                         "chunks of %6 pipelined through %7 layers")
                                          .arg(locale.toString(qint64(s.promptTokens)))
                                          .arg(ms, low, high)
                                          .arg(s.chunks)
                                          .arg(s.chunkTokens)
                                          .arg(layers)
                                    : tr("Prefill of %1 tokens: first token at %2 ms (%3 – %4), the prompt as one "
                                         "chunk through %5 layers")
                                          .arg(locale.toString(qint64(s.promptTokens)))
                                          .arg(ms, low, high)
                                          .arg(layers));
    m_kvLabel->setToolTip(
        m_kvLabel->text() + QStringLiteral("\n\n") +
        tr("Time to first token on the wafer, the predictor's (as in the Compare mode): the timing model's schedule "
           "of the prompt, in chunks of %1 tokens pipelined through the placement's layer regions (%2 cycles at "
           "%3 GHz with the constants of profile %4 and the kernel factor %5 of the serving stack %6), stretched "
           "%7× to the pace fitted on WaferLLM's measured prefill.\n%8\nSource: %9")
            .arg(s.chunkTokens)
            .arg(locale.toString(qint64(std::llround(p.ttft.cycles))))
            .arg(locale.toString(p.timing.params.clockHz * 1e-9, 'f', 2))
            .arg(QString::fromStdString(p.timing.profile))
            .arg(views::formatSignificant(p.kernelFactor))
            .arg(p.stack.empty() ? tr("(none)") : QString::fromStdString(p.stack))
            .arg(views::formatSignificant(s.timeStretch))
            .arg(QString::fromStdString(p.ttft.note), QString::fromStdString(p.ttft.source)));
}

QString DataflowDock::infoText() const
{
    return m_kvLabel->text();
}

void DataflowDock::retranslate()
{
    setWindowTitle(tr("Dataflow"));
    views::setItemTexts(m_source, {tr("Closed forms: whole token"), tr("Mesh engine: one layer"),
                                   tr("Closed forms: the prompt (prefill)")});
    m_source->setToolTip(
        tr("Closed forms: the token's schedule region by region, timed with the calibrated constants.\n"
           "Mesh engine: one layer executed core by core as discrete events with the hardware preset's core and "
           "link parameters; a core lights while it computes, a message along the cores of its route.\n"
           "Prefill: the scenario's prompt in chunks pipelined through the layers, then the first token, lasting "
           "the predictor's time to first token."));
    m_layer->setPrefix(tr("layer "));
    m_layer->setToolTip(tr("The layer the mesh engine executes"));
    views::setItemTexts(m_kv, {tr("KV: shift"), tr("KV: concat")});
    m_kv->setToolTip(tr("KV cache layout: shift spreads the sequence over every row, concat fills one row"));
    m_playAction->setText(tr("&Play / Pause"));
    m_backAction->setText(tr("Step &Back"));
    m_forwardAction->setText(tr("Step &Forward"));
    m_tabs->setTabText(0, tr("Timeline"));
    m_tabs->setTabText(1, tr("Phase cycles"));
    m_tabs->setTabText(2, tr("Timing constants"));
    fillTables();
    updateState();
    emitWaferLinks();
}

void DataflowDock::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDockWidget::changeEvent(event);
}

QString DataflowDock::statusText() const
{
    return m_frameLabel->text();
}

} // namespace ws
