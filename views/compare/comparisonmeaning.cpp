// ComparisonPanel's "what it means" table: per system the speed, first token,
// an agent workflow, a Chinese answer against a reader, and dollars per
// million output tokens; the headline names the fastest and slowest systems.
#include "views/charts/chartformat.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/costchart.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>

namespace ws::views {

namespace {
QString duration(double seconds)
{
    if (!(seconds > 0))
        return QStringLiteral("–");
    if (seconds < 1)
        return ComparisonPanel::tr("%1 ms").arg(formatSignificant(seconds * 1000));
    if (seconds < 120)
        return ComparisonPanel::tr("%1 s").arg(formatSignificant(seconds));
    return ComparisonPanel::tr("%1 min").arg(formatSignificant(seconds / 60));
}

QString durationRange(double lo, double hi)
{
    return ComparisonPanel::tr("%1 – %2").arg(duration(lo), duration(hi));
}

// The table as tall as its rows, so the space below goes to the headline.
void fitTableHeight(QTableWidget* t)
{
    // Room for the sideways scroll bar a narrow panel shows (the columns are never squeezed: comparisonpanel.cpp).
    int h = t->horizontalHeader()->height() + 2 * t->frameWidth() + t->horizontalScrollBar()->sizeHint().height();
    for (int r = 0; r < t->rowCount(); ++r)
        h += t->rowHeight(r);
    t->setMaximumHeight(h + 2);
    t->setMinimumHeight(h + 2);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

// A time in seconds; not above 0 is unknown: shown "–", exported empty.
ChartCell durationCell(double seconds, const QString& tip)
{
    return {duration(seconds), {seconds > 0 ? QVariant(seconds) : QVariant()}, tip};
}

QList<ChartColumn> meaningColumns(const ComparisonSettings& set)
{
    return {
        {ComparisonPanel::tr("System"), {QStringLiteral("system")}},
        {ComparisonPanel::tr("Tokens/s per user"), {QStringLiteral("tokens_per_second_per_user")}},
        {ComparisonPanel::tr("First token"), {QStringLiteral("ttft_s")}},
        {ComparisonPanel::tr("Agent %1 × %2 tokens").arg(set.workload.agentSteps).arg(set.workload.agentTokensPerStep),
         {QStringLiteral("agent_workflow_s")}},
        {ComparisonPanel::tr("%1-character answer").arg(set.workload.answerCharacters),
         rangeColumns(QStringLiteral("answer_s"))},
        {ComparisonPanel::tr("vs. reading"), {}},
        {ComparisonPanel::tr("$ per million tokens"), rangeColumns(QStringLiteral("usd_per_million_tokens"))}};
}

// A system's row: what the table shows of its prediction and the same numbers unrounded for export.
ChartRow systemRow(const ComparisonSystem& sys, const ComparisonSnapshot& s, double readLo, double readHi)
{
    const Prediction& p = sys.prediction;
    const ComparisonSettings& set = s.settings;
    const QString engine = ComparisonPanel::tr("Engine prediction (see the charts' tooltips for the basis)");
    ChartCell name = textCell(sys.label, QString::fromStdString(p.hardwareId));
    name.color = sys.color.darker(120);
    const TokenCost& c = p.cost;
    QString api, apiTip;
    for (const ApiPrice& price : sys.apiPrices) {
        const std::vector<CostPoint>& scale = sys.costAtScale.empty() ? sys.costCurve : sys.costAtScale;
        const QString meet = CostChart::meetText(scale, price, true);
        api += ComparisonPanel::tr("; API $%1").arg(formatSignificant(price.usdPerMillionOutputTokens)) +
               (meet.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(meet));
        apiTip += ComparisonPanel::tr("\nPublished API price: $%1 per million output tokens (%2, %3)")
                      .arg(formatSignificant(price.usdPerMillionOutputTokens), QString::fromStdString(price.label),
                           QString::fromStdString(price.source)) +
                  QLatin1Char(' ') + CostChart::meetText(scale, price, false);
    }
    const ChartCell cost =
        c.known
            ? ChartCell{ComparisonPanel::tr("%1 (%2 – %3)")
                                .arg(formatSignificant(c.usdPerMillionTokens),
                                     formatSignificant(c.usdPerMillionTokensRange.low),
                                     formatSignificant(c.usdPerMillionTokensRange.high)) +
                            api,
                        {c.usdPerMillionTokens, c.usdPerMillionTokensRange.low, c.usdPerMillionTokensRange.high},
                        ComparisonPanel::tr(
                            "$%1 an hour for %2 devices / (%3 tokens/s in all × 3,600); hourly cost: %4")
                                .arg(formatSignificant(c.hourlyUsd))
                                .arg(p.devices)
                                .arg(formatSignificant(p.aggregateTokensPerSecond), QString::fromStdString(c.source)) +
                            apiTip}
            : ChartCell{QStringLiteral("–"), {}, ComparisonPanel::tr("No hourly cost in the hardware preset")};
    return {{name,
             numberCell(p.tokensPerSecondPerUser, engine),
             durationCell(p.ttftSeconds, engine),
             durationCell(p.agentWorkflowSeconds,
                          ComparisonPanel::tr("Steps × (time to first token + tokens per step / tokens/s): engine")),
             {durationRange(p.answerSecondsRange.low, p.answerSecondsRange.high),
              {p.answerSeconds, p.answerSecondsRange.low, p.answerSecondsRange.high},
              ComparisonPanel::tr("Time to first token + characters × %1–%2 tokens per character / tokens/s; "
                                  "tokens per character: %3")
                  .arg(set.workload.tokensPerCharacterLow)
                  .arg(set.workload.tokensPerCharacterHigh)
                  .arg(s.tokensPerCharacterSource)},
             {ComparisonPanel::tr("%1 – %2 × faster")
                  .arg(formatSignificant(p.tokensPerSecondPerUser / readHi, 2),
                       formatSignificant(p.tokensPerSecondPerUser / readLo, 2)),
              {},
              ComparisonPanel::tr("Tokens/s per user ÷ reading speed in tokens/s (%1 – %2)")
                  .arg(formatSignificant(readLo), formatSignificant(readHi))},
             cost}};
}

// The human reader: a yardstick shown beside the systems, not exported as one of them.
ChartRow readerRow(const ComparisonSnapshot& s, double readLo, double readHi)
{
    const double chars = double(s.settings.workload.answerCharacters);
    const QString tip = ComparisonPanel::tr("Reading %1–%2 characters a minute: %3")
                            .arg(s.reading.charactersPerMinuteLow)
                            .arg(s.reading.charactersPerMinuteHigh)
                            .arg(s.reading.source);
    ChartCell reader = textCell(ComparisonPanel::tr("Human reader"), tip);
    reader.italic = true;
    const ChartCell none{QStringLiteral("–"), {}, tip};
    return {
        {reader,
         {ComparisonPanel::tr("%1 – %2").arg(formatSignificant(readLo), formatSignificant(readHi)), {}, tip},
         none,
         none,
         {durationRange(chars * 60 / s.reading.charactersPerMinuteHigh, chars * 60 / s.reading.charactersPerMinuteLow),
          {},
          tip},
         {QStringLiteral("1 ×"), {}, tip},
         none},
        false};
}
} // namespace

void ComparisonPanel::fillMeaning()
{
    m_meaningRows = {
        QStringLiteral("what_it_means"), meaningColumns(m_snapshot ? m_snapshot->settings : ComparisonSettings{}), {}};
    if (!m_snapshot) {
        showTable(m_meaning, m_meaningRows);
        m_headline->clear();
        m_meaningNote->clear();
        return;
    }
    const ComparisonSnapshot& s = *m_snapshot;
    const ComparisonSettings& set = s.settings;
    const auto [readLo, readHi] =
        readingTokensPerSecond(s.reading, set.workload.tokensPerCharacterLow, set.workload.tokensPerCharacterHigh);
    for (const ComparisonSystem& sys : s.systems)
        if (sys.ok)
            m_meaningRows.rows.append(systemRow(sys, s, readLo, readHi));
    m_meaningRows.rows.append(readerRow(s, readLo, readHi));
    const double chars = double(set.workload.answerCharacters);
    showTable(m_meaning, m_meaningRows);
    fitTableHeight(m_meaning);
    const ComparisonSystem* fastest = nullptr;
    const ComparisonSystem* slowest = nullptr;
    for (const ComparisonSystem& sys : s.systems) {
        if (!sys.ok)
            continue;
        if (!fastest || sys.prediction.tokensPerSecondPerUser > fastest->prediction.tokensPerSecondPerUser)
            fastest = &sys;
        if (!slowest || sys.prediction.tokensPerSecondPerUser < slowest->prediction.tokensPerSecondPerUser)
            slowest = &sys;
    }
    if (fastest && slowest && fastest != slowest) {
        auto who = [](const ComparisonSystem* x) {
            return QStringLiteral("<span style='color:%1; font-weight:600'>%2</span>")
                .arg(x->color.darker(120).name(), x->label.toHtmlEscaped());
        };
        const auto& f = fastest->prediction;
        const auto& w = slowest->prediction;
        m_headline->setText(
            QStringLiteral("<div style='font-size:12pt; line-height:140%'>") +
            tr("A %1-character Chinese answer: %2 on %3, %4 on %5; a person needs %6 to read it.")
                .arg(set.workload.answerCharacters)
                .arg(durationRange(f.answerSecondsRange.low, f.answerSecondsRange.high), who(fastest),
                     durationRange(w.answerSecondsRange.low, w.answerSecondsRange.high), who(slowest),
                     durationRange(chars * 60 / s.reading.charactersPerMinuteHigh,
                                   chars * 60 / s.reading.charactersPerMinuteLow)) +
            QStringLiteral("<br>") +
            tr("An agent workflow of %1 steps × %2 tokens: %3 on %4, %5 on %6.")
                .arg(set.workload.agentSteps)
                .arg(set.workload.agentTokensPerStep)
                .arg(duration(f.agentWorkflowSeconds), who(fastest), duration(w.agentWorkflowSeconds), who(slowest)) +
            QStringLiteral("</div>"));
    } else {
        m_headline->clear();
    }
    m_meaningNote->setText(
        tr("A reader takes in %1–%2 Chinese characters a minute (%3), i.e. %4–%5 tokens/s at %6–%7 tokens per "
           "character. Predictions are the engine's, with the ranges of its calibration profiles.")
            .arg(s.reading.charactersPerMinuteLow)
            .arg(s.reading.charactersPerMinuteHigh)
            .arg(s.reading.source, formatSignificant(readLo), formatSignificant(readHi))
            .arg(set.workload.tokensPerCharacterLow)
            .arg(set.workload.tokensPerCharacterHigh));
}

ChartData ComparisonPanel::meaningData() const
{
    return m_meaningRows.exported();
}

} // namespace ws::views
