// MeshView's input: wheel zoom around the cursor, drag to pan, keys, click to
// select, the Defects dock's brush, hover and tooltips. Drawing and the view
// state are in meshview.cpp.
#include "views/mesh/meshview.h"

#include "views/mesh/meshdifference.h"
#include "views/mesh/viewevents.h"

#include "views/mesh/meshimage.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {
constexpr double kDragThresholdPx = 4;
} // namespace

void MeshView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_snapshot) {
        event->ignore();
        return;
    }
    m_transform.zoomAround(event->position(), std::pow(ViewTransform::zoomStep, steps));
    emitZoom();
    update();
    event->accept();
    emit viewChangedByUser();
}

void MeshView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (m_brushMode && m_snapshot) {
        m_brushStart = m_transform.coreAt(event->position());
        m_brushRect = m_brushStart ? std::optional<QRect>(QRect(*m_brushStart, QSize(1, 1))) : std::nullopt;
        update();
        return;
    }
    m_pressed = true;
    m_dragged = false;
    m_pressPos = event->position();
    m_lastPos = event->position();
}

void MeshView::mouseMoveEvent(QMouseEvent* event)
{
    const std::optional<QRectF> legend = headsUp().legendRect;
    const bool near = legend && legend->adjusted(-24, -24, 24, 24).contains(event->position());
    if (near != m_legendFaded) {
        m_legendFaded = near;
        update();
    }
    if (m_brushMode && m_brushStart) {
        const QPointF c = m_transform.widgetToCore(event->position());
        const QPoint end(std::clamp(int(std::floor(c.x())), 0, m_snapshot->meshCols - 1),
                         std::clamp(int(std::floor(c.y())), 0, m_snapshot->meshRows - 1));
        m_brushRect = QRect(*m_brushStart, end).normalized();
        update();
        return;
    }
    if (m_pressed) {
        if (!m_dragged && (event->position() - m_pressPos).manhattanLength() >= kDragThresholdPx) {
            m_dragged = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragged) {
            m_transform.panBy(event->position() - m_lastPos);
            m_lastPos = event->position();
            update();
            return;
        }
    }
    setHover(m_snapshot ? m_transform.coreAt(event->position()) : std::nullopt);
}

void MeshView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_brushMode && m_brushStart && event->button() == Qt::LeftButton) {
        const std::optional<QRect> cores = m_brushRect;
        m_brushStart.reset();
        m_brushRect.reset();
        update();
        if (cores)
            emit brushed(m_device, *cores);
        return;
    }
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    unsetCursor();
    if (m_dragged)
        emit viewChangedByUser();
    if (m_dragged || !m_snapshot)
        return;
    if (const auto core = m_transform.coreAt(event->position())) {
        m_selected = core;
        update();
        emit coreClicked(m_device, core->x(), core->y());
    }
}

void MeshView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        fitToWindow();
        emit viewChangedByUser();
    }
}

void MeshView::leaveEvent(QEvent*)
{
    if (m_legendFaded) {
        m_legendFaded = false;
        update();
    }
    setHover(std::nullopt);
}

void MeshView::setHover(std::optional<QPoint> core)
{
    if (core == m_hover)
        return;
    m_hover = core;
    update();
    emit coreHovered(m_device, core ? core->x() : -1, core ? core->y() : -1);
}

void MeshView::keyPressEvent(QKeyEvent* event)
{
    const double stepPx = std::max(width(), height()) / 10.0;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        fitToWindow();
        break;
    case Qt::Key_Left:
        m_transform.panBy(QPointF(stepPx, 0));
        update();
        break;
    case Qt::Key_Right:
        m_transform.panBy(QPointF(-stepPx, 0));
        update();
        break;
    case Qt::Key_Up:
        m_transform.panBy(QPointF(0, stepPx));
        update();
        break;
    case Qt::Key_Down:
        m_transform.panBy(QPointF(0, -stepPx));
        update();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
    emit viewChangedByUser();
}

bool MeshView::event(QEvent* event)
{
    const bool consumed = handleToolTipEvent(this, event, [this](QPoint pos) {
        const auto core = m_snapshot ? m_transform.coreAt(pos) : std::nullopt;
        return core ? toolTipForCore(*core) : QString();
    });
    return consumed || QWidget::event(event);
}

QString MeshView::toolTipForCore(QPoint core) const
{
    if (!m_snapshot || core.x() < 0 || core.y() < 0 || core.x() >= m_snapshot->meshCols ||
        core.y() >= m_snapshot->meshRows)
        return {};
    const MeshSnapshot& s = *m_snapshot;
    const QLocale locale;
    const size_t i = static_cast<size_t>(core.y()) * s.meshCols + core.x();
    const size_t cores = static_cast<size_t>(s.meshCols) * static_cast<size_t>(s.meshRows);
    const auto d = static_cast<size_t>(m_device);
    QStringList lines;
    lines << tr("Core (%1, %2) on wafer %3").arg(core.x()).arg(core.y()).arg(m_device + 1);
    if (m_difference && d < m_difference->values.size() && m_difference->values[d].size() == cores)
        lines << DifferenceLayer::valueText(*m_difference, m_difference->values[d][i]);
    if (d < s.sramFraction.size() && s.sramFraction[d].size() == cores) {
        const double f = s.sramFraction[d][i];
        lines << tr("SRAM used: %1% of %2 (%3)")
                     .arg(locale.toString(100 * f, 'f', 1), formatBytes(double(s.sramBytesPerCore)),
                          formatBytes(f * double(s.sramBytesPerCore)));
    }
    if (d < s.owner.size() && s.owner[d].size() == cores) {
        const size_t o = s.owner[d][i];
        if (o == 0 || o >= s.owners.size())
            lines << tr("Holds: nothing placed");
        else if (s.owners[o].layerIndex >= 0)
            lines << tr("Holds: layer %1, %2")
                         .arg(s.owners[o].layerIndex)
                         .arg(QString::fromStdString(s.owners[o].tensorKind));
        else
            lines << tr("Holds: %1").arg(QString::fromStdString(s.owners[o].tensorKind));
    }
    if (d < s.overflowBytes.size() && s.overflowBytes[d].size() == cores && s.overflowBytes[d][i] > 0)
        lines << tr("Over SRAM by %1: this core cannot hold what the layout puts on it")
                     .arg(formatBytes(double(s.overflowBytes[d][i])));
    if (d < s.kvFraction.size() && s.kvFraction[d].size() == cores) {
        const double f = s.kvFraction[d][i];
        lines << tr("KV cache: %1% of SRAM (%2)")
                     .arg(locale.toString(100 * f, 'f', 1), formatBytes(f * double(s.sramBytesPerCore)));
    }
    lines << tr("Numbers from the engine's placement. Click for details.");
    return lines.join(QLatin1Char('\n'));
}

} // namespace ws::views
