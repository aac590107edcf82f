#include "views/compare/comparisondrivers.h"

#include "views/charts/chartformat.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ws::views {

namespace {
QTableWidgetItem* item(const QString& text, const QString& tip = {})
{
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    it->setToolTip(tip.isEmpty() ? text : tip);
    return it;
}
} // namespace

ComparisonDrivers::ComparisonDrivers(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_table = new QTableWidget(0, 7);
    m_table->setHorizontalHeaderLabels({tr("System"), tr("Uncertain input"), tr("Low – high"),
                                        tr("Tokens/s per user at low – high"), tr("Effect"), tr("Share of range"),
                                        tr("Source")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
}

void ComparisonDrivers::setSystems(const std::vector<ComparisonSystem>& systems)
{
    m_systems = systems;
    int rows = 0;
    for (const ComparisonSystem& s : systems)
        rows += s.ok ? int(s.prediction.rangeDrivers.size()) : 0;
    m_table->setRowCount(rows);
    QStringList lines;
    int r = 0;
    for (const ComparisonSystem& s : systems) {
        if (!s.ok)
            continue;
        const Prediction& p = s.prediction;
        for (const RangeDriver& d : p.rangeDrivers) {
            auto* name = item(s.label);
            name->setForeground(s.color.darker(120));
            m_table->setItem(r, 0, name);
            m_table->setItem(r, 1, item(QString::fromStdString(d.input)));
            m_table->setItem(
                r, 2,
                item(tr("%1 – %2 %3")
                         .arg(formatSignificant(d.low), formatSignificant(d.high), QString::fromStdString(d.unit)),
                     tr("assumed: %1").arg(formatSignificant(d.assumed))));
            m_table->setItem(r, 3,
                             item(tr("%1 – %2").arg(formatSignificant(d.tokensPerSecondAtLow),
                                                    formatSignificant(d.tokensPerSecondAtHigh))));
            m_table->setItem(r, 4, item(tr("× %1").arg(formatSignificant(d.effect))));
            // Shares below 0.1 % read as such (a formatted 1e-30 % says nothing a reader can use).
            m_table->setItem(
                r, 5, item(d.share < 0.001 ? tr("< 0.1 %") : tr("%1 %").arg(formatSignificant(100.0 * d.share, 2))));
            m_table->setItem(r, 6, item(QString::fromStdString(d.source)));
            ++r;
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
        }
    }
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_table->resizeColumnsToContents();
}

ChartData ComparisonDrivers::chartData() const
{
    ChartData d;
    d.name = QStringLiteral("range_drivers");
    d.columns = {QStringLiteral("system"),
                 QStringLiteral("input"),
                 QStringLiteral("low"),
                 QStringLiteral("high"),
                 QStringLiteral("tokens_per_second_per_user_at_low"),
                 QStringLiteral("tokens_per_second_per_user_at_high"),
                 QStringLiteral("effect"),
                 QStringLiteral("share"),
                 QStringLiteral("source")};
    for (const ComparisonSystem& s : m_systems)
        if (s.ok)
            for (const RangeDriver& r : s.prediction.rangeDrivers)
                d.rows.append(QVariantList{s.label, QString::fromStdString(r.input), r.low, r.high,
                                           r.tokensPerSecondAtLow, r.tokensPerSecondAtHigh, r.effect, r.share,
                                           QString::fromStdString(r.source)});
    return d;
}

} // namespace ws::views
