#include "views/chat/chatmessagewidget.h"

#include "views/chat/chattextview.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ws::views {

ChatMessageWidget::ChatMessageWidget(ChatRole role, const QString& text, QWidget* parent)
    : QFrame(parent), m_role(role), m_text(text), m_roleLabel(new QLabel(this)), m_textView(new ChatTextView(this)),
      m_statsLabel(new QLabel(this)), m_promptBar(new QProgressBar(this)), m_copyButton(new QToolButton(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_statsLabel->setWordWrap(true);
    m_statsLabel->setTextFormat(Qt::PlainText);
    QFont small = m_statsLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_statsLabel->setFont(small);
    m_statsLabel->setVisible(false);
    m_promptBar->setTextVisible(false);
    m_promptBar->setMaximumHeight(small.pointSizeF() > 0 ? int(small.pointSizeF()) : 8);
    m_promptBar->setVisible(false);
    m_copyButton->setAutoRaise(true);
    connect(m_copyButton, &QToolButton::clicked, this, [this] { emit copyRequested(m_text); });

    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_roleLabel);
    header->addStretch(1);
    header->addWidget(m_copyButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 6);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(m_textView);
    layout->addWidget(m_promptBar);
    layout->addWidget(m_statsLabel);

    QFont bold = m_roleLabel->font();
    bold.setBold(true);
    m_roleLabel->setFont(bold);
    updateLook();
}

QString ChatMessageWidget::stats() const
{
    return m_statsLabel->text();
}

void ChatMessageWidget::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    updateText();
}

void ChatMessageWidget::setStats(const QString& stats)
{
    m_statsLabel->setText(stats);
    m_statsLabel->setVisible(!stats.isEmpty());
}

void ChatMessageWidget::setPromptProgress(int evaluated, int total)
{
    if (total > 0) {
        m_promptBar->setRange(0, total);
        m_promptBar->setValue(std::clamp(evaluated, 0, total));
    }
    m_promptBar->setVisible(total > 0);
}

bool ChatMessageWidget::showsPromptProgress() const
{
    return !m_promptBar->isHidden();
}

int ChatMessageWidget::promptProgressValue() const
{
    return m_promptBar->value();
}

void ChatMessageWidget::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    updateLook();
}

void ChatMessageWidget::setError(const QString& message)
{
    m_error = message;
    m_state = State::Error;
    updateLook();
}

void ChatMessageWidget::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        updateLook();
    QFrame::changeEvent(event);
}

void ChatMessageWidget::updateText()
{
    QString shown = m_text;
    if (m_state == State::Error)
        shown = shown.isEmpty() ? m_error : shown + QStringLiteral("\n\n") + m_error;
    m_textView->setChatText(shown);
    m_copyButton->setEnabled(!m_text.isEmpty());
}

// Colours change only with the state, not with every streamed token
// (palette and style changes are far dearer than new text).
void ChatMessageWidget::updateLook()
{
    QPalette pal = palette();
    const QPalette base = QPalette();
    QColor background = base.color(QPalette::Base);
    if (m_role == ChatRole::User)
        background = base.color(QPalette::AlternateBase);
    if (m_state == State::Error)
        background = QColor(255, 228, 225);
    pal.setColor(QPalette::Window, background);
    setPalette(pal);
    QPalette textPal = m_textView->palette();
    textPal.setColor(QPalette::Text, m_state == State::Error ? QColor(164, 0, 0) : base.color(QPalette::Text));
    m_textView->setPalette(textPal);
    m_copyButton->setText(tr("Copy"));
    m_copyButton->setToolTip(tr("Copy this message to the clipboard"));
    switch (m_role) {
    case ChatRole::User:
        m_roleLabel->setText(tr("You"));
        break;
    case ChatRole::Assistant:
        m_roleLabel->setText(m_state == State::Streaming ? tr("Model (writing…)") : tr("Model"));
        break;
    case ChatRole::System:
        m_roleLabel->setText(tr("System"));
        break;
    }
    updateText();
}

} // namespace ws::views
