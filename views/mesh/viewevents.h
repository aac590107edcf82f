#pragma once
// The tooltip and language-change handling shared by the heatmap and the
// wafer strip: a ToolTip event shows textAt(position) (an empty text hides
// the tooltip) and is consumed; a LanguageChange repaints and goes on to the
// base class.

#include <QEvent>
#include <QHelpEvent>
#include <QString>
#include <QToolTip>
#include <QWidget>

namespace ws::views {

// True when `event` was consumed; otherwise the caller passes it to its base class.
template <class TextAt> bool handleToolTipEvent(QWidget* widget, QEvent* event, TextAt textAt)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = textAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, widget);
        return true;
    }
    if (event->type() == QEvent::LanguageChange)
        widget->update();
    return false;
}

} // namespace ws::views
