#include "views/chat/chatpane.h"

#include "views/chat/chatstats.h"
#include "views/widgets/heightforwidthpage.h"
#include "views/widgets/verticalscroll.h"

#include <QApplication>
#include <QClipboard>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace ws::views {

namespace {
QString modeText(const SessionModelInfo& info)
{
    if (info.hasChatTemplate)
        return ChatPane::tr("chat template %1").arg(QString::fromStdString(info.templateName));
    if (info.unrenderedTemplate.empty())
        return ChatPane::tr("completion (base model)");
    return ChatPane::tr("completion: %1 template not supported").arg(QString::fromStdString(info.unrenderedTemplate));
}

} // namespace

ChatPane::ChatPane(QWidget* parent)
    : QDockWidget(parent), m_modelLabel(new QLabel), m_statusLabel(new QLabel), m_loaderInfo(new LoaderInfo),
      m_stack(new QStackedWidget), m_emptyText(new QLabel), m_messages(new ChatMessageList),
      m_settingsToggle(new QToolButton), m_settings(new ChatSettingsPanel), m_input(new QPlainTextEdit),
      m_sendButton(new QPushButton), m_stopButton(new QPushButton), m_regenerateButton(new QPushButton),
      m_copyButton(new QPushButton), m_clearButton(new QPushButton)
{
    setObjectName(QStringLiteral("chatPane"));
    setAcceptDrops(true);
    // Every text is set through `tx`, which runs it now and again on a language change.
    auto tx = [this](std::function<void()> setText) {
        setText();
        m_retranslate.push_back(std::move(setText));
    };
    tx([this] { setWindowTitle(tr("Chat")); });
    tx([this] { m_sendButton->setText(tr("Send")); });
    tx([this] { m_stopButton->setText(tr("Stop")); });
    tx([this] { m_regenerateButton->setText(tr("Regenerate")); });
    tx([this] { m_copyButton->setText(tr("Copy All")); });
    tx([this] { m_clearButton->setText(tr("Clear")); });

    // Header: the model, Open and Download.
    auto* openButton = new QToolButton;
    tx([openButton] { openButton->setText(tr("Open Model…")); });
    auto* downloadButton = new QToolButton;
    tx([downloadButton] { downloadButton->setText(tr("Download…")); });
    connect(openButton, &QToolButton::clicked, this, &ChatPane::openModelRequested);
    connect(downloadButton, &QToolButton::clicked, this, &ChatPane::downloadModelRequested);
    m_modelLabel->setWordWrap(true);
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setVisible(false);
    auto* header = new QHBoxLayout;
    header->addWidget(m_modelLabel, 1);
    for (QToolButton* b : {openButton, downloadButton})
        header->addWidget(b);

    // Empty state: how to get a model.
    m_emptyText->setWordWrap(true);
    m_emptyText->setTextFormat(Qt::RichText);
    m_emptyText->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    tx([this] {
        m_emptyText->setText(
            tr("<p><b>No model loaded.</b></p>"
               "<p>The chat runs a real language model on this computer's CPU and lights up the wafer token by "
               "token.</p>"
               "<p>To get one: open a GGUF file or a llama2.c checkpoint with <i>Model &gt; Open Model…</i> (or drop "
               "the file on this pane), or fetch one with <i>Model &gt; Download from URL…</i>.</p>"
               "<p>For a first try, Karpathy's stories260K (about 1 MB, tells short children's stories) is enough; "
               "small Llama or Qwen GGUF files chat with their chat template.</p>"));
    });
    auto* emptyOpen = new QPushButton;
    auto* emptyDownload = new QPushButton;
    tx([emptyOpen] { emptyOpen->setText(tr("Open Model…")); });
    tx([emptyDownload] { emptyDownload->setText(tr("Download from URL…")); });
    connect(emptyOpen, &QPushButton::clicked, this, &ChatPane::openModelRequested);
    connect(emptyDownload, &QPushButton::clicked, this, &ChatPane::downloadModelRequested);
    auto* emptyPage = new QWidget;
    auto* emptyLayout = new QVBoxLayout(emptyPage);
    emptyLayout->addWidget(m_emptyText);
    auto* emptyButtons = new QHBoxLayout;
    for (QPushButton* b : {emptyOpen, emptyDownload})
        emptyButtons->addWidget(b);
    emptyButtons->addStretch(1);
    emptyLayout->addLayout(emptyButtons);
    emptyLayout->addStretch(1);

    m_stack->addWidget(verticalScroll(emptyPage)); // the explanation scrolls when the dock is short
    m_stack->addWidget(m_messages);
    // Room for a conversation in a shared dock area, small enough that with the settings unfolded the chat
    // still fits a 768-pixel screen beside its labels (HeightForWidthPage counts their wrapped lines).
    m_stack->setMinimumHeight(fontMetrics().lineSpacing() * 7);

    // Settings, folded away by default.
    tx([this] { m_settingsToggle->setText(tr("Settings")); });
    m_settingsToggle->setCheckable(true);
    m_settingsToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_settingsToggle->setArrowType(Qt::RightArrow);
    // In a scroll area: unfolded, the settings never push the window past a laptop's screen.
    QScrollArea* settingsScroll = verticalScroll(m_settings);
    settingsScroll->setMinimumHeight(fontMetrics().lineSpacing() * 6);
    settingsScroll->setVisible(false);
    connect(m_settingsToggle, &QToolButton::toggled, this, [this, settingsScroll](bool on) {
        settingsScroll->setVisible(on);
        m_settingsToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(m_settings, &ChatSettingsPanel::settingsChanged, this, &ChatPane::settingsChanged);

    // Input and actions.
    tx([this] { m_input->setPlaceholderText(tr("Type a prompt and press Enter (Shift+Enter for a new line)")); });
    m_input->setMaximumHeight(m_input->fontMetrics().lineSpacing() * 5);
    m_input->setTabChangesFocus(true);
    m_input->installEventFilter(this);
    connect(m_input, &QPlainTextEdit::textChanged, this, &ChatPane::updateButtons);
    connect(m_sendButton, &QPushButton::clicked, this, [this] { send(); });
    connect(m_stopButton, &QPushButton::clicked, this, &ChatPane::stop);
    connect(m_regenerateButton, &QPushButton::clicked, this, &ChatPane::regenerate);
    connect(m_copyButton, &QPushButton::clicked, this, &ChatPane::copyTranscript);
    connect(m_clearButton, &QPushButton::clicked, this, &ChatPane::clear);
    m_sendButton->setDefault(true);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {m_sendButton, m_stopButton, m_regenerateButton})
        buttons->addWidget(b);
    buttons->addStretch(1);
    for (QPushButton* b : {m_copyButton, m_clearButton})
        buttons->addWidget(b);

    auto* body = new HeightForWidthPage; // never squeezed below what the wrapped labels need
    auto* layout = new QVBoxLayout(body);
    layout->addLayout(header);
    layout->addWidget(m_statusLabel);
    layout->addWidget(m_loaderInfo);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_settingsToggle, 0, Qt::AlignLeft);
    layout->addWidget(settingsScroll, 1); // shares the height with the conversation while unfolded
    layout->addWidget(m_input);
    layout->addLayout(buttons);
    setWidget(body);

    setModel(std::nullopt);
}

void ChatPane::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        for (const auto& setText : m_retranslate)
            setText();
        setModel(m_model);
    }
    QDockWidget::changeEvent(event);
}

void ChatPane::setModel(const std::optional<SessionModelInfo>& info)
{
    m_model = info;
    if (m_model) {
        const QString name = QString::fromStdString(m_model->displayName);
        const QString file = QFileInfo(QString::fromStdString(m_model->filePath)).fileName();
        const QString arch = QString::fromStdString(m_model->config.architecture);
        if (name.contains(file)) // the name names its file already (importedModelName)
            m_modelLabel->setText(
                tr("<b>%1</b> · %2 · %3")
                    .arg(name.toHtmlEscaped(), arch.toHtmlEscaped(), modeText(*m_model).toHtmlEscaped()));
        else
            m_modelLabel->setText(tr("<b>%1</b> (%2) · %3 · %4")
                                      .arg(name.toHtmlEscaped(), file.toHtmlEscaped(), arch.toHtmlEscaped(),
                                           modeText(*m_model).toHtmlEscaped()));
        m_modelLabel->setToolTip(QString::fromStdString(m_model->filePath));
    } else {
        m_modelLabel->setText(tr("<b>No model</b>"));
    }
    m_loaderInfo->setSummary(m_model ? std::optional(m_model->summary) : std::nullopt);
    m_settings->setTrainedContext(m_model ? int(m_model->config.contextLength) : 0);
    m_stack->setCurrentIndex(m_model || !m_messages->isEmpty() ? 1 : 0);
    updateButtons();
}

void ChatPane::addHeaderRow(QWidget* row)
{
    if (auto* layout = qobject_cast<QVBoxLayout*>(widget()->layout()))
        layout->insertWidget(1, row);
}

void ChatPane::setModelStatus(const QString& status)
{
    m_statusLabel->setText(status);
    m_statusLabel->setVisible(!status.isEmpty());
}

ChatMessageWidget* ChatPane::addMessage(ChatRole role, const QString& text)
{
    ChatMessageWidget* widget = m_messages->add(role, text);
    m_stack->setCurrentIndex(1);
    return widget;
}

void ChatPane::startAnswer()
{
    ChatMessageWidget* answer = addMessage(ChatRole::Assistant, QString());
    answer->setState(ChatMessageWidget::State::Streaming);
    setRunning(true);
    m_messages->scrollToEnd();
}

void ChatPane::send(const QString& prompt)
{
    const QString text = prompt.isEmpty() ? m_input->toPlainText().trimmed() : prompt;
    if (text.isEmpty() || m_running)
        return;
    if (prompt.isEmpty())
        m_input->clear();
    addMessage(ChatRole::User, text);
    startAnswer();
    emit sendRequested();
}

void ChatPane::stop()
{
    if (m_running)
        emit stopRequested();
}

void ChatPane::regenerate()
{
    while (!m_messages->isEmpty() && m_messages->last()->role() != ChatRole::User)
        m_messages->removeLast();
    if (m_messages->isEmpty())
        return;
    startAnswer();
    emit sendRequested();
}

void ChatPane::clear()
{
    if (m_running)
        emit stopRequested();
    while (!m_messages->isEmpty())
        m_messages->removeLast();
    setRunning(false);
    m_stack->setCurrentIndex(m_model ? 1 : 0);
    emit clearRequested();
}

void ChatPane::copyTranscript()
{
    QApplication::clipboard()->setText(transcript());
}

void ChatPane::setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot)
{
    ChatMessageWidget* answer = m_messages->streaming();
    if (!snapshot || !answer)
        return;
    answer->setText(QString::fromStdString(snapshot->text));
    answer->setStats(ChatStats::format(*snapshot));
    answer->setPromptProgress(snapshot->promptEvaluatedTokens,
                              ChatStats::readingPrompt(*snapshot) ? snapshot->promptTokensToEvaluate : 0);
    if (snapshot->state == TurnState::Finished)
        answer->setState(ChatMessageWidget::State::Done);
    else if (snapshot->state == TurnState::Stopped)
        answer->setState(ChatMessageWidget::State::Stopped);
    // TurnState::Failed: showError() follows with the message.
    if (snapshot->isFinal() && snapshot->state != TurnState::Failed)
        setRunning(false); // the list follows the growing answer while its end is in view
}

void ChatPane::showError(const QString& message)
{
    ChatMessageWidget* answer = m_messages->streaming();
    if (!answer)
        answer = addMessage(ChatRole::Assistant, QString());
    answer->setError(message);
    setRunning(false);
    m_messages->scrollToEnd();
}

void ChatPane::setRunning(bool running)
{
    if (!running) {
        // A turn that ends without a final snapshot (e.g. stopped before it
        // began) leaves no streaming message behind.
        if (ChatMessageWidget* answer = m_messages->streaming())
            answer->setState(ChatMessageWidget::State::Stopped);
    }
    m_running = running;
    updateButtons();
}

std::vector<TurnMessage> ChatPane::conversation() const
{
    std::vector<TurnMessage> messages;
    const ChatSettings s = m_settings->settings();
    if (!s.systemPrompt.empty())
        messages.push_back({ChatRole::System, s.systemPrompt});
    for (const ChatMessageWidget* m : m_messages->messages()) {
        if (m->state() == ChatMessageWidget::State::Error || m->state() == ChatMessageWidget::State::Streaming)
            continue;
        if (m->text().isEmpty())
            continue;
        messages.push_back({m->role(), m->text().toStdString()});
    }
    return messages;
}

QString ChatPane::transcript() const
{
    QStringList parts;
    for (const ChatMessageWidget* m : m_messages->messages()) {
        const QString who = m->role() == ChatRole::User ? tr("You") : tr("Model");
        parts << tr("%1: %2").arg(who, m->text());
    }
    return parts.join(QStringLiteral("\n\n"));
}

int ChatPane::messageCount() const
{
    return m_messages->count();
}

ChatMessageWidget* ChatPane::message(int index) const
{
    return m_messages->at(index);
}

void ChatPane::updateButtons()
{
    const bool hasModel = m_model.has_value();
    const bool hasUser = m_messages->hasUserMessage();
    m_sendButton->setEnabled(hasModel && !m_running && !m_input->toPlainText().trimmed().isEmpty());
    m_stopButton->setEnabled(m_running);
    m_regenerateButton->setEnabled(hasModel && hasUser);
    m_copyButton->setEnabled(!m_messages->isEmpty());
    m_clearButton->setEnabled(!m_messages->isEmpty());
}

bool ChatPane::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && !(key->modifiers() & Qt::ShiftModifier)) {
            if (m_sendButton->isEnabled())
                send();
            return true;
        }
    }
    return QDockWidget::eventFilter(watched, event);
}

QString ChatPane::droppedModelPath(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        const QString suffix = QFileInfo(path).suffix().toLower();
        if (suffix == QLatin1String("gguf") || suffix == QLatin1String("bin"))
            return path;
    }
    return {};
}

void ChatPane::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedModelPath(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void ChatPane::dropEvent(QDropEvent* event)
{
    const QString path = droppedModelPath(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    emit modelFileDropped(path);
}

} // namespace ws::views
