#pragma once
// The chat pane's conversation: the message bubbles oldest first in a
// scroll area, the streaming answer last. It keeps the bubbles and scrolls
// (following the end while the user has not scrolled up);
// what a message means for the next turn is the pane's to say.

#include "engine/session/chatturn.h"
#include "views/chat/chatmessagewidget.h"

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

    // Scrolls to the end and follows it again (a new turn).
    void scrollToEnd();

private:
    // Whether the view shows the end. While it does, it follows the end as messages grow (the range grows
    // once the layout has taken the new text in); scrolled up by the user, it stays where they are reading.
    bool isAtEnd() const;

    QWidget* m_host;
    bool m_follow = true;
    QVBoxLayout* m_layout;
    std::vector<ChatMessageWidget*> m_messages;
};

} // namespace ws::views
