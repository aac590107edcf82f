#include "app/window/theme.h"

#include "views/mesh/meshbands.h"

#include <QApplication>
#include <QMainWindow>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QPixmapCache>
#include <QStyleFactory>
#include <QStyleOption>

namespace ws {

AppStyle::AppStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}

void AppStyle::drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                           const QWidget* widget) const
{
    const auto* bar = qstyleoption_cast<const QStyleOptionToolBar*>(option);
    // Fusion draws the background of a main window's toolbars only (and nothing for the others).
    if (element != CE_ToolBar || !bar || option->rect.isEmpty() || !widget ||
        !qobject_cast<const QMainWindow*>(widget->parentWidget()) || !painter->device() ||
        option->palette.window().style() != Qt::SolidPattern)
        return QProxyStyle::drawControl(element, option, painter, widget);
    const qreal ratio = painter->device()->devicePixelRatioF();
    const QString key = QStringLiteral("ws-toolbar-%1x%2@%3-%4-%5-%6-%7-%8-%9-%10-%11-%12")
                            .arg(option->rect.width())
                            .arg(option->rect.height())
                            .arg(ratio)
                            .arg(int(option->state))
                            .arg(int(bar->toolBarArea))
                            .arg(int(bar->positionOfLine))
                            .arg(int(bar->positionWithinLine))
                            .arg(int(bar->features))
                            .arg(bar->lineWidth)
                            .arg(bar->midLineWidth)
                            .arg(int(option->direction))
                            .arg(option->palette.window().color().rgba()); // what Fusion draws it from
    QPixmap pixmap;
    if (!QPixmapCache::find(key, &pixmap)) {
        pixmap = QPixmap((QSizeF(option->rect.size()) * ratio).toSize());
        pixmap.setDevicePixelRatio(ratio);
        pixmap.fill(Qt::transparent);
        QStyleOptionToolBar local = *bar;
        local.rect = QRect(QPoint(0, 0), option->rect.size());
        // Drawn a band of rows at a time: Qt's raster engine hands a fill of 96 rows or more to its thread pool
        // (views/mesh/meshbands.h), and Present mode's caption bar (100 rows or more, a new height with each
        // caption's wrap) waited up to 11.7 ms for the pool to fill its gradient, with 2.7 ms of CPU.
        QPainter p(&pixmap);
        for (int top = 0; top < local.rect.height(); top += views::kBandRows) {
            p.setClipRect(QRect(0, top, local.rect.width(), views::kBandRows));
            QProxyStyle::drawControl(element, &local, &p, widget);
        }
        p.end();
        QPixmapCache::insert(key, pixmap);
    }
    painter->drawPixmap(option->rect.topLeft(), pixmap);
}

void applyTheme(QApplication& app)
{
    app.setStyle(new AppStyle); // the application owns it
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
