#pragma once
// A mesh figure is the heatmap composed for a slide or a paper instead of
// copied from the screen: every wafer of a frame (or the one chosen) at one
// scale with its caption, the layer's legend in a column of its own beside
// them, a title above and a source line below, on a page of a chosen size,
// drawn at a chosen DPI (the layout: meshfigurelayout.h). The PNG is the page
// at that DPI. The SVG draws the cores as vector rectangles, equal neighbours
// merged (meshrects.h), and the region outlines, labels, legend and text as
// vectors; only a wafer whose cores would be smaller than a device pixel at
// the DPI is an embedded image instead, at one pixel per core (its full
// resolution). File > Export figure… and `waferscope-cli render --compose`
// both draw through this class. A pure function of a frame: no file I/O.

#include "engine/wafer/placement/meshsnapshot.h"
#include "views/mesh/meshfigurelayout.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QSize>

#include <memory>
#include <vector>

class QPainter;

namespace ws::views {

// How an SVG's cores were drawn.
struct MeshFigureSvgStats
{
    int vectorWafers = 0; // wafers drawn as rectangles
    int rasterWafers = 0; // wafers drawn as one image (cores smaller than a device pixel)
    qint64 rects = 0;     // core rectangles written
    QSize largestImage;   // the largest embedded image (empty: none)
};

class MeshFigure
{
    Q_DECLARE_TR_FUNCTIONS(ws::views::MeshFigure)

public:
    MeshFigure(std::shared_ptr<const MeshFrame> frame, MeshFigureOptions options);

    bool isValid() const { return m_frame && m_frame->base && m_frame->base->deviceCount > 0; }
    const MeshFigureOptions& options() const { return m_options; }
    const MeshFigureLayout& layout() const { return m_layout; }
    // Device pixels per core at the options' DPI.
    double pixelsPerCore() const { return m_layout.unitsPerCore * m_options.pixelsPerUnit(); }

    // The page at the options' DPI (options().pixelSize(), the DPI recorded in the image).
    QImage toImage() const;
    // The same page at the DPI that fits `bounds` (the export dialog's preview).
    QImage preview(QSize bounds) const;
    // The page as an SVG document of the page's physical size, titled with the options' title.
    QByteArray toSvg(MeshFigureSvgStats* stats = nullptr) const;

    // "Wafer 1 of 2 · L0–L31" (the transformer layers it holds; "the draft model's own wafer").
    static QString waferCaption(const MeshSnapshot& snapshot, int device);

    // A wafer's cores written into the SVG by hand (paths of squares: far smaller than the generator's element
    // per rectangle), right after the placeholder the generator drew in the `marker` colour, which takes
    // `underColor` (the colour of most cores).
    struct SvgCores
    {
        QByteArray marker;     // "#fe0100"
        QByteArray underColor; // "#d7e135"
        QByteArray group;      // "<g ...>...</g>"
    };

private:
    // The legend is laid out in a font of this many pixels, as in the window, then scaled to the page's text.
    static constexpr int kLegendFontPx = 12;
    static QFont legendFont();
    double legendScale() const;
    // Paints the page in page units; `vector`: cores as rectangles (SVG: placeholders, the cores in *svgCores),
    // else as a scaled image at `pixelsPerUnit` device pixels per unit.
    void paint(QPainter& painter, double pixelsPerUnit, bool vector, MeshFigureSvgStats* stats,
               std::vector<SvgCores>* svgCores) const;
    void paintCores(QPainter& painter, int device, const QRectF& rect, double pixelsPerUnit, bool vector,
                    MeshFigureSvgStats* stats, std::vector<SvgCores>* svgCores) const;

    std::shared_ptr<const MeshFrame> m_frame;
    MeshFigureOptions m_options;
    MeshFigureLayout m_layout;
    double m_range = 1.0; // the top of the layer's colour scale (meshLayerRange)
};

} // namespace ws::views
