#pragma once
// What a composed figure's SVG (views/mesh/meshfigure.h) holds, for the tests that check it: its embedded
// images (and the largest one's pixel size, decoded) and its cores, the squares and runs ('z'-closed subpaths)
// of the paths inside the crisp-edged groups the figure draws cores in.

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QXmlStreamReader>

#include <algorithm>

namespace wstest {

struct SvgCount
{
    int images = 0;
    QSize largestImage; // in pixels, of the embedded PNGs
    qint64 coreRects = 0;
};

inline SvgCount countSvg(const QByteArray& svg)
{
    SvgCount out;
    QXmlStreamReader xml(svg);
    int coreDepth = 0; // > 0 inside a group of cores
    while (!xml.atEnd()) {
        const auto token = xml.readNext();
        if (token == QXmlStreamReader::EndElement && coreDepth > 0)
            --coreDepth;
        if (token != QXmlStreamReader::StartElement)
            continue;
        if (coreDepth > 0)
            ++coreDepth;
        if (xml.name() == QLatin1String("image")) {
            ++out.images;
            const QString href = xml.attributes().value(QLatin1String("xlink:href")).toString();
            const QImage embedded =
                QImage::fromData(QByteArray::fromBase64(href.section(QLatin1Char(','), 1).toLatin1()));
            out.largestImage = QSize(std::max(out.largestImage.width(), embedded.width()),
                                     std::max(out.largestImage.height(), embedded.height()));
        } else if (xml.name() == QLatin1String("g") &&
                   xml.attributes().value(QLatin1String("shape-rendering")) == QLatin1String("crispEdges")) {
            coreDepth = 1;
        } else if (coreDepth > 0 && xml.name() == QLatin1String("path")) {
            out.coreRects += xml.attributes().value(QLatin1String("d")).count(QLatin1Char('z'));
        }
    }
    return out;
}

} // namespace wstest
