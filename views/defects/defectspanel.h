#pragma once
// The Defects dock's contents: tools that inject defects (random Poisson at a
// density D0, clustered with a negative-binomial alpha, a whole die, a brush on
// the heatmap, clear), the seed, the spare scheme, undo and redo, the numbers
// of the redundancy remap and what it costs the time per token, and the yield
// panel as a second tab. The panel only shows what it is given (setNumbers,
// setWafer, setHistory, setYieldCurves) and asks for edits through signals;
// the app's DefectsController does the work.

#include "views/charts/chartdata.h"

#include "engine/wafer/redundancy/remap.h"
#include "engine/wafer/redundancy/yieldcurves.h"

#include <QHash>
#include <QString>
#include <QWidget>

#include <memory>

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QToolButton;

namespace ws::views {

class YieldPanel;

// What the summary shows: the engine's numbers, as they came.
struct DefectsPanelNumbers
{
    bool valid = false; // false: nothing computed yet
    bool busy = false;  // a newer computation is running
    DefectSummary summary;
    int usableCols = 0;
    int usableRows = 0;
    double hopStretch = 1.0;
    double secondsPerTokenBefore = 0; // 0: not predicted
    double secondsPerTokenAfter = 0;
    int devicesBefore = 0; // wafers of each prediction (0: unknown)
    int devicesAfter = 0;
    QString error;
    QString predictionError;
};

class DefectsPanel : public QWidget
{
    Q_OBJECT

public:
    enum Scheme
    {
        RowShift = 0,
        DieRowColumn = 1
    };

    explicit DefectsPanel(QWidget* parent = nullptr);

    // The wafer the tools act on: its name, core area (for D0) and dies (for the die tool).
    void setWafer(const QString& name, double coreAreaMm2, int diesX, int diesY, int segmentPrimary, int segmentSpare);
    void setNumbers(const DefectsPanelNumbers& numbers);
    void setHistory(bool canUndo, bool canRedo);
    void setYieldCurves(std::shared_ptr<const YieldCurves> curves);

    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    bool isBrushActive() const;
    bool brushKills() const;
    YieldPanel* yieldPanel() const { return m_yield; }
    // The text of a summary row (tests): "dead", "spares", "shifted", "unrepairable", "usable", "lost",
    // "stretch", "before", "after", "change", "status".
    QString valueText(const QString& key) const;

    void setDensity(double defectsPerMm2);
    void setSeed(quint64 seed);

signals:
    void poissonRequested(double defectsPerMm2, quint64 seed);
    void clusteredRequested(double defectsPerMm2, double alpha, quint64 seed);
    void dieRequested(int dieX, int dieY); // 0-based
    void clearRequested();
    void schemeRequested(int scheme, int dieSpares); // Scheme
    void undoRequested();
    void redoRequested();
    void brushChanged(bool active, bool kill);
    void exportRequested(QWidget* content, const ws::views::ChartData& data, const QString& title); // the yield chart

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showNumbers();
    QLabel* addValue(QFormLayout* form, const QString& key);
    quint64 takeSeed();

    DefectsPanelNumbers m_numbers;
    QString m_waferName;
    double m_coreAreaMm2 = 0;
    int m_segmentPrimary = 0;
    int m_segmentSpare = 0;

    QTabWidget* m_tabs = nullptr;
    QWidget* m_toolsPage = nullptr;
    QGroupBox* m_injectBox = nullptr;
    QGroupBox* m_schemeBox = nullptr;
    QGroupBox* m_summaryBox = nullptr;
    QFormLayout* m_injectForm = nullptr;
    QFormLayout* m_schemeForm = nullptr;
    QFormLayout* m_summaryForm = nullptr;
    QDoubleSpinBox* m_density = nullptr;
    QDoubleSpinBox* m_alpha = nullptr;
    QSpinBox* m_seed = nullptr;
    QLabel* m_dieLabel = nullptr;
    QSpinBox* m_dieX = nullptr;
    QSpinBox* m_dieY = nullptr;
    QPushButton* m_poisson = nullptr;
    QPushButton* m_clustered = nullptr;
    QPushButton* m_die = nullptr;
    QPushButton* m_clear = nullptr;
    QCheckBox* m_brush = nullptr;
    QComboBox* m_brushMode = nullptr;
    QComboBox* m_scheme = nullptr;
    QSpinBox* m_dieSpares = nullptr;
    QToolButton* m_undoButton = nullptr;
    QToolButton* m_redoButton = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    YieldPanel* m_yield = nullptr;
    QHash<QString, QLabel*> m_values;
    QHash<QString, QLabel*> m_names;
};

} // namespace ws::views
