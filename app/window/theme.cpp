#include "app/window/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyleFactory>

namespace ws {

void applyTheme(QApplication& app)
{
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p;
    const QColor window(0x1e, 0x21, 0x2a);
    const QColor base(0x16, 0x18, 0x20);
    const QColor text(0xe4, 0xe7, 0xee);
    const QColor accent(0x2f, 0x9b, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(0x2a, 0x2e, 0x3a));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x90, 0x9c));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x2a, 0x2e, 0x3a));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x4f, 0xc3, 0xf7));
    p.setColor(QPalette::Light, QColor(0x3a, 0x3f, 0x4c));
    p.setColor(QPalette::Midlight, QColor(0x30, 0x34, 0x40));
    p.setColor(QPalette::Mid, QColor(0x25, 0x28, 0x32));
    p.setColor(QPalette::Dark, QColor(0x12, 0x14, 0x1a));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x70, 0x75, 0x80));
    app.setPalette(p);
    app.setStyleSheet(QStringLiteral("QToolTip { border: 1px solid #3a3f4c; padding: 4px; }"
                                     "QStatusBar QLabel { padding: 0 8px; }"));
}

} // namespace ws
