#include "engine/decode/turnend.h"

#include <QTest>

using ws::TurnEnd;

Q_DECLARE_METATYPE(TurnEnd)

class TestTurnEnd : public QObject
{
    Q_OBJECT
private slots:
    // The names are the stop_reason strings of `waferscope-cli generate --json`: scripts read them.
    void namesAreTheJsonStopReasons_data()
    {
        QTest::addColumn<TurnEnd>("end");
        QTest::addColumn<QString>("name");
        QTest::newRow("not ended") << TurnEnd::None << "none";
        QTest::newRow("end of generation") << TurnEnd::EndOfGeneration << "end_of_generation";
        QTest::newRow("stop string") << TurnEnd::StopString << "stop_string";
        QTest::newRow("token limit") << TurnEnd::TokenLimit << "max_tokens";
        QTest::newRow("context full") << TurnEnd::ContextFull << "context_full";
        QTest::newRow("stopped") << TurnEnd::Stopped << "cancelled";
        QTest::newRow("error") << TurnEnd::Error << "error";
    }
    void namesAreTheJsonStopReasons()
    {
        QFETCH(TurnEnd, end);
        QFETCH(QString, name);
        QCOMPARE(QString::fromLatin1(ws::turnEndName(end)), name);
    }
};

QTEST_GUILESS_MAIN(TestTurnEnd)
#include "tst_turnend.moc"
