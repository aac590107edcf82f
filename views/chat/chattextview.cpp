#include "views/chat/chattextview.h"

#include <QAbstractTextDocumentLayout>
#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>

#include <cmath>

namespace ws::views {

ChatTextView::ChatTextView(QWidget* parent) : QTextEdit(parent)
{
    setReadOnly(true);
    setAcceptRichText(false);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setLineWrapMode(QTextEdit::WidgetWidth);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    viewport()->setAutoFillBackground(false);
    document()->setDocumentMargin(0);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &ChatTextView::fitHeight);
    fitHeight();
}

void ChatTextView::setChatText(const QString& text)
{
    if (text == m_text)
        return;
    if (!m_text.isEmpty() && text.startsWith(m_text)) {
        QTextCursor cursor(document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(text.mid(m_text.size()));
    } else {
        setPlainText(text);
    }
    m_text = text;
}

void ChatTextView::fitHeight()
{
    const int height = int(std::ceil(document()->size().height())) + 2 * frameWidth();
    if (height != this->height())
        setFixedHeight(std::max(height, fontMetrics().height()));
}

QSize ChatTextView::sizeHint() const
{
    return QSize(QTextEdit::sizeHint().width(), height());
}

QSize ChatTextView::minimumSizeHint() const
{
    return QSize(50, height());
}

} // namespace ws::views
