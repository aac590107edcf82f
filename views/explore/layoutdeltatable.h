#pragma once
// The compare dock's delta table: one row per quantity of a PredictionDelta
// (engine/explore/layoutcompare.h, the function `waferscope-cli compare` uses)
// with A, B and B - A, then the time per token of each phase. Each row keeps
// the quantity's id (predict --json's key, or "breakdown/<phase>") in
// Qt::UserRole of its first cell and the unrounded B - A in Qt::UserRole of
// its last, so what the table shows can be checked against the CLI's JSON.

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
    // The id and unrounded B - A of every row, in row order.
    std::vector<std::pair<QString, double>> deltas() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void setHeaders();
    static QString quantityName(const std::string& id);
    static QString formatValue(const std::string& id, double value, bool signedValue);
    PredictionDelta m_delta;
};

} // namespace ws::views
