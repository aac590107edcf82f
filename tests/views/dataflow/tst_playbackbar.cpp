// PlaybackBar: the slider maps to the token's cycles, buttons request steps
// and play, the dilation box offers wafer time per second, the labels show
// the state it was given.
#include "views/dataflow/playbackbar.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QtTest>

using namespace ws::views;

class TestPlaybackBar : public QObject
{
    Q_OBJECT

private slots:
    void sliderSeeksToCycles_data();
    void sliderSeeksToCycles();
    void stateMovesSliderWithoutEcho();
    void buttonsRequestSteps();
    void dilationChoice();
    void timeTextInMicroseconds();
    void disabledWithoutSchedule();
    void playButtonFollowsPlaying();
};

void TestPlaybackBar::sliderSeeksToCycles_data()
{
    QTest::addColumn<double>("totalCycles");
    QTest::addColumn<int>("sliderValue");
    QTest::newRow("start") << 120000.0 << 0;
    QTest::newRow("middle") << 120000.0 << PlaybackBar::sliderSteps / 2;
    QTest::newRow("quarter of odd total") << 98765.0 << PlaybackBar::sliderSteps / 4;
    QTest::newRow("end") << 5000.0 << PlaybackBar::sliderSteps;
}

void TestPlaybackBar::sliderSeeksToCycles()
{
    QFETCH(double, totalCycles);
    QFETCH(int, sliderValue);
    PlaybackBar bar;
    PlaybackState s;
    s.totalCycles = totalCycles;
    s.cycle = totalCycles / 3; // somewhere else, so every row moves the slider
    bar.setState(s);
    QSignalSpy seek(&bar, &PlaybackBar::seekRequested);
    auto* slider = bar.findChild<QSlider*>();
    QVERIFY(slider);
    slider->setValue(sliderValue);
    QCOMPARE(seek.count(), 1);
    QCOMPARE(seek.at(0).at(0).toDouble(), totalCycles * sliderValue / PlaybackBar::sliderSteps);
}

void TestPlaybackBar::stateMovesSliderWithoutEcho()
{
    PlaybackBar bar;
    QSignalSpy seek(&bar, &PlaybackBar::seekRequested);
    PlaybackState s;
    s.totalCycles = 40000;
    s.cycle = 10000;
    bar.setState(s);
    QCOMPARE(bar.findChild<QSlider*>()->value(), PlaybackBar::sliderSteps / 4);
    QCOMPARE(seek.count(), 0); // the controller's own time must not come back as a request
}

void TestPlaybackBar::buttonsRequestSteps()
{
    PlaybackBar bar;
    PlaybackState s;
    s.totalCycles = 1000;
    bar.setState(s);
    QSignalSpy step(&bar, &PlaybackBar::stepRequested);
    QSignalSpy play(&bar, &PlaybackBar::playToggled);
    const auto buttons = bar.findChildren<QToolButton*>();
    QCOMPARE(buttons.size(), 3);
    for (QToolButton* b : buttons)
        b->click();
    QCOMPARE(play.count(), 1);
    QCOMPARE(step.count(), 2);
    QCOMPARE(step.at(0).at(0).toInt() + step.at(1).at(0).toInt(), 0); // one back, one forward
}

void TestPlaybackBar::dilationChoice()
{
    PlaybackBar bar;
    auto* box = bar.findChild<QComboBox*>();
    QCOMPARE(box->count(), int(PlaybackBar::dilations().size()));
    PlaybackState s;
    s.totalCycles = 1000;
    s.waferSecondsPerSecond = 1.1e-5; // nearest offered: 10 us per second
    bar.setState(s);
    QCOMPARE(PlaybackBar::dilations()[size_t(box->currentIndex())], 1e-5);
    QSignalSpy dilation(&bar, &PlaybackBar::dilationRequested);
    box->setCurrentIndex(0);
    QCOMPARE(dilation.count(), 1);
    QCOMPARE(dilation.at(0).at(0).toDouble(), PlaybackBar::dilations().front());
}

void TestPlaybackBar::timeTextInMicroseconds()
{
    PlaybackBar bar;
    PlaybackState s;
    s.totalCycles = 2.2e6;
    s.cycle = 1.1e6;
    s.clockHz = 1.1e9; // 1.1e6 cycles = 1000 us
    s.phase = QStringLiteral("L3 · FFN down");
    bar.setState(s);
    const QString text = bar.timeText();
    QVERIFY2(text.contains(QLocale().toString(1000.0, 'f', 2)), qPrintable(text));
    QVERIFY2(text.contains(QLocale().toString(2000.0, 'f', 2)), qPrintable(text));
    QVERIFY2(text.contains(QLocale().toString(qint64(1100000))), qPrintable(text));
    bool phaseShown = false;
    for (QLabel* l : bar.findChildren<QLabel*>())
        phaseShown |= l->text() == s.phase;
    QVERIFY(phaseShown);
}

void TestPlaybackBar::disabledWithoutSchedule()
{
    PlaybackBar bar;
    bar.setState(PlaybackState{});
    QVERIFY(!bar.findChild<QSlider*>()->isEnabled());
    for (QToolButton* b : bar.findChildren<QToolButton*>())
        QVERIFY(!b->isEnabled());
}

void TestPlaybackBar::playButtonFollowsPlaying()
{
    // The play button shows Pause while a token plays and Play otherwise. setState runs at every frame of a playing
    // token: the icon is set when it changes, not read from the style's files again each frame.
    PlaybackBar bar;
    PlaybackState s;
    s.totalCycles = 1000;
    bar.setState(s);
    QToolButton* play = nullptr;
    for (QToolButton* b : bar.findChildren<QToolButton*>())
        if (b->toolTip() == QStringLiteral("Play (Space)"))
            play = b;
    QVERIFY(play);
    const qint64 playIcon = play->icon().cacheKey();
    s.playing = true;
    s.cycle = 10;
    bar.setState(s);
    QCOMPARE(play->toolTip(), QStringLiteral("Pause (Space)"));
    const qint64 pauseIcon = play->icon().cacheKey();
    QVERIFY(pauseIcon != playIcon);
    s.cycle = 20;
    bar.setState(s);
    QCOMPARE(play->icon().cacheKey(), pauseIcon);
    s.playing = false;
    bar.setState(s);
    QCOMPARE(play->toolTip(), QStringLiteral("Play (Space)"));
    QVERIFY(play->icon().cacheKey() != pauseIcon);
}

QTEST_MAIN(TestPlaybackBar)
#include "tst_playbackbar.moc"
