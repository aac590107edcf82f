#include "views/chat/chatmessagelist.h"

#include <QApplication>
#include <QClipboard>
#include <QScrollBar>
#include <QVBoxLayout>

namespace ws::views {

ChatMessageList::ChatMessageList(QWidget* parent)
    : QScrollArea(parent), m_host(new QWidget), m_layout(new QVBoxLayout(m_host))
{
    m_layout->setContentsMargins(4, 4, 4, 4);
    m_layout->setSpacing(6);
    m_layout->addStretch(1);
    setWidget(m_host);
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QScrollBar* bar = verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_follow)
            bar->setValue(maximum);
    });
    connect(bar, &QScrollBar::valueChanged, this, [this] { m_follow = isAtEnd(); });
}

ChatMessageWidget* ChatMessageList::add(ChatRole role, const QString& text)
{
    auto* widget = new ChatMessageWidget(role, text, m_host);
    connect(widget, &ChatMessageWidget::copyRequested, this,
            [](const QString& t) { QApplication::clipboard()->setText(t); });
    m_layout->insertWidget(m_layout->count() - 1, widget); // before the stretch
    m_messages.push_back(widget);
    return widget;
}

void ChatMessageList::removeLast()
{
    if (m_messages.empty())
        return;
    ChatMessageWidget* last = m_messages.back();
    m_messages.pop_back();
    m_layout->removeWidget(last);
    last->deleteLater();
}

ChatMessageWidget* ChatMessageList::streaming() const
{
    if (m_messages.empty() || m_messages.back()->state() != ChatMessageWidget::State::Streaming)
        return nullptr;
    return m_messages.back();
}

ChatMessageWidget* ChatMessageList::at(int index) const
{
    return index >= 0 && index < count() ? m_messages[size_t(index)] : nullptr;
}

bool ChatMessageList::hasUserMessage() const
{
    for (const ChatMessageWidget* m : m_messages)
        if (m->role() == ChatRole::User)
            return true;
    return false;
}

bool ChatMessageList::isAtEnd() const
{
    const QScrollBar* bar = verticalScrollBar();
    return bar->value() >= bar->maximum() - 4;
}

void ChatMessageList::scrollToEnd()
{
    m_follow = true;
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

} // namespace ws::views
