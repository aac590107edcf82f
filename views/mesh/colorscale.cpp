#include "views/mesh/colorscale.h"

#include <algorithm>
#include <cmath>

namespace ws::views {

ColorScale::ColorScale(std::vector<ColorStop> stops, QColor noData) : m_stops(std::move(stops)), m_noData(noData)
{
    for (size_t i = 0; i < m_table.size(); ++i)
        m_table[i] = colorAt(static_cast<double>(i) / (m_table.size() - 1)).rgb();
}

ColorScale ColorScale::sramOccupancy()
{
    // Half the colours spread over 80-100 %: a placement fills its cores to 90 % and more, and a scale even over
    // 0-100 % drew a whole wafer at 91-94 % as one yellow slab. Luminance still rises over the whole scale.
    return ColorScale({{0.0, QColor(0x15, 0x1b, 0x3a)},
                       {0.5, QColor(0x23, 0x4e, 0x8c)},
                       {0.8, QColor(0x1f, 0x9e, 0x9a)},
                       {0.9, QColor(0x7c, 0xd2, 0x5a)},
                       {1.0, QColor(0xfd, 0xe7, 0x25)}},
                      QColor(0x30, 0x30, 0x36));
}

ColorScale ColorScale::kvCache()
{
    return ColorScale({{0.0, QColor(0x14, 0x0e, 0x26)},
                       {0.33, QColor(0x5c, 0x1a, 0x7a)},
                       {0.66, QColor(0xd0, 0x3f, 0x70)},
                       {1.0, QColor(0xfc, 0xb0, 0x4a)}},
                      QColor(0x30, 0x30, 0x36));
}

ColorScale ColorScale::activity()
{
    // Two ramps (MeshSnapshot::activity): forwarding 0..0.5 dark -> blue, computing 0.5..1 orange -> yellow.
    // The glow of an earlier event is a lower value on its ramp; luminance still rises over the whole scale.
    return ColorScale({{0.0, QColor(0x10, 0x14, 0x1c)},
                       {0.499, QColor(0x2a, 0x7f, 0xd0)},
                       {0.501, QColor(0xd7, 0x64, 0x1e)},
                       {1.0, QColor(0xff, 0xe0, 0x5a)}},
                      QColor(0x30, 0x30, 0x36));
}

ColorScale ColorScale::linkWords()
{
    return ColorScale({{0.0, QColor(0x10, 0x14, 0x1c)},
                       {0.35, QColor(0x1b, 0x6e, 0x4a)},
                       {0.75, QColor(0x6c, 0xd0, 0x7a)},
                       {1.0, QColor(0xf2, 0xff, 0xe8)}},
                      QColor(0x30, 0x30, 0x36));
}

ColorScale ColorScale::values()
{
    // Diverging around zero (0.5): equal luminance steps on both sides, zero near the background.
    return ColorScale(
        {{0.0, QColor(0x3b, 0x8e, 0xff)}, {0.5, QColor(0x24, 0x26, 0x2e)}, {1.0, QColor(0xff, 0x5a, 0x3c)}},
        QColor(0x14, 0x15, 0x19));
}

QColor ColorScale::colorAt(double fraction) const
{
    if (std::isnan(fraction) || m_stops.empty())
        return m_noData;
    const double f = std::clamp(fraction, 0.0, 1.0);
    auto hi = std::lower_bound(m_stops.begin(), m_stops.end(), f,
                               [](const ColorStop& s, double v) { return s.position < v; });
    if (hi == m_stops.begin())
        return hi->color;
    if (hi == m_stops.end())
        return m_stops.back().color;
    const auto lo = hi - 1;
    const double t = (f - lo->position) / std::max(1e-12, hi->position - lo->position);
    auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return QColor(mix(lo->color.red(), hi->color.red()), mix(lo->color.green(), hi->color.green()),
                  mix(lo->color.blue(), hi->color.blue()));
}

MatrixKind matrixKindOf(const std::string& k)
{
    auto has = [&k](const char* s) { return k.find(s) != std::string::npos; };
    if (k == "kv" || has("kv_cache") || has("cache"))
        return MatrixKind::KvCache;
    if (has("attn_o") || has("attn_output"))
        return MatrixKind::AttentionOutput;
    if (has("norm"))
        return MatrixKind::Norm;
    if (has("attn"))
        return MatrixKind::Attention;
    if (has("ffn_down") || has("down"))
        return MatrixKind::FfnDown;
    if (has("ffn") || has("up") || has("gate") || has("expert"))
        return MatrixKind::FfnUp;
    if (has("embd") || has("embed"))
        return MatrixKind::Embedding;
    if (k == "output" || has("lm_head"))
        return MatrixKind::LmHead;
    return MatrixKind::Other;
}

QRgb PlacementPalette::emptyColor()
{
    return qRgb(0x2a, 0x2c, 0x33);
}

int PlacementPalette::layerHue(int layerIndex)
{
    // Golden-angle steps: neighbouring layers get clearly different hues.
    return static_cast<int>(std::lround(std::fmod(std::max(0, layerIndex) * 137.508, 360.0)));
}

QRgb PlacementPalette::color(int layerIndex, MatrixKind kind)
{
    switch (kind) {
    case MatrixKind::Embedding:
        return qRgb(0xe8, 0xe8, 0xe8);
    case MatrixKind::LmHead:
        return qRgb(0xb0, 0xb4, 0xbc);
    case MatrixKind::Other:
        return qRgb(0x80, 0x80, 0x88);
    default:
        break;
    }
    // Lightness (HSL, 0..255) per kind: attention light, FFN mid, down darker, KV darkest.
    int lightness = 128;
    int saturation = 170;
    switch (kind) {
    case MatrixKind::Attention:
        lightness = 176;
        break;
    case MatrixKind::AttentionOutput:
        lightness = 150;
        break;
    case MatrixKind::FfnUp:
        lightness = 118;
        break;
    case MatrixKind::FfnDown:
        lightness = 88;
        break;
    case MatrixKind::KvCache:
        lightness = 60;
        saturation = 120;
        break;
    case MatrixKind::Norm:
        lightness = 200;
        saturation = 90;
        break;
    default:
        break;
    }
    return QColor::fromHsl(layerHue(layerIndex), saturation, lightness).rgb();
}

QRgb PlacementPalette::draftColor(MatrixKind kind)
{
    // Every draft core in one magenta, fully saturated (layer hues use 170), lightness by kind as for a layer.
    const QColor layerShade(color(0, kind));
    return QColor::fromHsl(kDraftHue, 255, std::clamp(layerShade.lightness(), 70, 200)).rgb();
}

QRgb PlacementPalette::color(const MeshOwner& owner)
{
    if (owner.draft)
        return draftColor(matrixKindOf(owner.tensorKind));
    return color(owner.layerIndex, matrixKindOf(owner.tensorKind));
}

QRgb coreStateColor(CoreState state)
{
    switch (state) {
    case CoreState::Healthy:
        return qRgb(0x2e, 0x5e, 0x3e);
    case CoreState::Reserved:
        return qRgb(0x3a, 0x3c, 0x44);
    case CoreState::Dead:
        return qRgb(0xe5, 0x39, 0x35);
    case CoreState::SpareUsed:
        return qRgb(0xff, 0xb3, 0x00);
    case CoreState::SpareIdle:
        return qRgb(0x5c, 0x6b, 0x7a);
    case CoreState::Shifted:
        return qRgb(0x4f, 0xc3, 0xf7);
    }
    return qRgb(0, 0, 0);
}

} // namespace ws::views
