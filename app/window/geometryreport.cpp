#include "app/window/geometryreport.h"

#include <QAbstractItemModel>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSet>
#include <QTableView>
#include <QTextDocumentFragment>

#include <algorithm>

namespace ws {

namespace {

QJsonObject rectJson(const QRect& r)
{
    return {{QStringLiteral("x"), r.x()},
            {QStringLiteral("y"), r.y()},
            {QStringLiteral("width"), r.width()},
            {QStringLiteral("height"), r.height()}};
}

// The part of `widget` the user sees, in the window's coordinates: its rectangle clipped by every parent's (a
// scroll area's viewport shows part of its content); empty when hidden, or in a dock behind another's tab. (Not
// visibleRegion(): a chart's own overlays, such as its hover tips, take that away from it.)
QRect visibleRect(const QWidget* widget, const QWidget* window)
{
    if (!widget || !widget->isVisible())
        return {};
    QRect rect(widget->mapTo(window, QPoint(0, 0)), widget->size());
    for (const QWidget* w = widget->parentWidget(); w && w != window; w = w->parentWidget()) {
        if (qobject_cast<const QDockWidget*>(w) && w->visibleRegion().isEmpty())
            return {};
        rect &= QRect(w->mapTo(window, QPoint(0, 0)), w->size());
    }
    return rect & QRect(QPoint(0, 0), window->size());
}

QString plain(const QString& text)
{
    return QTextDocumentFragment::fromHtml(text).toPlainText().trimmed();
}

// The chart's axis titles (in `titles`) and its own title and category labels (in `labels`) that it does not draw
// whole.
void cutChartTexts(const QChartView* view, QStringList* titles, QStringList* labels)
{
    const QChart* chart = view->chart();
    if (!chart || !view->scene())
        return;
    QSet<QString> drawn; // every text the chart's scene draws, whole or cut
    for (const QGraphicsItem* item : view->scene()->items())
        if (const auto* text = dynamic_cast<const QGraphicsTextItem*>(item); text && text->isVisible())
            drawn.insert(text->toPlainText().trimmed());
    auto check = [&](const QString& text, QStringList* cut) {
        const QString wanted = plain(text);
        if (cut && !wanted.isEmpty() && !drawn.contains(wanted))
            *cut << wanted;
    };
    check(chart->title(), labels);
    for (QAbstractAxis* axis : chart->axes()) {
        if (!axis->isVisible())
            continue;
        if (axis->isTitleVisible())
            check(axis->titleText(), titles);
        if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis); categories && axis->labelsVisible())
            for (const QString& category : categories->categories())
                check(category, labels);
    }
}

QStringList elidedHeaderTexts(const QTableView* table)
{
    const QHeaderView* header = table->horizontalHeader();
    const QAbstractItemModel* model = table->model();
    if (!header || !model || !header->isVisible())
        return {};
    QStringList cut;
    for (int i = 0; i < header->count(); ++i) {
        if (header->isSectionHidden(i))
            continue;
        const QString text = model->headerData(i, Qt::Horizontal, Qt::DisplayRole).toString();
        if (!text.isEmpty() && header->sectionSize(i) < header->sectionSizeHint(i))
            cut << text;
    }
    return cut;
}

// "comparisonDock/RangeBarChart: Tokens per second per user": the dock it lies in, its class (or object name),
// and its title or first column.
QString itemName(const QWidget* widget)
{
    QString owner;
    for (const QWidget* w = widget->parentWidget(); w; w = w->parentWidget())
        if (qobject_cast<const QDockWidget*>(w)) {
            owner = w->objectName();
            break;
        }
    QString name = widget->objectName();
    if (name.isEmpty())
        name = QString::fromLatin1(widget->metaObject()->className()).section(QStringLiteral("::"), -1);
    QString what;
    if (const auto* view = qobject_cast<const QChartView*>(widget); view && view->chart())
        what = plain(view->chart()->title());
    else if (const auto* table = qobject_cast<const QTableView*>(widget); table && table->model())
        for (int i = 0; i < table->model()->columnCount() && what.isEmpty(); ++i)
            what = table->model()->headerData(i, Qt::Horizontal, Qt::DisplayRole).toString();
    return (owner.isEmpty() ? QString() : owner + QLatin1Char('/')) + name +
           (what.isEmpty() ? QString() : QStringLiteral(": ") + what);
}

} // namespace

double GeometryReport::heatmapShare() const
{
    const double area = double(window.width()) * double(window.height());
    return area > 0 ? double(heatmap.width()) * double(heatmap.height()) / area : 0.0;
}

QStringList GeometryReport::elidedTexts(QWidget* chartOrTable)
{
    QStringList cut;
    if (const auto* view = qobject_cast<const QChartView*>(chartOrTable))
        cutChartTexts(view, &cut, nullptr);
    else if (const auto* table = qobject_cast<const QTableView*>(chartOrTable))
        cut = elidedHeaderTexts(table);
    return cut;
}

QStringList GeometryReport::cutLabels(QWidget* chart)
{
    QStringList cut;
    if (const auto* view = qobject_cast<const QChartView*>(chart))
        cutChartTexts(view, nullptr, &cut);
    return cut;
}

GeometryReport GeometryReport::measure(QWidget* window, QWidget* heatmap, QWidget* transcript, const QString& mode)
{
    GeometryReport report;
    report.mode = mode;
    report.window = QRect(QPoint(0, 0), window->size());
    report.heatmap = visibleRect(heatmap, window);
    report.transcript = visibleRect(transcript, window);
    if (!report.transcript.isEmpty())
        report.transcriptLines = report.transcript.height() / std::max(1, transcript->fontMetrics().lineSpacing());
    auto add = [&](QWidget* widget, const QString& kind) {
        const QRect visible = visibleRect(widget, window);
        if (visible.isEmpty())
            return;
        report.charts.push_back({itemName(widget), kind, visible, elidedTexts(widget), cutLabels(widget)});
    };
    for (QChartView* chart : window->findChildren<QChartView*>())
        add(chart, QStringLiteral("chart"));
    for (QTableView* table : window->findChildren<QTableView*>())
        add(table, QStringLiteral("table"));
    return report;
}

QJsonObject GeometryReport::toJson() const
{
    QJsonArray items;
    for (const GeometryItem& item : charts)
        items.append(QJsonObject{{QStringLiteral("name"), item.name},
                                 {QStringLiteral("kind"), item.kind},
                                 {QStringLiteral("rect"), rectJson(item.rect)},
                                 {QStringLiteral("elided"), item.elided()},
                                 {QStringLiteral("elided_texts"), QJsonArray::fromStringList(item.elidedTexts)},
                                 {QStringLiteral("cut_labels"), QJsonArray::fromStringList(item.cutLabels)}});
    return {{QStringLiteral("mode"), mode},
            {QStringLiteral("window"), rectJson(window)},
            {QStringLiteral("heatmap"), QJsonObject{{QStringLiteral("rect"), rectJson(heatmap)},
                                                    {QStringLiteral("visible"), !heatmap.isEmpty()},
                                                    {QStringLiteral("area_share"), heatmapShare()}}},
            {QStringLiteral("transcript"), QJsonObject{{QStringLiteral("rect"), rectJson(transcript)},
                                                       {QStringLiteral("visible"), !transcript.isEmpty()},
                                                       {QStringLiteral("lines"), transcriptLines}}},
            {QStringLiteral("charts"), items}};
}

bool GeometryReport::write(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(toJson()).toJson()) < 0 || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write the geometry report %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ws
