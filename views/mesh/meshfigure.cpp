#include "views/mesh/meshfigure.h"

#include "views/mesh/meshimage.h"
#include "views/mesh/meshlegend.h"
#include "views/mesh/meshoverlay.h"
#include "views/mesh/meshrects.h"

#include <QBuffer>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>
#include <climits>
#include <cmath>

namespace ws::views {

namespace {

const QColor kPage(0x0e, 0x10, 0x16); // MeshView's background: the figure looks like the window
const QColor kText(235, 238, 245);
const QColor kDimText(160, 166, 178);

constexpr size_t kSquaresPerPath = 5000;

// The fill of wafer i's placeholder in the generator's SVG (a colour no scale or palette gives).
QColor markerColor(size_t i)
{
    return QColor(0xfe, 0x01, int(i % 256));
}

// The cores of one wafer as SVG: a path per colour of unit squares and runs in core coordinates ("m dx dy h w v h
// h -w z", about 12 bytes a rectangle), placed on the page by the group's transform; crisp edges, so neighbouring
// rectangles leave no hairline seams.
QByteArray coreGroup(const std::vector<ColorRect>& rects, const QRectF& rect, double unitsPerCore)
{
    QByteArray out;
    out.reserve(qsizetype(rects.size()) * 14 + 256);
    out += "<g stroke=\"none\" shape-rendering=\"crispEdges\" transform=\"matrix(" +
           QByteArray::number(unitsPerCore, 'g', 9) + ",0,0," + QByteArray::number(unitsPerCore, 'g', 9) + "," +
           QByteArray::number(rect.left(), 'g', 9) + "," + QByteArray::number(rect.top(), 'g', 9) + ")\">\n";
    for (size_t i = 0; i < rects.size();) {
        const QRgb color = rects[i].color;
        out += "<path fill=\"" + QColor(color).name().toLatin1() + "\" d=\"";
        QPoint at;
        bool first = true;
        // At most kSquaresPerPath squares in one path (Qt's SVG reader truncates a path of many more elements).
        for (size_t n = 0; i < rects.size() && rects[i].color == color && n < kSquaresPerPath; ++i, ++n) {
            const QRect& r = rects[i].cores;
            const QPoint move = first ? r.topLeft() : r.topLeft() - at;
            out += (first ? "M" : "m") + QByteArray::number(move.x()) + ' ' + QByteArray::number(move.y()) + 'h' +
                   QByteArray::number(r.width()) + 'v' + QByteArray::number(r.height()) + 'h' +
                   QByteArray::number(-r.width()) + 'z';
            at = r.topLeft(); // "z" returns to the start of the square
            first = false;
        }
        out += "\"/>\n";
    }
    out += "</g>\n";
    return out;
}

// The colour that covers most cores: the placeholder's fill under the cores, so that where a renderer that
// ignores crispEdges (Qt's) antialiases the squares' shared edges, the seams blend into the wafer's main colour
// rather than the page's.
QByteArray mainColor(const std::vector<ColorRect>& rects)
{
    QRgb best = 0;
    qint64 bestArea = -1;
    for (size_t i = 0; i < rects.size();) {
        const QRgb color = rects[i].color;
        qint64 area = 0;
        for (; i < rects.size() && rects[i].color == color; ++i)
            area += qint64(rects[i].cores.width()) * rects[i].cores.height();
        if (area > bestArea) {
            best = color;
            bestArea = area;
        }
    }
    return QColor(best).name().toLatin1();
}

// Gives each placeholder its wafer's main colour and puts the wafer's cores right after it.
void spliceCores(QByteArray& svg, const std::vector<MeshFigure::SvgCores>& cores)
{
    qsizetype from = 0; // wafers are painted in order: each placeholder comes after the cores put in before it
    for (const MeshFigure::SvgCores& c : cores) {
        const QByteArray marker = "fill=\"" + c.marker + "\"";
        const qsizetype fill = svg.indexOf(marker, from);
        const qsizetype end = fill < 0 ? -1 : svg.indexOf("</g>", fill);
        if (end < 0)
            continue;
        const QByteArray under = "fill=\"" + c.underColor + "\"";
        svg.insert(end + 4, "\n" + c.group);
        svg.replace(fill, marker.size(), under);
        from = end + 4 + (under.size() - marker.size()) + 1 + c.group.size();
    }
}

} // namespace

QFont MeshFigure::legendFont()
{
    QFont font;
    font.setPixelSize(kLegendFontPx);
    return font;
}

double MeshFigure::legendScale() const
{
    return double(m_options.bodyFont().pixelSize()) / kLegendFontPx;
}

MeshFigure::MeshFigure(std::shared_ptr<const MeshFrame> frame, MeshFigureOptions options)
    : m_frame(std::move(frame)), m_options(std::move(options))
{
    m_options.dpi = std::clamp(m_options.dpi, MeshFigureOptions::kMinDpi, MeshFigureOptions::kMaxDpi);
    m_options.sizeMm =
        QSizeF(std::clamp(m_options.sizeMm.width(), MeshFigureOptions::kMinMm, MeshFigureOptions::kMaxMm),
               std::clamp(m_options.sizeMm.height(), MeshFigureOptions::kMinMm, MeshFigureOptions::kMaxMm));
    if (!isValid())
        return;
    const MeshSnapshot& s = *m_frame->base;
    m_range = meshLayerRange(s, m_options.layer);
    const MeshLegend legend(&s, m_options.layer, m_range, m_frame->overlayTop);
    const QFontMetricsF body(m_options.bodyFont());
    QString widest;
    for (int d = 0; d < s.deviceCount; ++d)
        if (const QString c = waferCaption(s, d); body.horizontalAdvance(c) > body.horizontalAdvance(widest))
            widest = c;
    m_layout = layoutMeshFigure(s, m_options, legend.sizeHint(legendFont()) * legendScale(), widest);
}

QString MeshFigure::waferCaption(const MeshSnapshot& s, int device)
{
    const QLocale locale;
    QString text = tr("Wafer %1 of %2").arg(locale.toString(device + 1), locale.toString(s.deviceCount));
    if (isDraftWafer(s, device))
        return text + tr(" · the draft model's own wafer");
    int first = INT_MAX;
    int last = -1;
    for (const MeshRegion& r : s.regions)
        if (r.device == device && !r.draft && r.layerIndex >= 0) {
            first = std::min(first, r.layerIndex);
            last = std::max(last, r.layerIndex);
        }
    if (last >= 0)
        text += first == last ? tr(" · layer L%1").arg(locale.toString(first))
                              : tr(" · layers L%1–L%2").arg(locale.toString(first), locale.toString(last));
    // A wrapped caption keeps "L0–L31" on one line (word joiners around the dash).
    text.replace(QStringLiteral("–"), QStringLiteral("\u2060–\u2060"));
    return text;
}

void MeshFigure::paintCores(QPainter& p, int device, const QRectF& rect, double pixelsPerUnit, bool vector,
                            MeshFigureSvgStats* stats, std::vector<SvgCores>* svgCores) const
{
    const QImage cores = buildMeshImage(*m_frame, device, m_options.layer, m_range);
    if (cores.isNull())
        return;
    const double pixelsPerCore = m_layout.unitsPerCore * pixelsPerUnit;
    if (vector && pixelsPerCore >= 1 && svgCores) {
        // A placeholder the SVG generator writes as one group of its own; the cores go right after it.
        const QColor marker = markerColor(svgCores->size());
        p.save();
        p.setPen(Qt::NoPen);
        p.setBrush(marker);
        p.drawRect(rect);
        p.restore();
        const std::vector<ColorRect> rects = mergeCoreRects(cores);
        svgCores->push_back(
            {marker.name().toLatin1(), mainColor(rects), coreGroup(rects, rect, m_layout.unitsPerCore)});
        if (stats) {
            ++stats->vectorWafers;
            stats->rects += qint64(rects.size());
        }
        return;
    }
    if (vector) {
        // An image of one pixel per core, scaled by the viewer: full resolution, nothing averaged away.
        p.drawImage(rect, cores);
        if (stats) {
            ++stats->rasterWafers;
            if (cores.width() * cores.height() > stats->largestImage.width() * stats->largestImage.height())
                stats->largestImage = cores.size();
        }
        return;
    }
    // Raster: the cores at the device's pixels, nearest neighbour from a pixel per core up (crisp cores), area
    // averaged below it (no core dropped).
    const QRect target = QRectF(rect.topLeft() * pixelsPerUnit, rect.size() * pixelsPerUnit).toAlignedRect();
    const QImage scaled = cores.scaled(target.size(), Qt::IgnoreAspectRatio,
                                       pixelsPerCore >= 1 ? Qt::FastTransformation : Qt::SmoothTransformation);
    p.save();
    p.resetTransform();
    p.drawImage(target.topLeft(), scaled);
    p.restore();
}

void MeshFigure::paint(QPainter& p, double pixelsPerUnit, bool vector, MeshFigureSvgStats* stats,
                       std::vector<SvgCores>* svgCores) const
{
    const MeshFigureLayout& l = m_layout;
    p.fillRect(QRectF(QPointF(0, 0), l.page), kPage);
    if (!isValid())
        return;
    const MeshSnapshot& s = *m_frame->base;
    if (!l.title.isEmpty()) {
        p.setFont(m_options.titleFont());
        p.setPen(kText);
        p.drawText(l.title, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_options.title);
    }
    const QFont body = m_options.bodyFont();
    for (size_t i = 0; i < l.devices.size(); ++i) {
        const int device = l.devices[i];
        const QRectF& rect = l.wafers[i];
        paintCores(p, device, rect, pixelsPerUnit, vector, stats, svgCores);
        p.setFont(body);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(QColor(255, 255, 255, 60), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect.adjusted(-1, -1, 1, 1));
        // The window's overlays, through a transform that puts this wafer where the layout says.
        ViewTransform t;
        t.viewPx = l.page;
        t.meshCores = QSizeF(s.meshCols, s.meshRows);
        t.scale = l.unitsPerCore;
        t.offsetPx = rect.topLeft();
        const MeshOverlay overlay{*m_frame, t, device, m_options.layer};
        overlay.paintDies(p);
        overlay.paintRegions(p);
        overlay.paintFlows(p);
        p.setFont(body);
        p.setPen(kText);
        p.drawText(l.captions[i].adjusted(0, QFontMetricsF(body).height() * 0.2, 0, 0),
                   Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap | Qt::TextDontClip, waferCaption(s, device));
    }
    // The legend as the window draws it, scaled to the page's text (its paddings and bars grow with it).
    p.save();
    p.translate(l.legend.topLeft());
    p.scale(legendScale(), legendScale());
    p.setFont(legendFont());
    MeshLegend(&s, m_options.layer, m_range, m_frame->overlayTop)
        .paint(p, QRectF(QPointF(0, 0), l.legend.size() / legendScale()));
    p.restore();
    if (!l.source.isEmpty()) {
        p.setFont(m_options.sourceFont());
        p.setPen(kDimText);
        p.drawText(l.source, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_options.source);
    }
}

QImage MeshFigure::toImage() const
{
    QImage image(m_options.pixelSize(), QImage::Format_RGB32);
    image.fill(kPage);
    const double perUnit = m_options.pixelsPerUnit();
    const int dotsPerMeter = int(std::lround(m_options.dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QPainter p(&image);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.scale(image.width() / m_layout.page.width(), image.height() / m_layout.page.height());
    paint(p, perUnit, false, nullptr, nullptr);
    p.end();
    return image;
}

QImage MeshFigure::preview(QSize bounds) const
{
    if (m_layout.page.isEmpty() || bounds.isEmpty())
        return {};
    const QSizeF fitted = m_layout.page.scaled(QSizeF(bounds), Qt::KeepAspectRatio);
    const double perUnit = fitted.width() / m_layout.page.width();
    QImage image(fitted.toSize().expandedTo(QSize(1, 1)), QImage::Format_RGB32);
    image.fill(kPage);
    QPainter p(&image);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.scale(perUnit, perUnit);
    paint(p, perUnit, false, nullptr, nullptr);
    p.end();
    return image;
}

QByteArray MeshFigure::toSvg(MeshFigureSvgStats* stats) const
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    const QSizeF page = m_layout.page.isEmpty() ? m_options.pageUnits() : m_layout.page;
    generator.setSize(page.toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), page));
    generator.setResolution(int(MeshFigureOptions::kUnitsPerInch)); // the SVG's width and height in mm: the page's
    generator.setTitle(m_options.title);
    generator.setDescription(m_options.source);
    MeshFigureSvgStats local;
    std::vector<SvgCores> cores;
    QPainter p(&generator);
    paint(p, m_options.pixelsPerUnit(), true, stats ? stats : &local, &cores);
    p.end();
    buffer.close();
    spliceCores(bytes, cores);
    return bytes;
}

} // namespace ws::views
