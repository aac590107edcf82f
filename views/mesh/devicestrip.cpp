#include "views/mesh/devicestrip.h"
#include "views/mesh/viewevents.h"

#include "views/mesh/meshimage.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QTransform>

#include <algorithm>
#include <utility>

namespace ws::views {

namespace {
constexpr int kThumbWidth = 112;
constexpr int kPad = 8;
} // namespace

DeviceStrip::DeviceStrip(QWidget* parent) : QWidget(parent)
{
    m_buildTimer.setSingleShot(true);
    m_buildTimer.setInterval(0);
    connect(&m_buildTimer, &QTimer::timeout, this, [this] {
        if (complete())
            return;
        // One wafer a shot: each takes a few milliseconds (its image at full size, averaged down), and the event
        // loop runs between them.
        makeThumbnail(m_built++);
        update();
        if (!complete())
            m_buildTimer.start();
    });
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
}

void DeviceStrip::setSnapshot(std::shared_ptr<const MeshSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    if (!m_snapshot || m_current >= m_snapshot->deviceCount)
        m_current = 0;
    rebuild();
}

void DeviceStrip::setLayer(MeshLayer layer)
{
    if (layer == m_layer)
        return;
    const bool same = thumbnailLayer(layer) == thumbnailLayer(m_layer);
    m_layer = layer;
    if (!same) // Placement, Dataflow, Links and Values share their thumbnails
        rebuild();
}

void DeviceStrip::setCurrentDevice(int device)
{
    if (device == m_current || !m_snapshot || device < 0 || device >= m_snapshot->deviceCount)
        return;
    m_current = device;
    update();
}

MeshLayer DeviceStrip::thumbnailLayer(MeshLayer layer)
{
    return isFrameLayer(layer) ? MeshLayer::WeightPlacement : layer;
}

QSize DeviceStrip::thumbSize() const
{
    if (!m_snapshot || m_snapshot->meshCols <= 0 || m_snapshot->meshRows <= 0)
        return {kThumbWidth, kThumbWidth};
    const int across = m_turned ? m_snapshot->meshRows : m_snapshot->meshCols;
    const int down = m_turned ? m_snapshot->meshCols : m_snapshot->meshRows;
    return {kThumbWidth, std::max(16, kThumbWidth * down / across)};
}

void DeviceStrip::setTurned(bool turned)
{
    if (turned == m_turned)
        return;
    m_turned = turned;
    rebuild();
}

void DeviceStrip::rebuild()
{
    // The thumbnails are made after the next paint, one wafer at a time (or at once when one is asked for): a new
    // placement's dispatch stays short, and a hidden strip makes none.
    m_built = 0;
    ++m_stamp;
    m_requested = false;
    if (deviceCount() == 0) {
        m_thumbs.clear();
        m_usedFraction.clear();
    }
    updateGeometry();
    update();
}

bool DeviceStrip::complete() const
{
    return m_built >= deviceCount();
}

QImage DeviceStrip::thumbnail(int device) const
{
    if (!complete())
        const_cast<DeviceStrip*>(this)->buildThumbnails();
    return device >= 0 && size_t(device) < m_thumbs.size() ? m_thumbs[size_t(device)] : QImage();
}

void DeviceStrip::buildThumbnails()
{
    while (!complete())
        makeThumbnail(m_built++);
    update();
}

namespace {

QImage thumbnailOf(const MeshSnapshot& snapshot, int d, MeshLayer layer, double range, QSize size, bool turned)
{
    QImage thumb = buildMeshImage(snapshot, d, layer, range);
    if (!thumb.isNull()) {
        // Reduced first, then turned: a quarter turn of the thumbnail, not of the whole wafer's image.
        thumb = thumb.scaled(turned ? size.transposed() : size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        if (turned)
            thumb = thumb.transformed(QTransform().rotate(90));
    }
    return thumb;
}

// Mean over the cores applications may use (the reserved I/O border does not count); -1 without data.
double usedFractionOf(const MeshSnapshot& snapshot, size_t d)
{
    const size_t cores = static_cast<size_t>(std::max(0, snapshot.meshCols)) * std::max(0, snapshot.meshRows);
    if (d >= snapshot.sramFraction.size() || snapshot.sramFraction[d].size() != cores || cores == 0)
        return -1;
    const auto& a = snapshot.sramFraction[d];
    const bool states = d < snapshot.coreState.size() && snapshot.coreState[d].size() == cores;
    double sum = 0;
    size_t counted = 0;
    for (size_t i = 0; i < cores; ++i) {
        if (states && snapshot.coreState[d][i] == CoreState::Reserved)
            continue;
        sum += a[i];
        ++counted;
    }
    return counted > 0 ? sum / static_cast<double>(counted) : 0;
}

} // namespace

DeviceThumbnails DeviceStrip::makeThumbnails(const MeshSnapshot& snapshot, MeshLayer layer, QSize size, bool turned)
{
    DeviceThumbnails out;
    const MeshLayer drawn = thumbnailLayer(layer);
    const double range = meshLayerRange(snapshot, drawn);
    for (int d = 0; d < std::max(0, snapshot.deviceCount); ++d) {
        out.images.push_back(thumbnailOf(snapshot, d, drawn, range, size, turned));
        out.usedFraction.push_back(usedFractionOf(snapshot, size_t(d)));
    }
    return out;
}

void DeviceStrip::offerThumbnails(quint64 stamp, DeviceThumbnails thumbnails)
{
    if (stamp != m_stamp || int(thumbnails.images.size()) != deviceCount() ||
        thumbnails.usedFraction.size() != thumbnails.images.size())
        return;
    m_thumbs = std::move(thumbnails.images);
    m_usedFraction = std::move(thumbnails.usedFraction);
    m_built = deviceCount();
    update();
}

void DeviceStrip::makeThumbnail(int d)
{
    const auto count = static_cast<size_t>(deviceCount());
    if (m_thumbs.size() != count) { // another number of wafers: none of the last ones is kept
        m_thumbs.assign(count, QImage());
        m_usedFraction.assign(count, -1);
    }
    // The Dataflow layer has no picture between frames (its activity lives in the frame of the moment, for the
    // wafer in the main view): its thumbnails show which layers each wafer holds instead of a blank.
    const MeshLayer layer = thumbnailLayer(m_layer);
    if (d == 0) // the first wafer made after every rebuild: the layer's range over all wafers, once
        m_range = meshLayerRange(*m_snapshot, layer);
    const auto dd = static_cast<size_t>(d);
    m_thumbs[dd] = thumbnailOf(*m_snapshot, d, layer, m_range, thumbSize(), m_turned);
    m_usedFraction[dd] = usedFractionOf(*m_snapshot, dd);
}

QRect DeviceStrip::itemRect(int device) const
{
    const int line = fontMetrics().height();
    const int itemHeight = thumbSize().height() + 2 * line + 3 * kPad;
    const int gap = m_links.isEmpty() ? kPad : 2 * line + 2 * kPad; // room for a link label
    return QRect(kPad, kPad + device * (itemHeight + gap), kThumbWidth + 2 * kPad, itemHeight);
}

QRect DeviceStrip::linkRect(int device) const
{
    const QRect a = itemRect(device);
    return QRect(a.left(), a.bottom() + 1, a.width(), itemRect(device + 1).top() - a.bottom() - 1);
}

void DeviceStrip::setLinks(const QStringList& texts, const QStringList& toolTips)
{
    if (texts == m_links && toolTips == m_linkTips)
        return;
    m_links = texts;
    m_linkTips = toolTips;
    bool any = false;
    for (const QString& t : m_links)
        any = any || !t.isEmpty();
    if (!any)
        m_links.clear();
    updateGeometry();
    update();
}

QSize DeviceStrip::sizeHint() const
{
    const int count = m_snapshot ? std::max(1, m_snapshot->deviceCount) : 1;
    return {kThumbWidth + 4 * kPad, itemRect(count - 1).bottom() + kPad};
}

QSize DeviceStrip::minimumSizeHint() const
{
    return {kThumbWidth + 4 * kPad, itemRect(0).bottom() + kPad};
}

int DeviceStrip::deviceCount() const
{
    return m_snapshot ? std::max(0, m_snapshot->deviceCount) : 0;
}

int DeviceStrip::deviceAt(QPoint pos) const
{
    for (int d = 0; d < deviceCount(); ++d)
        if (itemRect(d).contains(pos))
            return d;
    return -1;
}

void DeviceStrip::paintEvent(QPaintEvent*)
{
    // Stale thumbnails (a new placement or layer, as many wafers as before): the last ones are drawn once more, the
    // new ones made on a zero timer, which runs after this paint (a queued call would run before it). With another
    // number of wafers there is nothing to draw meanwhile: they are made now.
    if (!complete() && m_maker) {
        if (!std::exchange(m_requested, true))
            m_maker({m_snapshot, m_layer, thumbSize(), m_turned, m_stamp});
        if (int(m_thumbs.size()) != deviceCount()) { // frames without pictures until they come
            m_thumbs.assign(size_t(deviceCount()), QImage());
            m_usedFraction.assign(size_t(deviceCount()), -1);
        }
    } else if (!complete() && int(m_thumbs.size()) != deviceCount()) {
        buildThumbnails();
    } else if (!complete() && !m_buildTimer.isActive()) {
        m_buildTimer.start();
    }
    QPainter p(this);
    p.fillRect(rect(), QColor(0x16, 0x18, 0x20));
    p.setRenderHint(QPainter::Antialiasing, true);
    const QLocale locale;
    const int line = fontMetrics().height();
    for (int d = 0; d < static_cast<int>(m_thumbs.size()); ++d) {
        const QRect r = itemRect(d);
        const bool current = d == m_current;
        p.setPen(current ? QPen(QColor(0x4f, 0xc3, 0xf7), 2) : QPen(QColor(255, 255, 255, 30), 1));
        p.setBrush(current ? QColor(0x23, 0x2a, 0x38) : QColor(0x1c, 0x1f, 0x28));
        p.drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        p.setPen(QColor(230, 233, 240));
        p.drawText(QRect(r.left() + kPad, r.top() + kPad / 2, r.width() - 2 * kPad, line),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   m_snapshot && d < m_snapshot->deviceCount && isDraftWafer(*m_snapshot, d)
                       ? tr("Wafer %1 · draft").arg(d + 1)
                       : tr("Wafer %1").arg(d + 1));
        const QRect thumb(QPoint(r.left() + kPad, r.top() + kPad + line), thumbSize());
        if (!m_thumbs[static_cast<size_t>(d)].isNull())
            p.drawImage(thumb, m_thumbs[static_cast<size_t>(d)]);
        p.setPen(QColor(170, 176, 188));
        const double used = m_usedFraction[static_cast<size_t>(d)];
        const QString usedText =
            used >= 0 ? tr("SRAM %1% used").arg(locale.toString(100 * used, 'f', 1)) : tr("no SRAM data");
        if (used >= 0 || complete()) // not while the maker is at work
            p.drawText(QRect(r.left() + kPad, thumb.bottom() + kPad / 2, r.width() - 2 * kPad, line),
                       Qt::AlignLeft | Qt::AlignVCenter, usedText);
        if (d + 1 < static_cast<int>(m_thumbs.size()) && d < m_links.size() && !m_links[d].isEmpty()) {
            p.setPen(QColor(0x4f, 0xc3, 0xf7));
            p.drawText(linkRect(d), Qt::AlignCenter, m_links[d]);
        }
    }
}

void DeviceStrip::mousePressEvent(QMouseEvent* event)
{
    const int d = deviceAt(event->position().toPoint());
    if (d < 0)
        return;
    setCurrentDevice(d);
    emit deviceSelected(d);
}

void DeviceStrip::keyPressEvent(QKeyEvent* event)
{
    const int count = deviceCount();
    int d = m_current;
    if (event->key() == Qt::Key_Up || event->key() == Qt::Key_Left)
        d = std::max(0, d - 1);
    else if (event->key() == Qt::Key_Down || event->key() == Qt::Key_Right)
        d = std::min(count - 1, d + 1);
    else {
        QWidget::keyPressEvent(event);
        return;
    }
    if (d != m_current && d >= 0) {
        setCurrentDevice(d);
        emit deviceSelected(d);
    }
}

bool DeviceStrip::event(QEvent* event)
{
    const bool consumed = handleToolTipEvent(this, event, [this](QPoint pos) {
        if (deviceAt(pos) >= 0)
            return tr("Mean SRAM use over all cores of this wafer, from the engine's placement. "
                      "Click to show this wafer.");
        for (int d = 0; d + 1 < deviceCount() && d < m_links.size(); ++d)
            if (!m_links[d].isEmpty() && linkRect(d).contains(pos))
                return d < m_linkTips.size() ? m_linkTips[d] : QString();
        return QString();
    });
    return consumed || QWidget::event(event);
}

} // namespace ws::views
