#pragma once
// The per-token timeline: every phase of the engine's schedule as a bar on
// the row of its layer (embedding at the top, LM head and token feedback at
// the bottom) over wafer time in microseconds, coloured by what the cores do
// (local compute, allreduce, forwarding between regions and wafers), with a
// vertical cursor at the animation time. Clicking scrubs; hovering names the
// phase with its cycles. Series points are replaced in one call per schedule
// (and per resize). An allreduce or forwarding bar shorter than
// kMinBarPixels on screen is drawn that wide, so the bands the legend names are
// seen at any zoom (hover and seeking use the schedule's own cycles). A
// schedule set while the chart is hidden is laid out when it shows. A
// prefill's schedule (TokenSchedule::isPrefill) shows its chunks as a
// staircase through the layer rows, under a band that spans the prompt until
// the last chunk leaves the last layer; the first token follows it.

#include "engine/wafer/dataflow/schedule.h"

#include <QChartView>
#include <QString>

#include <memory>
#include <optional>

class QAreaSeries;
class QCategoryAxis;
class QTimer;
class QLineSeries;
class QValueAxis;

namespace ws::views {

// Translated name of a phase kind, and "L12 · QKV projection" for a phase.
QString phaseKindName(PhaseKind kind);
QString phaseLabel(const Phase& phase);

class TimelineChart : public QChartView
{
    Q_OBJECT

public:
    enum class Band
    {
        Compute,
        Allreduce,
        Forward
    };

    explicit TimelineChart(QWidget* parent = nullptr);

    void setSchedule(std::shared_ptr<const TokenSchedule> schedule);
    void setCursorCycle(double cycle);
    double cursorCycle() const { return m_cursorCycle; }

    // The chart row of a phase: 0 embedding, layer + 1, layers + 1 for the LM head and feedback.
    int rowOf(const Phase& phase) const;
    int rowCount() const { return m_layers + 2; }
    // The index of the phase drawn at (cycle, row), -1 when none.
    int phaseAt(double cycle, int row) const;
    // Cycle and row under a widget position.
    QPointF valueAt(QPoint widgetPos) const;
    QPoint positionOf(double cycle, double row) const;
    // The prefill band's span in µs (empty without a prefill), and its legend name.
    QList<QPointF> prefillBandPoints() const;
    QString prefillBandName() const;
    // Points in one band's upper series (4 per bar, x in µs), for tests.
    int bandPointCount(Band band) const;
    QList<QPointF> bandPoints(Band band) const;
    static constexpr double kMinBarPixels = 2.0;
    QString toolTipAt(QPoint widgetPos) const;

signals:
    void seekRequested(double cycle);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void retranslate();
    // The bars' points for the schedule and width now (the axes' ranges come with them), put in the chart in steps
    // (applyBarsStep: the axes, each band, the rest; false when none is left); ensureBars does what is left at once.
    void layOutBars();
    bool applyBarsStep();
    void ensureBars() const;
    void applyCursor();

    std::shared_ptr<const TokenSchedule> m_schedule;
    int m_layers = 0;
    int m_firstLayer = 0;     // the lowest layer a phase has (a layer the mesh engine ran alone)
    bool m_barsStale = false; // the schedule changed while hidden: the bars are not laid out yet
    QTimer* m_barsTimer;      // lays the bars out after a paint that found them stale or laid out for another width
    int m_barsWidth = -1;     // the view's width the bars were laid out for (their least width is in pixels)
    struct PendingBars
    {
        QList<QPointF> upper[3], lower[3];
        double totalUs = 0;
        double promptUs = -1; // no prefill
        int step = 0;
    };
    std::optional<PendingBars> m_pending; // laid out, not all put in the chart yet
    double m_cursorCycle = 0;
    bool m_cursorStale = false; // moved while hidden: drawn when next shown (applyCursor)
    QAreaSeries* m_bands[3] = {};
    QLineSeries* m_upper[3] = {};
    QLineSeries* m_lower[3] = {};
    QAreaSeries* m_prefillBand = nullptr; // behind the bars: the prompt's part of a prefill
    QLineSeries* m_prefillUpper = nullptr;
    QLineSeries* m_prefillLower = nullptr;
    QLineSeries* m_cursor = nullptr;
    QValueAxis* m_axisX = nullptr;
    QCategoryAxis* m_axisY = nullptr; // labelled with the first and last layer's numbers at their rows
};

} // namespace ws::views
