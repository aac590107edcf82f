#include "app/record/framecomposer.h"

#include "engine/wafer/dataflow/activity.h"
#include "engine/wafer/dataflow/meshframe.h"

#include <QCoreApplication>
#include <QPainter>
#include <QStringList>

#include <algorithm>

namespace ws {

namespace {
const QColor kPanel(24, 26, 32);
const QColor kText(220, 224, 232);
const QColor kDim(150, 156, 168);
constexpr int kCaptionHeightPx = 28;
} // namespace

FrameComposer::FrameComposer(QSize frameSize, bool withChat) : m_size(frameSize), m_withChat(withChat)
{
    m_view.setLegendVisible(true);
    m_view.setTurnToFit(true); // a portrait wafer in a landscape video turns to fill it, as Present mode does
    m_view.resize(meshRect().size());
}

std::shared_ptr<const MeshFrame> FrameComposer::tokenFrame(std::shared_ptr<const MeshSnapshot> base,
                                                           const TokenSchedule& schedule, double fraction, int device)
{
    DataflowFrameOptions options;
    options.device = device;
    options.cycle = std::clamp(fraction, 0.0, 1.0) * schedule.totalCycles;
    options.hops = false; // a recording shows the activity only
    return dataflowFrame(std::move(base), &schedule, options);
}

QString FrameComposer::activePhases(const TokenSchedule& schedule, double fraction)
{
    QStringList ids;
    for (size_t index : ws::activePhases(schedule, std::clamp(fraction, 0.0, 1.0) * schedule.totalCycles)) {
        const QString id = QString::fromLatin1(phaseKindId(schedule.phases[index].kind));
        if (!ids.contains(id))
            ids << id;
    }
    return ids.join(QStringLiteral(", "));
}

void FrameComposer::setViewState(double zoomFactor, QPointF centreCore)
{
    m_zoom = zoomFactor;
    m_centre = centreCore;
    m_viewStatePending = zoomFactor != 1.0 || !centreCore.isNull();
}

QRect FrameComposer::meshRect() const
{
    const int chatWidth = m_withChat ? m_size.width() * 32 / 100 : 0;
    return QRect(0, 0, m_size.width() - chatWidth, m_size.height() - kCaptionHeightPx);
}

QImage FrameComposer::compose(std::shared_ptr<const MeshFrame> meshFrame, MeshLayer layer, int device,
                              const QString& caption, const ChatFrameText& chat)
{
    if (m_view.frame() != meshFrame)
        m_view.setFrame(std::move(meshFrame));
    if (m_view.layer() != layer)
        m_view.setLayer(layer);
    if (m_view.device() != device)
        m_view.setDevice(device);
    if (m_viewStatePending) { // once the view has a mesh; it keeps the transform while the mesh size stays
        m_view.setViewState(m_zoom, m_centre);
        m_viewStatePending = false;
    }

    QImage frame(m_size, QImage::Format_RGB32);
    frame.fill(kPanel);
    QPainter painter(&frame);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRect mesh = meshRect();
    m_view.render(&painter, mesh.topLeft());

    const QRect captionRect(0, mesh.bottom() + 1, m_size.width(), kCaptionHeightPx);
    painter.fillRect(captionRect, kPanel);
    painter.setPen(kText);
    painter.drawText(captionRect.adjusted(10, 0, -10, 0), Qt::AlignVCenter | Qt::AlignLeft, caption);

    if (m_withChat)
        paintChat(painter, QRect(mesh.right() + 1, 0, m_size.width() - mesh.width(), mesh.height()), chat);
    return frame;
}

void FrameComposer::paintChat(QPainter& painter, const QRect& area, const ChatFrameText& chat) const
{
    painter.fillRect(area, kPanel);
    painter.setPen(QColor(60, 64, 76));
    painter.drawLine(area.topLeft(), area.bottomLeft());
    const QRect inner = area.adjusted(14, 12, -12, -12);
    QFont title = painter.font();
    title.setBold(true);
    QFont body = painter.font();

    int y = inner.top();
    const auto block = [&](const QString& heading, const QString& text, const QColor& colour) {
        painter.setFont(title);
        painter.setPen(kDim);
        const QRect headingRect(inner.left(), y, inner.width(), painter.fontMetrics().height());
        painter.drawText(headingRect, Qt::AlignLeft, heading);
        y = headingRect.bottom() + 6;
        painter.setFont(body);
        painter.setPen(colour);
        const QRect textArea(inner.left(), y, inner.width(), inner.bottom() - y);
        const QRect used = painter.boundingRect(textArea, Qt::TextWordWrap, text);
        painter.drawText(textArea, Qt::TextWordWrap, text);
        y = std::min(inner.bottom(), used.bottom()) + 14;
    };
    block(QCoreApplication::translate("ws::FrameComposer", "Prompt"), chat.prompt, kText);
    block(QCoreApplication::translate("ws::FrameComposer", "Answer"), chat.answer, QColor(140, 200, 255));
    painter.setPen(kDim);
    painter.drawText(inner, Qt::AlignBottom | Qt::AlignLeft | Qt::TextWordWrap, chat.stats);
}

} // namespace ws
