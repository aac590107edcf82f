#pragma once
// A page in a frameless scroll area that scrolls only up and down, so a text or a form in a short dock is
// never cut off and never pushes the window past the screen.

#include <QScrollArea>

namespace ws::views {

inline QScrollArea* verticalScroll(QWidget* page)
{
    auto* scroll = new QScrollArea;
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(page);
    return scroll;
}

} // namespace ws::views
