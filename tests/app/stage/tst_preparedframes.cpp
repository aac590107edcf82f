// PreparedFrames: a moving stream of frames has its images made off the GUI thread and lands on stage as a
// prepared frame; frames that arrive while one is made are coalesced to the newest; a frame put in the view
// by someone else meanwhile wins over the one being made; cancel drops what is in flight.
#include "app/stage/preparedframes.h"
#include "tests/app/stage/stagefixture.h"

#include <QSignalSpy>
#include <QTest>

#include <tuple>

using namespace ws;

namespace {

// A one-wafer scene on the Dataflow layer, and the frames for it.
struct Moving : wstest::StageFixture
{
    PreparedFrames frames{&stage, Stage::FrameSource::Dataflow};
    QSignalSpy shown{&frames, &PreparedFrames::shown};

    Moving()
    {
        stage.showResult(wstest::resultWith(1));
        stage.setLayer(MeshLayer::Dataflow);
    }
};

} // namespace

class TestPreparedFrames : public QObject
{
    Q_OBJECT

private slots:
    void aFrameLandsOnStageMade()
    {
        Moving m;
        auto [stage, frames, shown] = std::tie(m.stage, m.frames, m.shown);
        const auto frame = m.frame();
        frames.submit(frame);
        QVERIFY(frames.isBusy());
        QVERIFY(stage.view()->frame() != frame); // not on stage before its image is made
        QVERIFY(shown.wait(5000));
        QCOMPARE(stage.view()->frame(), frame);
        QCOMPARE(stage.frameSource(), Stage::FrameSource::Dataflow);
        QVERIFY(!frames.isBusy());
    }

    void framesWaitingAreCoalescedToTheNewest()
    {
        Moving m;
        auto [stage, frames, shown] = std::tie(m.stage, m.frames, m.shown);
        const auto first = m.frame(), second = m.frame(), third = m.frame();
        frames.submit(first); // being made
        frames.submit(second);
        frames.submit(third); // replaces `second`, which never shows
        QTRY_COMPARE_WITH_TIMEOUT(stage.view()->frame(), third, 5000);
        QCOMPARE(shown.count(), 2);
        QCOMPARE(shown.at(0).at(0).value<std::shared_ptr<const MeshFrame>>(), first);
    }

    void anotherWriterWins()
    {
        Moving m;
        auto [stage, frames, shown] = std::tie(m.stage, m.frames, m.shown);
        frames.submit(m.frame());
        const auto chat = m.frame();
        stage.showFrame(Stage::FrameSource::Chat, chat); // the chat's wafer writes while the image is made
        QTRY_VERIFY_WITH_TIMEOUT(!frames.isBusy(), 5000);
        QTest::qWait(50);
        QCOMPARE(stage.view()->frame(), chat);
        QCOMPARE(stage.frameSource(), Stage::FrameSource::Chat);
        QCOMPARE(shown.count(), 0);
    }

    void cancelDropsWhatIsInFlight()
    {
        Moving m;
        auto [stage, frames, shown] = std::tie(m.stage, m.frames, m.shown);
        const auto before = stage.view()->frame();
        frames.submit(m.frame());
        frames.submit(m.frame());
        frames.cancel();
        QVERIFY(!frames.isBusy());
        QTest::qWait(300);
        QCOMPARE(shown.count(), 0);
        QCOMPARE(stage.view()->frame(), before);
    }
};

QTEST_MAIN(TestPreparedFrames)
#include "tst_preparedframes.moc"
