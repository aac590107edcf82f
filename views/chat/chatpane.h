#pragma once
// The chat pane: a dock widget with a multi-turn conversation with the loaded
// model. The answer streams in from session snapshots (setSnapshot), with a
// stats line per answer (tokens, speed on this CPU, predicted time on each
// compared system). It holds the transcript and the settings; the app turns
// them into a request when the pane asks (sendRequested) and feeds back
// snapshots, errors and the running state. Without a model it explains how
// to get one and offers Open and Download. A view: no file I/O, no threads
// (a dropped model file is only passed on as a path).

#include "engine/session/chatturn.h"
#include "engine/session/sessionmodel.h"
#include "engine/session/sessionsnapshot.h"
#include "views/chat/chatmessagelist.h"
#include "views/chat/chatmessagewidget.h"
#include "views/chat/chatsettingspanel.h"
#include "views/chat/loaderinfo.h"

#include <QDockWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QMimeData;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace ws::views {

class ChatPane : public QDockWidget
{
    Q_OBJECT
public:
    explicit ChatPane(QWidget* parent = nullptr);

    // The loaded model, or nullopt for none (shows how to get one).
    void setModel(const std::optional<SessionModelInfo>& info);
    // A model is being loaded (or downloaded): a line in the header.
    void setModelStatus(const QString& status);
    void setSystems(const std::vector<SystemPace>& systems) { m_settings->setSystems(systems); }
    // A row of the app's own under the header (e.g. what the wafer shows); the pane takes it.
    void addHeaderRow(QWidget* row);
    // The streaming answer: text and stats of the last assistant message.
    void setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot);
    // Ends the streaming answer with an error (or adds an error notice).
    void showError(const QString& message);
    void setRunning(bool running);
    bool isRunning() const { return m_running; }

    ChatSettings settings() const { return m_settings->settings(); }
    void setSettings(const ChatSettings& settings) { m_settings->setSettings(settings); }
    ChatSettingsPanel* settingsPanel() const { return m_settings; }
    const SystemPace* paceSystem() const { return m_settings->paceSystem(); }

    // The conversation to send: system prompt (when set), then every user
    // and assistant message with text, oldest first; errors and the empty
    // answer being started are left out.
    std::vector<TurnMessage> conversation() const;
    // The whole transcript as plain text ("You: ...\n\nModel: ...").
    QString transcript() const;
    int messageCount() const;
    ChatMessageWidget* message(int index) const;

    QPlainTextEdit* input() const { return m_input; }

public slots:
    // Sends the text in the input box (or `prompt` when given).
    void send(const QString& prompt = QString());
    void stop();
    void regenerate();
    void clear();
    void copyTranscript();

signals:
    void sendRequested(); // conversation() ends with the new user message
    void stopRequested();
    void clearRequested();
    void openModelRequested();
    void downloadModelRequested();
    void modelFileDropped(const QString& path);
    void settingsChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    ChatMessageWidget* addMessage(ChatRole role, const QString& text);
    void startAnswer();
    void updateButtons();
    static QString droppedModelPath(const QMimeData* mime);

    std::vector<std::function<void()>> m_retranslate; // text setters, run again on a language change
    std::optional<SessionModelInfo> m_model;
    bool m_running = false;
    QLabel* m_modelLabel;
    QLabel* m_statusLabel;
    LoaderInfo* m_loaderInfo;
    QStackedWidget* m_stack;
    QLabel* m_emptyText;
    ChatMessageList* m_messages;
    QToolButton* m_settingsToggle;
    ChatSettingsPanel* m_settings;
    QPlainTextEdit* m_input;
    QPushButton* m_sendButton;
    QPushButton* m_stopButton;
    QPushButton* m_regenerateButton;
    QPushButton* m_copyButton;
    QPushButton* m_clearButton;
};

} // namespace ws::views
