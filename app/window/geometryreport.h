#pragma once
// What a window shows where, checkable from outside (`waferscope --geometry-report FILE`) and by tests: the
// on-screen rectangles (window coordinates) of the window, the heatmap, the chat transcript and every visible
// chart (QChartView) and table (QTableView, QTableWidget), and whether any chart's axis title or any table's
// column header is drawn cut ("…" or "...": `elided`, the texts in `elided_texts`); a chart's own title and
// category labels drawn cut are listed apart (`cut_labels`). As JSON:
//
//   {"mode": "chat", "window": {"x":0,"y":0,"width":1366,"height":768},
//    "heatmap": {"rect": {...}, "area_share": 0.61, "visible": true},
//    "transcript": {"rect": {...}, "visible": true, "lines": 24},
//    "charts": [{"name": "comparisonDock/RangeBarChart: Tokens per second per user", "kind": "chart",
//                "rect": {...}, "elided": false, "elided_texts": [], "cut_labels": ["Groq LPU"]}, ...]}
//
// A chart's axis titles are found among the texts its scene draws: a title that is not drawn whole is cut.
// A table's header section is cut when it is narrower than the header's own size hint for it.

#include <QJsonObject>
#include <QRect>
#include <QString>
#include <QStringList>

#include <vector>

class QWidget;

namespace ws {

struct GeometryItem
{
    QString name;
    QString kind;            // "chart" or "table"
    QRect rect;              // in the window's coordinates
    QStringList elidedTexts; // axis titles and column headers drawn cut
    QStringList cutLabels;   // chart titles and category labels drawn cut
    bool elided() const { return !elidedTexts.isEmpty(); }
};

struct GeometryReport
{
    QString mode;
    QRect window;
    QRect heatmap; // empty when not visible
    QRect transcript;
    int transcriptLines = 0; // lines of the transcript's font that fit its visible height
    std::vector<GeometryItem> charts;

    // The part of the window's area the heatmap's visible rectangle takes (0..1).
    double heatmapShare() const;
    QJsonObject toJson() const;

    // Measures `window` as laid out now. heatmap and transcript may be null.
    static GeometryReport measure(QWidget* window, QWidget* heatmap, QWidget* transcript, const QString& mode);
    // The axis titles or column headers a chart or table draws cut; empty when none is.
    static QStringList elidedTexts(QWidget* chartOrTable);
    // The title and category labels a chart draws cut.
    static QStringList cutLabels(QWidget* chart);
    // Writes the report as indented JSON; false with *error when the file cannot be written.
    bool write(const QString& path, QString* error) const;
};

} // namespace ws
