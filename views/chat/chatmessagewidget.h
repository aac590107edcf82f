#pragma once
// One message in the chat pane: who said it, the text (selectable, growing
// while the answer streams), a stats line and a copy button.

#include "engine/session/chatturn.h"

#include <QFrame>
#include <QString>

class QLabel;
class QProgressBar;
class QToolButton;

namespace ws::views {
class ChatTextView;
}

namespace ws::views {

class ChatMessageWidget : public QFrame
{
    Q_OBJECT
public:
    enum class State
    {
        Done,
        Streaming,
        Stopped,
        Error
    };

    ChatMessageWidget(ChatRole role, const QString& text, QWidget* parent = nullptr);

    ChatRole role() const { return m_role; }
    State state() const { return m_state; }
    QString text() const { return m_text; }
    QString stats() const;

    void setText(const QString& text);
    void setStats(const QString& stats);
    // While the model reads the prompt: a bar of `evaluated` of `total` prompt tokens (total 0 hides it).
    void setPromptProgress(int evaluated, int total);
    bool showsPromptProgress() const;
    int promptProgressValue() const;
    void setState(State state);
    // Error messages show the message instead of (or after) the text.
    void setError(const QString& message);

signals:
    void copyRequested(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateLook();
    void updateText();

    ChatRole m_role;
    State m_state = State::Done;
    QString m_text;
    QString m_error;
    QLabel* m_roleLabel;
    ChatTextView* m_textView;
    QLabel* m_statsLabel;
    QProgressBar* m_promptBar;
    QToolButton* m_copyButton;
};

} // namespace ws::views
