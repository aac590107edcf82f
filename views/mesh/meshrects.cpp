#include "views/mesh/meshrects.h"

#include <algorithm>
#include <cstddef>

namespace ws::views {

namespace {

struct Open
{
    QRect cores;
    QRgb color = 0;
};

} // namespace

std::vector<ColorRect> mergeCoreRects(const QImage& image)
{
    std::vector<ColorRect> out;
    if (image.isNull())
        return out;
    const QImage cores = image.format() == QImage::Format_RGB32 ? image : image.convertToFormat(QImage::Format_RGB32);
    const int cols = cores.width();
    std::vector<Open> above, row; // each partitions [0, cols) into rectangles, in x order
    const auto close = [&out](const Open& o) { out.push_back({o.cores, o.color}); };
    for (int y = 0; y < cores.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(cores.constScanLine(y));
        row.clear();
        size_t a = 0;
        for (int x = 0; x < cols;) {
            while (a < above.size() && above[a].cores.left() < x)
                close(above[a++]);
            const QRgb color = line[x] | 0xff000000u;
            int end = x + 1;
            while (end < cols && (line[end] | 0xff000000u) == color)
                ++end;
            // The same run as the rectangle above (same columns, same colour) grows it down.
            if (a < above.size() && above[a].cores.left() == x && above[a].cores.right() == end - 1 &&
                above[a].color == color) {
                Open grown = above[a++];
                grown.cores.setBottom(y);
                row.push_back(grown);
            } else {
                row.push_back({QRect(x, y, end - x, 1), color});
            }
            x = end;
        }
        for (; a < above.size(); ++a)
            close(above[a]);
        std::swap(above, row);
    }
    for (const Open& o : above)
        close(o);
    std::stable_sort(out.begin(), out.end(), [](const ColorRect& l, const ColorRect& r) { return l.color < r.color; });
    return out;
}

} // namespace ws::views
