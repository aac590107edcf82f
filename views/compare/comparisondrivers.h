#pragma once
// What each system's speed range is made of: one row per range driver (the
// input the predictor does not know for sure, its low and high value, the
// speed at each end, its share of the range and its source), largest first,
// and a line per system naming the input that moves the prediction most
// ("the range is mostly the clock"). A function of the compared systems.

#include "views/charts/charttable.h"
#include "views/compare/comparisonsnapshot.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace ws::views {

class ComparisonDrivers : public QWidget
{
    Q_OBJECT

public:
    explicit ComparisonDrivers(QWidget* parent = nullptr);

    void setSystems(const std::vector<ComparisonSystem>& systems);

    QTableWidget* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }
    ChartData chartData() const;

private:
    ChartTable m_rows; // the table shown and the data exported
    QTableWidget* m_table = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace ws::views
