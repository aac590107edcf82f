#pragma once
// The application's look: Qt's Fusion style with a dark palette that matches
// the heatmap's background, so the wafer stands out (the app is used for demos).

#include <QProxyStyle>

class QApplication;

namespace ws {

// Fusion, with a main window toolbar's background drawn from a pixmap made once per size and state by Fusion itself
// (the same pixels). Fusion strokes that background's light and dark lines with translucent pens, which Qt's raster
// engine draws a pixel per span and hands to its thread pool in batches: each toolbar's paint took 0.5-2.7 ms on a
// 2-core VM, most of it waiting for the pool, every time the window was laid out again (leaving Present mode).
class AppStyle : public QProxyStyle
{
public:
    AppStyle();
    void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget = nullptr) const override;
};

void applyTheme(QApplication& app);

} // namespace ws
