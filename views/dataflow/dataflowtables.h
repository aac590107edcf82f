#pragma once
// The Dataflow dock's two tables, each described once (a ChartTable) for the
// table on screen and its CSV/JSON export: the cycles a token spends in each
// kind of phase (compute, reduce, hops, ...), summed over the token's
// schedule, and the timing constants the schedule was built from, each with
// its value, unit and source.

#include "views/charts/charttable.h"

#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <QCoreApplication>

#include <vector>

namespace ws::views {

class DataflowTables
{
    Q_DECLARE_TR_FUNCTIONS(ws::views::DataflowTables)

public:
    // One row per phase kind with cycles (in PhaseKind order): cycles, microseconds, share of the token.
    static ChartTable phaseCycles(const TokenSchedule& schedule);
    // One row per timing constant: label, value, unit, source (tooltip: what it means).
    static ChartTable timingConstants(const std::vector<ParamInfo>& params);
};

} // namespace ws::views
