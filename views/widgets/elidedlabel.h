#pragma once
// A one-line label that takes the room its layout gives it and, where that is too narrow for its text, ends the
// text with "…" at the last character that fits instead of clipping it mid-letter (its owner puts the whole text
// in its tooltip). It never widens its row, and without word wrap its height does not depend on its width, so a
// label updated every frame costs no second layout pass. Given a Preferred width policy instead, it asks for its
// whole text's width and shrinks, eliding, down to the width of "…" (a status beside a stretching neighbour).

#include <QLabel>
#include <QPainter>
#include <QStyle>

namespace ws::views {

class ElidedLabel : public QLabel
{
public:
    explicit ElidedLabel(QWidget* parent = nullptr) : QLabel(parent)
    {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }

    QSize minimumSizeHint() const override
    {
        const QMargins m = contentsMargins();
        return {fontMetrics().horizontalAdvance(QStringLiteral("\u2026")) + m.left() + m.right(),
                QLabel::minimumSizeHint().height()};
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        const QRect r = contentsRect();
        const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, r.width());
        style()->drawItemText(&p, r, int(alignment()), palette(), isEnabled(), shown, foregroundRole());
    }
};

} // namespace ws::views
