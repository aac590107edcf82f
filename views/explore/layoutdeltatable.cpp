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
    setColumnCount(4);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    setHeaders();
}

void LayoutDeltaTable::setHeaders()
{
    setHorizontalHeaderLabels({tr("Quantity"), tr("A"), tr("B"), tr("B − A")});
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

void LayoutDeltaTable::setDelta(const PredictionDelta& delta)
{
    m_delta = delta;
    setRowCount(int(delta.quantities.size() + delta.phasesMs.size()));
    int row = 0;
    auto add = [&](const ComparedQuantity& q, const QString& name, const QString& id, const std::string& unit) {
        auto* nameItem = new QTableWidgetItem(name);
        nameItem->setData(Qt::UserRole, id);
        setItem(row, 0, nameItem);
        setItem(row, 1, new QTableWidgetItem(formatValue(unit, q.a, false)));
        setItem(row, 2, new QTableWidgetItem(formatValue(unit, q.b, false)));
        auto* deltaItem = new QTableWidgetItem(formatValue(unit, q.delta(), true));
        deltaItem->setData(Qt::UserRole, q.delta());
        setItem(row, 3, deltaItem);
        for (int c = 1; c < 4; ++c)
            item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        ++row;
    };
    for (const ComparedQuantity& q : delta.quantities)
        add(q, quantityName(q.id), QString::fromStdString(q.id), q.id);
    for (const ComparedQuantity& q : delta.phasesMs)
        add(q, tr("Time per token, %1 (ms)").arg(QString::fromStdString(q.id)),
            QStringLiteral("breakdown/") + QString::fromStdString(q.id), "ms");
}

void LayoutDeltaTable::clearDelta()
{
    m_delta = {};
    setRowCount(0);
}

std::vector<std::pair<QString, double>> LayoutDeltaTable::deltas() const
{
    std::vector<std::pair<QString, double>> out;
    for (int r = 0; r < rowCount(); ++r)
        out.emplace_back(item(r, 0)->data(Qt::UserRole).toString(), item(r, 3)->data(Qt::UserRole).toDouble());
    return out;
}

void LayoutDeltaTable::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        setHeaders();
        if (rowCount() > 0)
            setDelta(PredictionDelta(m_delta));
    }
    QTableWidget::changeEvent(event);
}

} // namespace ws::views
