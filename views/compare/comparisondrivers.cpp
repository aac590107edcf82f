#include "views/compare/comparisondrivers.h"

#include "views/charts/chartformat.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ws::views {

ComparisonDrivers::ComparisonDrivers(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_table = new QTableWidget;
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    setSystems({});
}

void ComparisonDrivers::setSystems(const std::vector<ComparisonSystem>& systems)
{
    m_rows = ChartTable{
        QStringLiteral("range_drivers"),
        {{tr("System"), {QStringLiteral("system")}},
         {tr("Uncertain input"), {QStringLiteral("input")}},
         {tr("Low – high"), {QStringLiteral("low"), QStringLiteral("high")}},
         {tr("Tokens/s per user at low – high"),
          {QStringLiteral("tokens_per_second_per_user_at_low"), QStringLiteral("tokens_per_second_per_user_at_high")}},
         {tr("Effect"), {QStringLiteral("effect")}},
         {tr("Share of range"), {QStringLiteral("share")}},
         {tr("Source"), {QStringLiteral("source")}}},
        {}};
    QStringList lines;
    for (const ComparisonSystem& s : systems) {
        if (!s.ok)
            continue;
        const Prediction& p = s.prediction;
        for (const RangeDriver& d : p.rangeDrivers) {
            ChartCell name = textCell(s.label);
            name.color = s.color.darker(120);
            m_rows.rows.append(
                {{name,
                  textCell(QString::fromStdString(d.input)),
                  {tr("%1 – %2 %3")
                       .arg(formatSignificant(d.low), formatSignificant(d.high), QString::fromStdString(d.unit)),
                   {d.low, d.high},
                   tr("assumed: %1").arg(formatSignificant(d.assumed))},
                  {tr("%1 – %2").arg(formatSignificant(d.tokensPerSecondAtLow),
                                     formatSignificant(d.tokensPerSecondAtHigh)),
                   {d.tokensPerSecondAtLow, d.tokensPerSecondAtHigh}},
                  {tr("× %1").arg(formatSignificant(d.effect)), {d.effect}},
                  // Shares below 0.1 % read as such (a formatted 1e-30 % says nothing a reader can use).
                  {d.share < 0.001 ? tr("< 0.1 %") : tr("%1 %").arg(formatSignificant(100.0 * d.share, 2)), {d.share}},
                  textCell(QString::fromStdString(d.source))}});
        }
        if (!p.rangeDrivers.empty()) {
            const RangeDriver& top = p.rangeDrivers.front();
            lines << tr("<span style='color:%1; font-weight:600'>%2</span>: %3 – %4 tokens/s per user, mostly "
                        "<b>%5</b> (%6 % of the range); ceiling %7 tokens/s (%8 bound)")
                         .arg(s.color.darker(120).name(), s.label.toHtmlEscaped(),
                              formatSignificant(p.tokensPerSecondPerUserRange.low),
                              formatSignificant(p.tokensPerSecondPerUserRange.high), QString::fromStdString(top.input),
                              formatSignificant(100.0 * top.share, 2),
                              formatSignificant(p.ceiling.tokensPerSecondPerUser),
                              QString::fromStdString(p.ceiling.bound));
            if (!p.ceiling.gap.empty()) // a far ceiling says why
                lines.last() +=
                    QStringLiteral("<br><small>%1</small>").arg(QString::fromStdString(p.ceiling.gap).toHtmlEscaped());
        }
    }
    showTable(m_table, m_rows);
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_table->resizeColumnsToContents();
}

ChartData ComparisonDrivers::chartData() const
{
    return m_rows.exported();
}

} // namespace ws::views
