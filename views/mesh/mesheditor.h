#pragma once
// Hand editing of a layout on a MeshView (the Layout dock's edit mode). An
// event filter on the view: a press on a layer's region selects it; dragging
// its inside moves it and dragging within a core (or 6 px) of one of its edges
// resizes it, both snapped to whole cores and previewed as an outline;
// Ctrl+click on another region asks to swap the two layers; the context menu
// asks to put the token embedding or the LM head on a region. The editor only
// emits these intents (in cores, relative to the region as drawn): the app
// applies the engine's edit operation and, when the engine refuses it, shows
// the one-line reason where the pointer is (showMessage). Presses outside
// every region fall through to the view (pan, click, zoom).

#include <QObject>
#include <QPoint>
#include <QPointF>
#include <QRect>

#include <optional>

namespace ws::views {

class MeshView;

class MeshEditor : public QObject
{
    Q_OBJECT

public:
    // Which edge a resize moves; the same order as ws::RegionEdge.
    enum Edge
    {
        Left,
        Right,
        Top,
        Bottom
    };
    // Which table a context-menu request moves; the same order as ws::LayoutTable.
    enum Table
    {
        Embedding,
        LmHead
    };

    explicit MeshEditor(MeshView* view);

    void setEnabled(bool on);
    bool isEnabled() const { return m_enabled; }
    std::optional<int> selectedLayer() const { return m_selected; }
    void setSelectedLayer(std::optional<int> layer);
    // One line by the pointer (a refused edit's reason).
    void showMessage(const QString& text);

signals:
    void layerSelected(int layer);
    void moveRequested(int layer, int dxCores, int dyCores);
    void resizeRequested(int layer, int edge, int deltaCores); // edge: Edge; positive: right or down
    void swapRequested(int layerA, int layerB);
    void tableRequested(int table, int layer); // table: Table

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Hit
    {
        int layer = -1;
        QRect cores; // the region as drawn (fabric cores)
    };
    std::optional<Hit> regionAt(QPointF widgetPos) const;
    std::optional<int> edgeAt(const Hit& hit, QPointF widgetPos) const;
    QRect previewRect(QPointF widgetPos) const;
    void updateMarks();
    bool press(QPointF pos, Qt::KeyboardModifiers modifiers);
    bool move(QPointF pos);
    bool release(QPointF pos);
    bool contextMenu(QPoint pos, QPoint globalPos);

    MeshView* m_view;
    bool m_enabled = false;
    std::optional<int> m_selected;
    std::optional<Hit> m_drag;     // the region being dragged
    std::optional<int> m_dragEdge; // none: a move
    QPointF m_pressCore;           // where the drag started, in cores
    QPoint m_pointer;              // last pointer position (widget)
};

} // namespace ws::views
