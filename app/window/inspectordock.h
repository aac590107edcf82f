#pragma once
// The inspector: a dock that shows the scenario (model, hardware, precision,
// devices, SRAM) and, after a click on the heatmap, the chosen core: logical
// and physical coordinates, layer and matrix tile, bytes by kind. Every row
// carries a tooltip saying where its number comes from. While the Dataflow
// dock plays the mesh engine's run of a layer, the chosen core also shows what
// it did in that run: busy, waiting and idle cycles, by phase. It re-reads its
// strings on a language change.

#include "app/common/placementresult.h"
#include "engine/wafer/mesh/meshplayback.h"

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
    // The mesh engine's run of `layer` the Dataflow dock plays (null: none).
    void setExecuted(std::shared_ptr<const MeshPlayback> run, int layer);
    // The text of the value in the row whose label is `label` (for tests), or a null string.
    QString valueFor(const QString& label) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void addExecutedRows(int device, int x, int y);
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
    std::shared_ptr<const MeshPlayback> m_executed;
    int m_executedLayer = -1;
};

} // namespace ws
