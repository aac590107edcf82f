// The chat's model file truncated on disk while a turn decodes, both ways the chat can hold a model's
// weights ("Model weights" in the chat settings):
// - read into memory (the default, MappedFile's resident copy): the turn runs to its end with exactly the
//   text a turn on the intact file gives;
// - mapped from the file (the MappedFile guard): the turn ends with the error in the chat pane, the window
//   stays up, and a model opened next chats as usual.
// The window runs in a child process (this test binary again, one function), so a SIGBUS would kill only
// the child and show as a failure here.
#include "app/session/chatcontroller.h"
#include "app/session/runcontroller.h"
#include "tests/common/modelcopy.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatmessagewidget.h"
#include "views/chat/chatpane.h"

#include <QApplication>
#include <QFile>
#include <QMainWindow>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

class TestChatFaults : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void truncatedModelMidTurnInChild_data()
    {
        QTest::addColumn<QString>("weights");
        QTest::newRow("read into memory") << QStringLiteral("resident");
        QTest::newRow("mapped from the file") << QStringLiteral("mapped");
    }
    void truncatedModelMidTurnInChild()
    {
        QFETCH(QString, weights);
        WS_REQUIRE_MODEL(source, "stories260K/stories260K.gguf");
        QTemporaryDir dir;
        const QString copy = wstest::writableCopy(source_q, dir, QStringLiteral("stories260K.gguf"));
        QVERIFY(!copy.isEmpty());
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("WS_CHATFAULTS_MODEL"), copy);
        env.insert(QStringLiteral("WS_CHATFAULTS_WEIGHTS"), weights);
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("truncatedModelMidTurn")});
        QVERIFY(child.waitForFinished(180000));
        const QByteArray out = child.readAll();
        QVERIFY2(child.exitStatus() == QProcess::NormalExit, out.constData()); // no SIGBUS
        QVERIFY2(child.exitCode() == 0, out.constData());
        QVERIFY2(out.contains("PASS   : TestChatFaultsChild::truncatedModelMidTurn()"), out.constData());
    }
};

// The child's test: main runs it instead of TestChatFaults when WS_CHATFAULTS_MODEL names the copy to cut
// (so the parent's run has no function that only skips there).
class TestChatFaultsChild : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void truncatedModelMidTurn()
    {
        const QString copy = qEnvironmentVariable("WS_CHATFAULTS_MODEL");
        QVERIFY(!copy.isEmpty());
        QMainWindow window;
        ws::ChatController chat(&window);
        window.addDockWidget(Qt::RightDockWidgetArea, chat.pane());
        window.show();
        const bool mapped = qEnvironmentVariable("WS_CHATFAULTS_WEIGHTS") == QStringLiteral("mapped");
        // A slow pace (20 tokens/s) keeps the turn running well past the cut.
        chat.setSystems({ws::SystemPace{"slow", "Slow system", 20.0, 0.0}});
        ws::views::ChatSettings settings = chat.pane()->settings();
        settings.mode = ws::PromptMode::Completion;
        settings.maxTokens = mapped ? 400 : 40;
        settings.sampling.temperature = 0;
        settings.paceSystemId = "slow";
        settings.mapWeights = mapped;
        chat.pane()->setSettings(settings);
        QSignalSpy modelChanged(&chat, &ws::ChatController::modelChanged);
        chat.openModelFile(copy);
        QVERIFY(modelChanged.wait(30000));
        QVERIFY(chat.pane()->paceSystem());

        QSignalSpy snapshots(chat.runController(), &ws::RunController::snapshotReady);
        QSignalSpy failed(chat.runController(), &ws::RunController::runFailed);
        QSignalSpy finished(chat.runController(), &ws::RunController::runFinished);
        chat.pane()->send(QStringLiteral("Once upon a time"));
        QVERIFY(snapshots.wait(30000)); // the turn is under way
        QCOMPARE(::truncate(copy.toLocal8Bit().constData(), 1024), 0);
        QString cutText;
        if (mapped) {
            QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 60000);
            QCOMPARE(finished.count(), 0);
            const QString message = failed.at(0).at(1).toString();
            QVERIFY2(message.contains(QStringLiteral("truncated")), qPrintable(message));
            QCOMPARE(chat.pane()->message(1)->state(), ws::views::ChatMessageWidget::State::Error);
        } else {
            QVERIFY(finished.wait(60000));
            QCOMPARE(failed.count(), 0);
            QCOMPARE(chat.pane()->message(1)->state(), ws::views::ChatMessageWidget::State::Done);
            cutText = chat.pane()->message(1)->text();
            QVERIFY(!cutText.isEmpty());
        }
        QCOMPARE(chat.pane()->messageCount(), 2);
        QVERIFY(window.isVisible());

        // The window stays usable: the intact model opens and the same turn, unpaced, runs to its end (with
        // the text the cut file gave, where it was read into memory).
        WS_REQUIRE_MODEL(intact, "stories260K/stories260K.gguf");
        modelChanged.clear();
        chat.openModelFile(intact_q);
        QVERIFY(modelChanged.wait(30000));
        settings.maxTokens = 40;
        settings.paceSystemId.clear();
        chat.pane()->setSettings(settings);
        chat.pane()->clear();
        finished.clear();
        chat.pane()->send(QStringLiteral("Once upon a time"));
        QVERIFY(finished.wait(30000));
        QCOMPARE(chat.pane()->message(1)->state(), ws::views::ChatMessageWidget::State::Done);
        QVERIFY(!chat.pane()->message(1)->text().isEmpty());
        if (!mapped)
            QCOMPARE(chat.pane()->message(1)->text(), cutText);
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true); // as QTEST_MAIN
    if (!qEnvironmentVariableIsEmpty("WS_CHATFAULTS_MODEL")) {
        TestChatFaultsChild child;
        return QTest::qExec(&child, argc, argv);
    }
    TestChatFaults test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_chatfaults.moc"
