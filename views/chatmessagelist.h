#pragma once
// The chat pane's conversation: the message bubbles oldest first in a
// scroll area, the streaming answer last. It keeps the bubbles and scrolls;
// what a message means for the next turn is the pane's to say.

#include "engine/session/chatturn.h"
#include "views/chatmessagewidget.h"

#include <QScrollArea>

#include <vector>

class QVBoxLayout;

namespace ws::views {

class ChatMessageList : public QScrollArea
{
    Q_OBJECT
public:
    explicit ChatMessageList(QWidget* parent = nullptr);

    ChatMessageWidget* add(ChatRole role, const QString& text);
    void removeLast();
    // The last message while it streams, else null.
    ChatMessageWidget* streaming() const;
    int count() const { return int(m_messages.size()); }
    bool isEmpty() const { return m_messages.empty(); }
    ChatMessageWidget* at(int index) const;
    ChatMessageWidget* last() const { return m_messages.empty() ? nullptr : m_messages.back(); }
    bool hasUserMessage() const;
    const std::vector<ChatMessageWidget*>& messages() const { return m_messages; }

    // Whether the view shows the end (then new text should keep it there).
    bool isAtEnd() const;
    // Scrolls to the end once the layout has taken new text into account.
    void scrollToEnd();

private:
    QWidget* m_host;
    QVBoxLayout* m_layout;
    std::vector<ChatMessageWidget*> m_messages;
};

} // namespace ws::views
