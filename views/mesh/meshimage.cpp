#include "views/mesh/meshimage.h"

#include "views/mesh/colorscale.h"
#include "views/mesh/meshoverlay.h"
#include "views/mesh/meshraster.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ws::views {

namespace {

size_t coreCount(const MeshSnapshot& s)
{
    return static_cast<size_t>(std::max(0, s.meshCols)) * static_cast<size_t>(std::max(0, s.meshRows));
}

template <typename T>
const std::vector<T>* deviceArray(const std::vector<std::vector<T>>& arrays, int device, size_t cores)
{
    if (device < 0 || static_cast<size_t>(device) >= arrays.size())
        return nullptr;
    const auto& a = arrays[static_cast<size_t>(device)];
    return a.size() == cores ? &a : nullptr;
}

void fillScale(QImage& image, const std::vector<float>* values, const ColorScale& scale, double range)
{
    const float inverse = static_cast<float>(range > 0 ? 1.0 / range : 1.0);
    const QRgb noData = scale.noDataColor().rgb();
    const int cols = image.width();
    bool runs = true; // the last row looked at for runs had long ones
    for (int y = 0; y < image.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        if (!values) {
            std::fill(line, line + cols, noData);
            continue;
        }
        const float* row = values->data() + static_cast<size_t>(y) * cols;
        // A run of one value (idle cores, a region's equal shares) takes its colour once: the colour is a function
        // of the value's bits alone. Where values change from core to core (SRAM occupancy) the test costs more
        // than it saves (1.5 -> 1.8 ms for a WSE-3 image), so rows go by the last row tried, one in 16 trying again.
        if (!runs && y % 16 != 0) {
            for (int x = 0; x < cols; ++x)
                line[x] = scale.map(row[x] * inverse);
            continue;
        }
        uint32_t lastBits = 0;
        QRgb lastColor = scale.map(0.0f * inverse);
        int changes = 0;
        for (int x = 0; x < cols; ++x) {
            uint32_t bits;
            std::memcpy(&bits, row + x, sizeof bits);
            if (bits != lastBits) {
                lastBits = bits;
                lastColor = scale.map(row[x] * inverse);
                ++changes;
            }
            line[x] = lastColor;
        }
        runs = changes * 4 < cols;
    }
}

} // namespace

bool hasCoreData(const MeshSnapshot& s, int device)
{
    const size_t cores = coreCount(s);
    return cores > 0 && device >= 0 && device < s.deviceCount && deviceArray(s.sramFraction, device, cores);
}

double meshLayerRange(const MeshSnapshot& s, MeshLayer layer)
{
    if (layer != MeshLayer::KvCache)
        return 1.0;
    float largest = 0;
    const size_t cores = coreCount(s);
    for (const auto& device : s.kvFraction)
        if (device.size() == cores)
            for (float v : device)
                largest = std::max(largest, v); // NaN compares false: skipped
    if (!(largest > 0))
        return 1.0;
    const double exponent = std::pow(10.0, std::floor(std::log10(double(largest))));
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (double(largest) <= step * exponent * (1 + 1e-9))
            return std::min(1.0, step * exponent);
    return 1.0;
}

namespace {

// `activity` is the Dataflow layer's overlay ([device][core]), from a frame or none.
// Into `image` when only it holds its pixels and it has the mesh's size (every pixel is written), else a new one.
QImage buildImage(const MeshSnapshot& s, const std::vector<std::vector<float>>& activity, int device, MeshLayer layer,
                  double range, QImage image = {})
{
    if (s.meshCols <= 0 || s.meshRows <= 0 || device < 0 || device >= s.deviceCount)
        return {};
    if (image.size() != QSize(s.meshCols, s.meshRows) || image.format() != QImage::Format_RGB32 || !image.isDetached())
        image = QImage(s.meshCols, s.meshRows, QImage::Format_RGB32);
    const size_t cores = coreCount(s);
    switch (layer) {
    case MeshLayer::SramOccupancy:
        fillScale(image, deviceArray(s.sramFraction, device, cores), ColorScale::sramOccupancy(), range);
        break;
    case MeshLayer::KvCache:
        fillScale(image, deviceArray(s.kvFraction, device, cores), ColorScale::kvCache(), range);
        break;
    case MeshLayer::Dataflow:
        fillScale(image, deviceArray(activity, device, cores), ColorScale::activity(), range);
        break;
    case MeshLayer::Links: // already 0..1 of the frame's overlayTop
        fillScale(image, deviceArray(activity, device, cores), ColorScale::linkWords(), 1.0);
        break;
    case MeshLayer::Values:
        fillScale(image, deviceArray(activity, device, cores), ColorScale::values(), 1.0);
        break;
    case MeshLayer::WeightPlacement: {
        // One colour per owner, looked up once.
        std::vector<QRgb> colors(s.owners.size());
        for (size_t i = 0; i < s.owners.size(); ++i)
            colors[i] = i == 0 ? PlacementPalette::emptyColor() : PlacementPalette::color(s.owners[i]);
        const auto* owner = deviceArray(s.owner, device, cores);
        for (int y = 0; y < s.meshRows; ++y) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
            for (int x = 0; x < s.meshCols; ++x) {
                const size_t o = owner ? (*owner)[static_cast<size_t>(y) * s.meshCols + x] : 0;
                line[x] = o < colors.size() ? colors[o] : PlacementPalette::emptyColor();
            }
        }
        break;
    }
    case MeshLayer::Defects: {
        const auto* state = deviceArray(s.coreState, device, cores);
        for (int y = 0; y < s.meshRows; ++y) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
            for (int x = 0; x < s.meshCols; ++x)
                line[x] =
                    coreStateColor(state ? (*state)[static_cast<size_t>(y) * s.meshCols + x] : CoreState::Healthy);
        }
        break;
    }
    }
    // Cores over their SRAM (a hand edit squeezed a region) in the warning colour on the layers of bytes.
    const auto* over = deviceArray(s.overflowBytes, device, cores);
    if (over && (layer == MeshLayer::SramOccupancy || layer == MeshLayer::WeightPlacement))
        for (int y = 0; y < s.meshRows; ++y) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
            for (int x = 0; x < s.meshCols; ++x)
                if ((*over)[static_cast<size_t>(y) * s.meshCols + x] > 0)
                    line[x] = overCapacityColor();
        }
    return image;
}

} // namespace

QRgb overCapacityColor()
{
    return qRgb(0xe6, 0x00, 0x7e); // magenta: outside both the SRAM scale and the placement palette's greys
}

QImage buildMeshImage(const MeshFrame& frame, int device, MeshLayer layer, double range)
{
    if (!frame.base)
        return {};
    return buildImage(*frame.base, frame.activity, device, layer, range);
}

QImage buildMeshImage(const MeshSnapshot& snapshot, int device, MeshLayer layer, double range)
{
    static const std::vector<std::vector<float>> noActivity;
    return buildImage(snapshot, noActivity, device, layer, range);
}

QString meshLayerName(MeshLayer layer)
{
    switch (layer) {
    case MeshLayer::SramOccupancy:
        return QCoreApplication::translate("ws::views::MeshLayer", "SRAM occupancy");
    case MeshLayer::WeightPlacement:
        return QCoreApplication::translate("ws::views::MeshLayer", "Weight placement");
    case MeshLayer::KvCache:
        return QCoreApplication::translate("ws::views::MeshLayer", "KV cache");
    case MeshLayer::Dataflow:
        return QCoreApplication::translate("ws::views::MeshLayer", "Dataflow");
    case MeshLayer::Defects:
        return QCoreApplication::translate("ws::views::MeshLayer", "Defects");
    case MeshLayer::Links:
        return QCoreApplication::translate("ws::views::MeshLayer", "Links");
    case MeshLayer::Values:
        return QCoreApplication::translate("ws::views::MeshLayer", "Values");
    }
    return {};
}

QString meshLayerDescription(MeshLayer layer)
{
    switch (layer) {
    case MeshLayer::SramOccupancy:
        return QCoreApplication::translate("ws::views::MeshLayer",
                                           "Bytes placed on each core (weights and KV cache) as a share of its SRAM.");
    case MeshLayer::WeightPlacement:
        return QCoreApplication::translate("ws::views::MeshLayer",
                                           "Which transformer layer and matrix each core holds: hue = layer, "
                                           "shade = matrix kind.");
    case MeshLayer::KvCache:
        return QCoreApplication::translate(
            "ws::views::MeshLayer", "KV cache bytes on each core at the chosen context, as a share of its SRAM.");
    case MeshLayer::Dataflow:
        return QCoreApplication::translate("ws::views::MeshLayer", "Per-core activity during the current token.");
    case MeshLayer::Defects:
        return QCoreApplication::translate("ws::views::MeshLayer", "Dead cores, spares in use and shifted cores.");
    case MeshLayer::Links:
        return QCoreApplication::translate("ws::views::MeshLayer",
                                           "Words each mesh link carried for one token, as the mesh engine executed "
                                           "one layer.");
    case MeshLayer::Values:
        return QCoreApplication::translate("ws::views::MeshLayer",
                                           "What each core computed for one token with the loaded model's weights: "
                                           "the signed sum of its partial products.");
    }
    return {};
}

QString formatBytes(double bytes)
{
    const QLocale locale;
    if (!std::isfinite(bytes) || bytes < 0)
        return QCoreApplication::translate("ws::views::Units", "n/a");
    if (bytes < 1024)
        return QCoreApplication::translate("ws::views::Units", "%1 B").arg(locale.toString(bytes, 'f', 0));
    if (bytes < 1024.0 * 1024)
        return QCoreApplication::translate("ws::views::Units", "%1 KiB").arg(locale.toString(bytes / 1024, 'f', 1));
    if (bytes < 1e9)
        return QCoreApplication::translate("ws::views::Units", "%1 MB").arg(locale.toString(bytes / 1e6, 'f', 1));
    return QCoreApplication::translate("ws::views::Units", "%1 GB").arg(locale.toString(bytes / 1e9, 'f', 1));
}

QSize reducedMeshSize(QSize size, double scale)
{
    return {std::max(1, static_cast<int>(std::lround(size.width() * scale))),
            std::max(1, static_cast<int>(std::lround(size.height() * scale)))};
}

QRgb meshBackground()
{
    return qRgb(0x0e, 0x10, 0x16);
}

PreparedMeshFrame prepareMeshFrame(std::shared_ptr<const MeshFrame> frame, int device, MeshLayer layer,
                                   const ViewTransform& transform, PreparedMeshFrame recycled)
{
    PreparedMeshFrame out;
    out.frame = std::move(frame);
    out.device = device;
    out.layer = layer;
    if (!out.frame || !out.frame->base)
        return out;
    out.range = meshLayerRange(*out.frame->base, layer);
    out.image = buildImage(*out.frame->base, out.frame->activity, device, layer, out.range, std::move(recycled.image));
    const double scale = transform.scale;
    if (scale > 0 && scale < 1 && !out.image.isNull()) {
        out.reduced = std::move(recycled.reduced); // written again where nobody else holds it
        reduceMesh(out.image, reducedMeshSize(out.image.size(), scale), out.reduced);
        out.reducedScale = scale;
    } else if (scale >= 1 && transform.isValid() && !out.image.isNull()) {
        const MeshOverlay overlay{*out.frame, transform, device, layer};
        if (recycled.raster.isDetached()) // rasterizeMesh writes into a target of the view's size
            out.raster = std::move(recycled.raster);
        if (transform.turned) {
            out.turned = std::move(recycled.turned); // written again where nobody else holds it
            turnMesh(out.image, out.turned);
        }
        rasterizeMesh(out.image, transform, meshBackground(), MeshOverlay::gridAlpha(scale), out.raster,
                      overlay.dieLines(), out.turned);
        out.rasterTransform = transform;
    }
    return out;
}

} // namespace ws::views
