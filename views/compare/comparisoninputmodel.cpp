#include "views/compare/comparisoninputmodel.h"

namespace ws::views {

ComparisonInputModel::ComparisonInputModel(QObject* parent) : ChartTableModel(parent)
{
    setInputs({});
}

void ComparisonInputModel::setInputs(const std::vector<ComparisonInput>& inputs)
{
    ChartTable t;
    t.name = QStringLiteral("inputs");
    t.columns = {{tr("Group"), {QStringLiteral("group")}},
                 {tr("Parameter"), {QStringLiteral("parameter")}},
                 {tr("Value"), {QStringLiteral("value")}, Qt::AlignRight | Qt::AlignVCenter},
                 {tr("Source"), {QStringLiteral("source")}}};
    for (const ComparisonInput& in : inputs) {
        const QString tip = tr("%1 — %2: %3\nSource: %4").arg(in.group, in.name, in.value, in.source);
        t.rows.append(
            {{textCell(in.group, tip), textCell(in.name, tip), textCell(in.value, tip), textCell(in.source, tip)}});
    }
    setTable(std::move(t));
}

} // namespace ws::views
