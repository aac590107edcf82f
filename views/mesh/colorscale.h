#pragma once
// Colour scales for the heatmap layers. A ColorScale maps a fraction 0..1 to
// a colour by linear interpolation between stops, through a 1,024-entry table
// so a full wafer (about 900,000 cores) is coloured with one lookup per core.
// Values outside 0..1 are clamped; NaN maps to the "no data" colour.
// PlacementPalette gives each owner (transformer layer and matrix kind) a
// colour: the hue walks the layers, the shade tells the matrix kind apart.

#include "engine/wafer/placement/meshsnapshot.h"

#include <QColor>
#include <QString>

#include <array>
#include <vector>

namespace ws::views {

struct ColorStop
{
    double position = 0; // 0..1
    QColor color;
};

class ColorScale
{
public:
    ColorScale() = default;
    // Stops must start at 0, end at 1 and increase.
    ColorScale(std::vector<ColorStop> stops, QColor noData);

    static ColorScale sramOccupancy(); // dark blue -> teal -> yellow, half of it over 80-100 %
    static ColorScale kvCache();       // dark purple -> magenta -> orange
    static ColorScale activity();      // dataflow: forward dark -> blue, compute orange -> yellow
    static ColorScale linkWords();     // links: dark -> green -> white
    static ColorScale values();        // values, diverging at 0.5: blue (negative) -> dark grey -> red (positive)

    QRgb map(float fraction) const
    {
        if (!(fraction == fraction)) // NaN
            return m_noData.rgb();
        const float f = fraction < 0.0f ? 0.0f : (fraction > 1.0f ? 1.0f : fraction);
        return m_table[static_cast<size_t>(f * 1023.0f + 0.5f)];
    }
    QColor colorAt(double fraction) const; // exact interpolation, no table
    QColor noDataColor() const { return m_noData; }
    const std::vector<ColorStop>& stops() const { return m_stops; }

private:
    std::vector<ColorStop> m_stops;
    QColor m_noData;
    std::array<QRgb, 1024> m_table{}; // fine enough for a scale's steep part (SRAM over 80-100 %)
};

// The matrix kinds a placement uses, in legend order.
enum class MatrixKind
{
    Attention,
    AttentionOutput,
    FfnUp,
    FfnDown,
    Embedding,
    LmHead,
    KvCache,
    Norm,
    Other
};

MatrixKind matrixKindOf(const std::string& tensorKind);

class PlacementPalette
{
public:
    static QRgb emptyColor();
    // Colour for an owner: hue from the layer index, lightness from the matrix kind.
    static QRgb color(const MeshOwner& owner);
    static QRgb color(int layerIndex, MatrixKind kind);
    // The speculative draft model's cores (MeshOwner::draft): one hue for the whole draft, shaded by kind.
    static constexpr int kDraftHue = 315;
    static QRgb draftColor(MatrixKind kind);
    // The hue (degrees) of a transformer layer; consecutive layers are far apart on the wheel.
    static int layerHue(int layerIndex);
};

// Fixed colours for the defects layer, one per CoreState.
QRgb coreStateColor(CoreState state);

} // namespace ws::views
