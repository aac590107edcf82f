#include "views/dataflow/dataflowtables.h"

#include "views/dataflow/timelinechart.h"

#include "engine/wafer/dataflow/layerwork.h"

#include <QLocale>

#include <cmath>

namespace ws::views {

namespace {

QString kindId(PhaseKind kind)
{
    const std::string_view id = phaseKindId(kind);
    return QString::fromLatin1(id.data(), qsizetype(id.size()));
}

constexpr Qt::Alignment kNumber = Qt::AlignRight | Qt::AlignVCenter;

} // namespace

ChartTable DataflowTables::phaseCycles(const TokenSchedule& s)
{
    ChartTable t;
    t.name = QStringLiteral("phase_cycles");
    t.columns = {{tr("Phase"), {QStringLiteral("phase")}, {}},
                 {tr("Cycles"), {QStringLiteral("cycles")}, kNumber},
                 {tr("µs"), {QStringLiteral("microseconds")}, kNumber},
                 {tr("% of token"), {QStringLiteral("share_of_token_percent")}, kNumber}};
    const QLocale locale;
    for (size_t k = 0; k < size_t(PhaseKind::Count); ++k) {
        const double cycles = s.cyclesByKind[k];
        if (!(cycles > 0))
            continue;
        const double us = cycles / s.clockHz * 1e6;
        // Of one pass: a prefill's chunks overlap, and the per-kind times are one chunk's.
        const double pass = s.passCycles > 0 ? s.passCycles : s.totalCycles;
        const double share = pass > 0 ? 100.0 * cycles / pass : 0.0;
        ChartRow row;
        row.cells = {ChartCell{phaseKindName(PhaseKind(k)), {kindId(PhaseKind(k))}},
                     ChartCell{locale.toString(qint64(std::llround(cycles))), {cycles}},
                     ChartCell{locale.toString(us, 'f', 3), {us}}, ChartCell{locale.toString(share, 'f', 1), {share}}};
        t.rows.append(row);
    }
    return t;
}

ChartTable DataflowTables::timingConstants(const std::vector<ParamInfo>& params)
{
    ChartTable t;
    t.name = QStringLiteral("timing_constants");
    t.columns = {{tr("Constant"), {QStringLiteral("constant"), QStringLiteral("name")}, {}},
                 {tr("Value"), {QStringLiteral("value")}, kNumber},
                 {tr("Unit"), {QStringLiteral("unit")}, {}},
                 {tr("Source"), {QStringLiteral("source"), QStringLiteral("fitted")}, {}}};
    const QLocale locale;
    for (const ParamInfo& p : params) {
        const QString label = QString::fromStdString(p.label);
        const QString source = QString::fromStdString(p.source);
        const QString meaning = QString::fromStdString(p.description);
        ChartRow row;
        row.cells = {ChartCell{label, {label, QString::fromStdString(p.name)}, meaning},
                     ChartCell{locale.toString(p.value, 'g', 6), {p.value}}, textCell(QString::fromStdString(p.unit)),
                     ChartCell{source, {source, p.fitted}, meaning}};
        t.rows.append(row);
    }
    return t;
}

} // namespace ws::views
