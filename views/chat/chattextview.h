#pragma once
// The text of one chat message: read-only, selectable, word-wrapped, exactly
// as tall as its text. Streaming text is appended at the end of the document,
// so only the last paragraph is laid out again per update (a QLabel lays out
// the whole text several times per change, which costs the GUI thread
// milliseconds per snapshot on long answers).

#include <QTextEdit>

namespace ws::views {

class ChatTextView : public QTextEdit
{
    Q_OBJECT
public:
    explicit ChatTextView(QWidget* parent = nullptr);

    // Appends when `text` extends the current text, else replaces it.
    void setChatText(const QString& text);
    const QString& chatText() const { return m_text; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    void fitHeight();

    QString m_text;
};

} // namespace ws::views
