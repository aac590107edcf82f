#pragma once
// GPU, Groq and wafer side by side for one model and workload: bar charts of
// tokens/s per user, time to first token and energy per token (each with the
// prediction's range as a whisker), the throughput-vs-latency curves over
// concurrency, "what it means" figures (an agent workflow, a Chinese answer,
// human reading speed), what each range is made of with every system on one
// roofline, cost per million output tokens against speed per user over
// concurrency (beside published API prices; hourly costs editable), the calibration profiles with
// predicted-vs-measured, and a table of every input with its source. A function of one ComparisonSnapshot
// (setSnapshot); settings edits go out as settingsChanged, exports as exportRequested (the app writes the files).

#include "views/charts/charttable.h"
#include "views/compare/comparisonsnapshot.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace ws::views {

class CalibrationPanel;
class ChartCard;
class ComparisonDrivers;
class ComparisonInputModel;
class ComparisonSettingsBar;
class ConcurrencyChart;
class CostChart;
class RangeBarChart;
class RooflineChart;
class SpeculativePanel;

class ComparisonPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ComparisonPanel(QWidget* parent = nullptr);

    // Hidden in a window on show (another mode's layout, its dock closed), the panel keeps the snapshot and fills
    // its charts and tables when it is shown again, not at every change of the scenario (tens of milliseconds of
    // chart layout on the GUI thread); elsewhere at once.
    void setSnapshot(std::shared_ptr<const ComparisonSnapshot> snapshot);
    std::shared_ptr<const ComparisonSnapshot> snapshot() const { return m_snapshot; }

    // Reading speed in tokens/s for the snapshot's tokens per character (low, high).
    static std::pair<double, double> readingTokensPerSecond(const ReadingSpeed& reading, double tokensPerCharLow,
                                                            double tokensPerCharHigh);

    RangeBarChart* speedChart() const { return m_speed; }
    RangeBarChart* ttftChart() const { return m_ttft; }
    RangeBarChart* energyChart() const { return m_energy; }
    ConcurrencyChart* concurrencyChart() const { return m_curves; }
    CostChart* costChart() const { return m_cost; }
    SpeculativePanel* speculativePanel() const { return m_speculative; }
    CalibrationPanel* calibrationPanel() const { return m_calibration; }
    ComparisonDrivers* rangeDrivers() const { return m_drivers; }
    RooflineChart* rooflineChart() const { return m_roofline; }
    ComparisonInputModel* inputModel() const { return m_inputs; }
    QTableWidget* meaningTable() const { return m_meaning; }
    ComparisonSettingsBar* settingsBar() const { return m_settings; }
    QTabWidget* tabs() const { return m_tabs; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* headlineLabel() const { return m_headline; }

    // The meaning table's and the inputs table's rows as export data (the rows they show).
    ChartData meaningData() const;
    ChartData inputData() const;

signals:
    void settingsChanged(const ws::views::ComparisonSettings& settings);
    void fitProfileRequested();
    void addMeasurementsRequested();
    // `content` is drawn for PNG/SVG; `data` is written for CSV/JSON.
    void exportRequested(QWidget* content, const ws::views::ChartData& data, const QString& title);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void showSnapshot();
    void connectCard(ChartCard* card, const std::function<ChartData()>& data, const QString& title);
    void fillBars();
    void fillMeaning();
    void fillCost();

    std::shared_ptr<const ComparisonSnapshot> m_snapshot;
    bool m_stale = false; // the views show an earlier snapshot (hidden when it came)
    ComparisonSettingsBar* m_settings = nullptr;
    QTabWidget* m_tabs = nullptr;
    RangeBarChart* m_speed = nullptr;
    RangeBarChart* m_ttft = nullptr;
    RangeBarChart* m_energy = nullptr;
    ConcurrencyChart* m_curves = nullptr;
    CostChart* m_cost = nullptr;
    SpeculativePanel* m_speculative = nullptr;
    QTableWidget* m_meaning = nullptr;
    ChartTable m_meaningRows; // what the meaning table shows and meaningData() exports
    QLabel* m_meaningNote = nullptr;
    QLabel* m_headline = nullptr;
    QLabel* m_status = nullptr;
    CalibrationPanel* m_calibration = nullptr;
    ComparisonDrivers* m_drivers = nullptr;
    RooflineChart* m_roofline = nullptr;
    ComparisonInputModel* m_inputs = nullptr;
    QTableView* m_inputView = nullptr;
};

} // namespace ws::views
