#pragma once
// The compare dock's delta table: one row per quantity of a PredictionDelta
// (engine/explore/layoutcompare.h, the function `waferscope-cli compare` uses)
// with A, B and B - A, then the time per token of each phase. The rows are
// one description (a ChartTable, rows()): each carries the quantity's id
// (predict --json's key, or "breakdown/<phase>") and the unrounded A, B and
// B - A beside the shown text, so what the table shows can be checked against
// the CLI's JSON.

#include "views/charts/charttable.h"

#include "engine/explore/layoutcompare.h"

#include <QTableWidget>

namespace ws::views {

class LayoutDeltaTable : public QTableWidget
{
    Q_OBJECT

public:
    explicit LayoutDeltaTable(QWidget* parent = nullptr);
    void setDelta(const PredictionDelta& delta);
    void clearDelta();
    // The id and unrounded B - A of every row, in row order (from rows()).
    std::vector<std::pair<QString, double>> deltas() const;
    // What the table shows, with the ids and unrounded values (exported(): quantity, a, b, b_minus_a).
    const ChartTable& rows() const { return m_rows; }

protected:
    void changeEvent(QEvent* event) override;

private:
    static ChartTable rowsOf(const PredictionDelta& delta);
    static QString quantityName(const std::string& id);
    static QString formatValue(const std::string& id, double value, bool signedValue);
    PredictionDelta m_delta;
    ChartTable m_rows; // rowsOf(m_delta)
};

} // namespace ws::views
