#pragma once
// The inspector: a dock that shows the scenario (model, hardware, precision,
// devices, SRAM) and, after a click on the heatmap, the chosen core: logical
// and physical coordinates, layer and matrix tile, bytes by kind. Every row
// carries a tooltip saying where its number comes from. It re-reads its
// strings on a language change.

#include "app/common/placementresult.h"

#include <QDockWidget>

#include <memory>
#include <optional>

class QTreeWidget;
class QTreeWidgetItem;

namespace ws {

class InspectorDock : public QDockWidget
{
    Q_OBJECT

public:
    explicit InspectorDock(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const PlacementResult> result);
    void setCore(int device, int x, int y);
    void clearCore();
    // What went wrong with the scenario's defects (a remap that found no usable mesh), shown first; empty: none.
    void setProblem(const QString& problem);
    // The text of the value in the row whose label is `label` (for tests), or a null string.
    QString valueFor(const QString& label) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    QTreeWidgetItem* addSection(const QString& title);
    void addRow(QTreeWidgetItem* section, const QString& label, const QString& value, const QString& toolTip);
    QString kindName(const std::string& kind) const;

    QTreeWidget* m_tree = nullptr;
    std::shared_ptr<const PlacementResult> m_result;
    struct Core
    {
        int device, x, y;
    };
    std::optional<Core> m_core;
    QString m_problem;
};

} // namespace ws
