#pragma once
// The race chart: one bar per system for the same answer, the time it takes
// (this CPU: measured; compared systems: predicted), shortest first, on a
// logarithmic time axis so that microseconds and seconds both stay visible.

#include <QString>
#include <QWidget>

#include <vector>

namespace ws::views {

struct RaceRow
{
    QString name;
    double seconds = 0;
    bool measured = false; // this CPU (measured) or a compared system (predicted)
};

class RaceChart : public QWidget
{
    Q_OBJECT
public:
    explicit RaceChart(QWidget* parent = nullptr);

    void setRows(std::vector<RaceRow> rows, int tokens);
    const std::vector<RaceRow>& rows() const { return m_rows; }
    // Bar length 0..1 for `seconds` between the chart's shortest and longest time (log scale).
    double barFraction(double seconds) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<RaceRow> m_rows;
    int m_tokens = 0;
    double m_minSeconds = 0;
    double m_maxSeconds = 0;
};

} // namespace ws::views
