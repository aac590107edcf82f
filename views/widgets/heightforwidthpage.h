#pragma once
// A page whose minimum height is what its layout needs at the page's present width, word-wrapped labels
// included. QWidget's own minimum counts a wrapped label at its narrowest one-line guess, so a dock holding
// such a page (the chat: a loader summary and a status that wrap to several lines) was given too little
// height at 1366 x 768, and the rows below the labels were drawn over each other.

#include <QLayout>
#include <QResizeEvent>
#include <QWidget>

#include <algorithm>

namespace ws::views {

class HeightForWidthPage : public QWidget
{
public:
    using QWidget::QWidget;

    QSize minimumSizeHint() const override
    {
        QSize size = QWidget::minimumSizeHint();
        if (const QLayout* l = layout(); l && l->hasHeightForWidth())
            size.setHeight(std::max(size.height(), l->minimumHeightForWidth(width())));
        return size;
    }

protected:
    // The minimum depends on the width: a new width asks the parent's layout (the dock's) again.
    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        if (event->oldSize().width() != event->size().width())
            updateGeometry();
    }
};

} // namespace ws::views
