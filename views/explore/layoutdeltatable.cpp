#include "views/explore/layoutdeltatable.h"

#include "views/mesh/meshimage.h"

#include <QEvent>
#include <QHeaderView>
#include <QLocale>

#include <cmath>

namespace ws::views {

LayoutDeltaTable::LayoutDeltaTable(QWidget* parent) : QTableWidget(parent)
{
    setObjectName(QStringLiteral("layoutDeltaTable"));
    clearDelta();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
}

QString LayoutDeltaTable::quantityName(const std::string& id)
{
    if (id == "tokens_per_second_per_user")
        return tr("Tokens/s per user");
    if (id == "ttft_ms")
        return tr("Time to first token (ms)");
    if (id == "ms_per_token")
        return tr("Time per token (ms)");
    if (id == "devices")
        return tr("Wafers");
    if (id == "sram_headroom_bytes")
        return tr("SRAM headroom");
    if (id == "kv_capacity_tokens")
        return tr("KV capacity (tokens)");
    if (id == "max_concurrency")
        return tr("Requests that fit");
    if (id == "aggregate_tokens_per_second")
        return tr("Aggregate tokens/s");
    return QString::fromStdString(id);
}

QString LayoutDeltaTable::formatValue(const std::string& id, double v, bool signedValue)
{
    const QLocale locale;
    const QString sign = signedValue && v > 0 ? QStringLiteral("+") : QString();
    if (id == "sram_headroom_bytes")
        return (signedValue && v < 0 ? QStringLiteral("−") : sign) + formatBytes(std::fabs(v));
    if (id == "devices" || id == "kv_capacity_tokens" || id == "max_concurrency")
        return sign + locale.toString(qlonglong(std::llround(v)));
    return sign + locale.toString(v, 'g', 5);
}

ChartTable LayoutDeltaTable::rowsOf(const PredictionDelta& delta)
{
    constexpr Qt::Alignment number = Qt::AlignRight | Qt::AlignVCenter;
    ChartTable t{QStringLiteral("layout_delta"),
                 {{tr("Quantity"), {QStringLiteral("quantity")}},
                  {tr("A"), {QStringLiteral("a")}, number},
                  {tr("B"), {QStringLiteral("b")}, number},
                  {tr("B − A"), {QStringLiteral("b_minus_a")}, number}},
                 {}};
    auto add = [&](const ComparedQuantity& q, const QString& name, const QString& id, const std::string& unit) {
        t.rows.append({{{name, {id}},
                        {formatValue(unit, q.a, false), {q.a}},
                        {formatValue(unit, q.b, false), {q.b}},
                        {formatValue(unit, q.delta(), true), {q.delta()}}}});
    };
    for (const ComparedQuantity& q : delta.quantities)
        add(q, quantityName(q.id), QString::fromStdString(q.id), q.id);
    for (const ComparedQuantity& q : delta.phasesMs)
        add(q, tr("Time per token, %1 (ms)").arg(QString::fromStdString(q.id)),
            QStringLiteral("breakdown/") + QString::fromStdString(q.id), "ms");
    return t;
}

void LayoutDeltaTable::setDelta(const PredictionDelta& delta)
{
    m_delta = delta;
    m_rows = rowsOf(m_delta);
    showTable(this, m_rows);
}

void LayoutDeltaTable::clearDelta()
{
    setDelta({});
}

std::vector<std::pair<QString, double>> LayoutDeltaTable::deltas() const
{
    std::vector<std::pair<QString, double>> out;
    for (const QVariantList& row : m_rows.exported().rows)
        out.emplace_back(row.at(0).toString(), row.at(3).toDouble());
    return out;
}

void LayoutDeltaTable::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        setDelta(PredictionDelta(m_delta));
    QTableWidget::changeEvent(event);
}

} // namespace ws::views
