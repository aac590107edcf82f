#include "views/mesh/mesheditor.h"

#include "views/mesh/meshview.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {
constexpr double kEdgeGrabPx = 6;
} // namespace

MeshEditor::MeshEditor(MeshView* view) : QObject(view), m_view(view)
{
    view->installEventFilter(this);
}

void MeshEditor::setEnabled(bool on)
{
    m_enabled = on;
    m_drag.reset();
    if (!on)
        m_view->unsetCursor();
    updateMarks();
}

void MeshEditor::setSelectedLayer(std::optional<int> layer)
{
    m_selected = layer;
    updateMarks();
}

void MeshEditor::showMessage(const QString& text)
{
    QToolTip::showText(m_view->mapToGlobal(m_pointer), text, m_view);
}

std::optional<MeshEditor::Hit> MeshEditor::regionAt(QPointF pos) const
{
    const auto snapshot = m_view->snapshot();
    const auto core = snapshot ? m_view->transform().coreAt(pos) : std::nullopt;
    if (!core)
        return std::nullopt;
    for (const MeshRegion& r : snapshot->regions) {
        const QRect cores(r.x, r.y, r.width, r.height);
        if (r.device == m_view->device() && r.layerIndex >= 0 && cores.contains(*core))
            return Hit{r.layerIndex, cores};
    }
    return std::nullopt;
}

std::optional<int> MeshEditor::edgeAt(const Hit& hit, QPointF pos) const
{
    const QRectF box = m_view->transform().widgetRect(QRectF(hit.cores));
    const double grab = std::max(kEdgeGrabPx, m_view->transform().scale);
    const double distances[4] = {pos.x() - box.left(), box.right() - pos.x(), pos.y() - box.top(),
                                 box.bottom() - pos.y()};
    const auto nearest = std::min_element(std::begin(distances), std::end(distances));
    if (*nearest > grab)
        return std::nullopt;
    const int side = int(nearest - std::begin(distances)); // the box's left, right, top or bottom on screen
    // A turned view shows the mesh a quarter turn clockwise: its left side on screen is the region's bottom edge,
    // the right its top, the top its left and the bottom its right.
    constexpr int kTurnedEdge[4] = {Bottom, Top, Left, Right};
    return m_view->transform().turned ? kTurnedEdge[side] : side;
}

QRect MeshEditor::previewRect(QPointF pos) const
{
    const QPointF core = m_view->transform().widgetToCore(pos);
    const int dx = int(std::lround(core.x() - m_pressCore.x()));
    const int dy = int(std::lround(core.y() - m_pressCore.y()));
    QRect r = m_drag->cores;
    if (!m_dragEdge)
        return r.translated(dx, dy);
    switch (*m_dragEdge) {
    case Left:
        r.setLeft(std::min(r.left() + dx, r.right()));
        break;
    case Right:
        r.setRight(std::max(r.right() + dx, r.left()));
        break;
    case Top:
        r.setTop(std::min(r.top() + dy, r.bottom()));
        break;
    case Bottom:
        r.setBottom(std::max(r.bottom() + dy, r.top()));
        break;
    }
    return r;
}

void MeshEditor::updateMarks()
{
    std::optional<QRect> selected;
    if (m_enabled && m_selected && m_view->snapshot())
        for (const MeshRegion& r : m_view->snapshot()->regions)
            if (r.device == m_view->device() && r.layerIndex == *m_selected)
                selected = QRect(r.x, r.y, r.width, r.height);
    m_view->setEditMarks(selected, m_drag ? std::optional<QRect>(previewRect(m_pointer)) : std::nullopt);
}

bool MeshEditor::press(QPointF pos, Qt::KeyboardModifiers modifiers)
{
    const auto hit = regionAt(pos);
    if (!hit)
        return false;
    if ((modifiers & Qt::ControlModifier) && m_selected && *m_selected != hit->layer) {
        emit swapRequested(*m_selected, hit->layer);
        return true;
    }
    if (m_selected != hit->layer) {
        m_selected = hit->layer;
        emit layerSelected(hit->layer);
    }
    m_drag = hit;
    m_dragEdge = edgeAt(*hit, pos);
    m_pressCore = m_view->transform().widgetToCore(pos);
    updateMarks();
    return true;
}

bool MeshEditor::move(QPointF pos)
{
    if (m_drag) {
        updateMarks();
        return true;
    }
    const auto hit = regionAt(pos);
    const auto edge = hit && hit->layer == m_selected ? edgeAt(*hit, pos) : std::nullopt;
    if (edge) // across the edge as it lies on screen
        m_view->setCursor((*edge == Left || *edge == Right) != m_view->transform().turned ? Qt::SizeHorCursor
                                                                                          : Qt::SizeVerCursor);
    else if (hit && hit->layer == m_selected)
        m_view->setCursor(Qt::SizeAllCursor);
    else
        m_view->unsetCursor();
    return false; // hover and tooltips as usual
}

bool MeshEditor::release(QPointF pos)
{
    if (!m_drag)
        return false;
    const QRect to = previewRect(pos);
    const Hit from = *m_drag;
    const std::optional<int> edge = m_dragEdge;
    m_drag.reset();
    updateMarks();
    if (to == from.cores)
        return true;
    if (!edge) {
        emit moveRequested(from.layer, to.x() - from.cores.x(), to.y() - from.cores.y());
        return true;
    }
    const int delta = *edge == Left    ? to.left() - from.cores.left()
                      : *edge == Right ? to.right() - from.cores.right()
                      : *edge == Top   ? to.top() - from.cores.top()
                                       : to.bottom() - from.cores.bottom();
    emit resizeRequested(from.layer, *edge, delta);
    return true;
}

bool MeshEditor::contextMenu(QPoint pos, QPoint globalPos)
{
    const auto hit = regionAt(pos);
    if (!hit)
        return false;
    QMenu menu(m_view);
    menu.setObjectName(QStringLiteral("meshEditMenu"));
    QAction* head = menu.addAction(tr("Put the LM head on layer %1's region").arg(hit->layer));
    QAction* embedding = menu.addAction(tr("Put the token embedding on layer %1's region").arg(hit->layer));
    QAction* swap = nullptr;
    if (m_selected && *m_selected != hit->layer)
        swap = menu.addAction(tr("Swap layers %1 and %2").arg(*m_selected).arg(hit->layer));
    QAction* chosen = menu.exec(globalPos);
    if (chosen == head)
        emit tableRequested(LmHead, hit->layer);
    else if (chosen == embedding)
        emit tableRequested(Embedding, hit->layer);
    else if (chosen && chosen == swap)
        emit swapRequested(*m_selected, hit->layer);
    return true;
}

bool MeshEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view || !m_enabled)
        return false;
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        m_pointer = e->position().toPoint();
        return e->button() == Qt::LeftButton && press(e->position(), e->modifiers());
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        m_pointer = e->position().toPoint();
        return move(e->position());
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        m_pointer = e->position().toPoint();
        return e->button() == Qt::LeftButton && release(e->position());
    }
    case QEvent::ContextMenu: {
        auto* e = static_cast<QContextMenuEvent*>(event);
        m_pointer = e->pos();
        return contextMenu(e->pos(), e->globalPos());
    }
    default:
        return false;
    }
}

} // namespace ws::views
