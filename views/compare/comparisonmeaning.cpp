// ComparisonPanel's "what it means" table: per system the speed, first token,
// an agent workflow, a Chinese answer against a reader, and dollars per
// million output tokens; the headline names the fastest and slowest systems.
#include "views/charts/chartformat.h"
#include "views/compare/comparisonpanel.h"

#include <QHeaderView>
#include <QLabel>
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
    int h = t->horizontalHeader()->height() + 2 * t->frameWidth();
    for (int r = 0; r < t->rowCount(); ++r)
        h += t->rowHeight(r);
    t->setMaximumHeight(h + 2);
    t->setMinimumHeight(h + 2);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QTableWidgetItem* cell(const QString& text, const QString& tip)
{
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    it->setToolTip(tip);
    return it;
}
} // namespace

void ComparisonPanel::fillMeaning()
{
    const ComparisonSnapshot& s = *m_snapshot;
    const ComparisonSettings& set = s.settings;
    const auto [readLo, readHi] =
        readingTokensPerSecond(s.reading, set.tokensPerCharacterLow, set.tokensPerCharacterHigh);
    m_meaning->setHorizontalHeaderLabels({tr("System"), tr("Tokens/s per user"), tr("First token"),
                                          tr("Agent %1 × %2 tokens").arg(set.agentSteps).arg(set.agentTokensPerStep),
                                          tr("%1-character answer").arg(set.answerCharacters), tr("vs. reading"),
                                          tr("$ per million tokens")});
    int rows = 0;
    for (const ComparisonSystem& sys : s.systems)
        rows += sys.ok ? 1 : 0;
    m_meaning->setRowCount(rows + 1);
    int r = 0;
    const QString engine = tr("Engine prediction (see the charts' tooltips for the basis)");
    for (const ComparisonSystem& sys : s.systems) {
        if (!sys.ok)
            continue;
        const Prediction& p = sys.prediction;
        auto* name = cell(sys.label, QString::fromStdString(p.hardwareId));
        name->setForeground(sys.color.darker(120));
        m_meaning->setItem(r, 0, name);
        m_meaning->setItem(r, 1, cell(formatSignificant(p.tokensPerSecondPerUser), engine));
        m_meaning->setItem(r, 2, cell(duration(p.ttftSeconds), engine));
        m_meaning->setItem(r, 3,
                           cell(duration(p.agentWorkflowSeconds),
                                tr("Steps × (time to first token + tokens per step / tokens/s): engine")));
        m_meaning->setItem(r, 4,
                           cell(durationRange(p.answerSecondsRange.low, p.answerSecondsRange.high),
                                tr("Time to first token + characters × %1–%2 tokens per character / tokens/s; "
                                   "tokens per character: %3")
                                    .arg(set.tokensPerCharacterLow)
                                    .arg(set.tokensPerCharacterHigh)
                                    .arg(s.tokensPerCharacterSource)));
        const double fasterLo = p.tokensPerSecondPerUser / readHi;
        const double fasterHi = p.tokensPerSecondPerUser / readLo;
        m_meaning->setItem(
            r, 5,
            cell(tr("%1 – %2 × faster").arg(formatSignificant(fasterLo, 2), formatSignificant(fasterHi, 2)),
                 tr("Tokens/s per user ÷ reading speed in tokens/s (%1 – %2)")
                     .arg(formatSignificant(readLo), formatSignificant(readHi))));
        const TokenCost& c = p.cost;
        QString api, apiTip;
        for (const ApiPrice& price : sys.apiPrices) {
            api += tr("; API $%1").arg(formatSignificant(price.usdPerMillionOutputTokens));
            apiTip += tr("\nPublished API price: $%1 per million output tokens (%2, %3)")
                          .arg(formatSignificant(price.usdPerMillionOutputTokens), QString::fromStdString(price.label),
                               QString::fromStdString(price.source));
        }
        m_meaning->setItem(r, 6,
                           c.known ? cell(tr("%1 (%2 – %3)")
                                                  .arg(formatSignificant(c.usdPerMillionTokens),
                                                       formatSignificant(c.usdPerMillionTokensRange.low),
                                                       formatSignificant(c.usdPerMillionTokensRange.high)) +
                                              api,
                                          tr("$%1 an hour for %2 devices / (%3 tokens/s in all × 3,600); "
                                             "hourly cost: %4")
                                                  .arg(formatSignificant(c.hourlyUsd))
                                                  .arg(p.devices)
                                                  .arg(formatSignificant(p.aggregateTokensPerSecond),
                                                       QString::fromStdString(c.source)) +
                                              apiTip)
                                   : cell(QStringLiteral("–"), tr("No hourly cost in the hardware preset")));
        ++r;
    }
    const double chars = double(set.answerCharacters);
    const QString readTip = tr("Reading %1–%2 characters a minute: %3")
                                .arg(s.reading.charactersPerMinuteLow)
                                .arg(s.reading.charactersPerMinuteHigh)
                                .arg(s.reading.source);
    auto* reader = cell(tr("Human reader"), readTip);
    QFont italic = reader->font();
    italic.setItalic(true);
    reader->setFont(italic);
    m_meaning->setItem(r, 0, reader);
    m_meaning->setItem(r, 1, cell(tr("%1 – %2").arg(formatSignificant(readLo), formatSignificant(readHi)), readTip));
    m_meaning->setItem(r, 2, cell(QStringLiteral("–"), readTip));
    m_meaning->setItem(r, 3, cell(QStringLiteral("–"), readTip));
    m_meaning->setItem(r, 4,
                       cell(durationRange(chars * 60 / s.reading.charactersPerMinuteHigh,
                                          chars * 60 / s.reading.charactersPerMinuteLow),
                            readTip));
    m_meaning->setItem(r, 5, cell(QStringLiteral("1 ×"), readTip));
    m_meaning->setItem(r, 6, cell(QStringLiteral("–"), readTip));
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
                .arg(set.answerCharacters)
                .arg(durationRange(f.answerSecondsRange.low, f.answerSecondsRange.high), who(fastest),
                     durationRange(w.answerSecondsRange.low, w.answerSecondsRange.high), who(slowest),
                     durationRange(chars * 60 / s.reading.charactersPerMinuteHigh,
                                   chars * 60 / s.reading.charactersPerMinuteLow)) +
            QStringLiteral("<br>") +
            tr("An agent workflow of %1 steps × %2 tokens: %3 on %4, %5 on %6.")
                .arg(set.agentSteps)
                .arg(set.agentTokensPerStep)
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
            .arg(set.tokensPerCharacterLow)
            .arg(set.tokensPerCharacterHigh));
}

ChartData ComparisonPanel::meaningData() const
{
    ChartData d;
    d.name = QStringLiteral("what_it_means");
    d.columns = {QStringLiteral("system"),
                 QStringLiteral("tokens_per_second_per_user"),
                 QStringLiteral("ttft_s"),
                 QStringLiteral("agent_workflow_s"),
                 QStringLiteral("answer_s"),
                 QStringLiteral("answer_s_low"),
                 QStringLiteral("answer_s_high"),
                 QStringLiteral("usd_per_million_tokens"),
                 QStringLiteral("usd_per_million_tokens_low"),
                 QStringLiteral("usd_per_million_tokens_high")};
    if (!m_snapshot)
        return d;
    for (const ComparisonSystem& sys : m_snapshot->systems)
        if (sys.ok) {
            const Prediction& p = sys.prediction;
            d.rows.append(QVariantList{sys.label, p.tokensPerSecondPerUser, p.ttftSeconds, p.agentWorkflowSeconds,
                                       p.answerSeconds, p.answerSecondsRange.low, p.answerSecondsRange.high,
                                       p.cost.usdPerMillionTokens, p.cost.usdPerMillionTokensRange.low,
                                       p.cost.usdPerMillionTokensRange.high});
        }
    return d;
}

} // namespace ws::views
