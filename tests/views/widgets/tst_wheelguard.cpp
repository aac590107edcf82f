// WheelGuard: in a scroll area taller than its view, wheel notches over an unfocused spin box, combo box or
// slider scroll the area and leave the control's value and the focus as they were; a focused control takes
// the wheel as before; scroll bars keep it. The guard covers controls made before it was installed and after.
#include "tests/common/wheel.h"
#include "views/widgets/verticalscroll.h"
#include "views/widgets/wheelguard.h"

#include <QComboBox>
#include <QDial>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>

#include <memory>

using namespace ws;

namespace {

// A control of `kind` at the middle of its range.
QWidget* makeControl(const QString& kind)
{
    if (kind.contains(QLatin1String("combo"))) {
        auto* c = new QComboBox;
        c->addItems({"BF16", "FP16", "FP8", "INT8", "INT4"});
        c->setEditable(kind.startsWith(QLatin1String("editable")));
        c->setCurrentIndex(2);
        return c;
    }
    if (kind == QLatin1String("double spin box")) {
        auto* s = new QDoubleSpinBox;
        s->setRange(0, 1);
        s->setSingleStep(0.05);
        s->setValue(0.5);
        return s;
    }
    QAbstractSlider* slider = kind == QLatin1String("slider") ? new QSlider(Qt::Horizontal) : nullptr;
    if (kind == QLatin1String("dial"))
        slider = new QDial;
    if (slider) {
        slider->setRange(0, 100);
        slider->setValue(50);
        return slider;
    }
    auto* s = new QSpinBox;
    s->setRange(0, 100);
    s->setValue(50);
    return s;
}

QString valueOf(const QWidget* w)
{
    if (auto* s = qobject_cast<const QAbstractSpinBox*>(w))
        return s->text();
    if (auto* c = qobject_cast<const QComboBox*>(w))
        return c->currentText();
    return QString::number(qobject_cast<const QAbstractSlider*>(w)->value());
}

} // namespace

class TestWheelGuard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void controlIgnoresTheWheelUnlessFocused_data();
    void controlIgnoresTheWheelUnlessFocused();
    void scrollBarKeepsTheWheel();
    void installIsOnceAndCoversEarlierWidgets();

private:
    std::unique_ptr<QWidget> m_before; // made before the guard was installed
};

void TestWheelGuard::initTestCase()
{
    m_before = std::make_unique<QSpinBox>();
    QCOMPARE(m_before->focusPolicy(), Qt::WheelFocus); // Qt's default, which the guard takes away
    QVERIFY(!views::WheelGuard::isInstalled(QCoreApplication::instance()));
    views::WheelGuard::install(QCoreApplication::instance());
    QVERIFY(views::WheelGuard::isInstalled(QCoreApplication::instance()));
}

void TestWheelGuard::controlIgnoresTheWheelUnlessFocused_data()
{
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"spin box", "double spin box", "combo box", "editable combo box", "slider", "dial"})
        QTest::newRow(kind) << QString::fromLatin1(kind);
}

void TestWheelGuard::controlIgnoresTheWheelUnlessFocused()
{
    QFETCH(QString, kind);
    // A page far taller than its view, the control in its first screen below a line edit that has the focus.
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    auto* other = new QLineEdit;
    layout->addWidget(other);
    layout->addSpacing(180);
    QWidget* w = makeControl(kind);
    layout->addWidget(w);
    layout->addSpacing(2000);
    std::unique_ptr<QScrollArea> scroll(views::verticalScroll(page));
    scroll->resize(300, 320);
    scroll->show();
    QVERIFY(QTest::qWaitForWindowActive(scroll.get()));
    other->setFocus(Qt::OtherFocusReason);
    QVERIFY(other->hasFocus());
    QScrollBar* bar = scroll->verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(w->focusPolicy(), Qt::StrongFocus); // a wheel gives it no focus
    const QString before = valueOf(w);

    for (int notches : {-3, 3, -2}) {
        bar->setValue(notches < 0 ? 0 : 120); // room to scroll that way
        const int barBefore = bar->value();
        const QPoint centre = w->rect().center();
        const QWidget* under = scroll->childAt(w->mapTo(scroll.get(), centre));
        QVERIFY2(under && (under == w || w->isAncestorOf(under)),
                 qPrintable(QStringLiteral("%1 at %2")
                                .arg(under ? under->metaObject()->className() : "nothing")
                                .arg(w->mapTo(scroll.get(), centre).y())));
        wstest::wheel(w, centre, notches);
        QCOMPARE(valueOf(w), before);
        QVERIFY(!w->hasFocus());
        // The wheel reached the scroll area: notches towards the user scroll down.
        QVERIFY2(notches < 0 ? bar->value() > barBefore : bar->value() < barBefore,
                 qPrintable(QStringLiteral("%1 -> %2").arg(barBefore).arg(bar->value())));
    }

    // Focused (clicked or tabbed into), the control takes the wheel as Qt made it to.
    bar->setValue(0);
    w->setFocus(Qt::OtherFocusReason);
    QVERIFY(w->hasFocus());
    const QPoint centre = w->rect().center();
    wstest::wheel(w, centre, -1);
    QVERIFY2(valueOf(w) != before, qPrintable(valueOf(w)));
    QCOMPARE(bar->value(), 0);
}

void TestWheelGuard::scrollBarKeepsTheWheel()
{
    auto* page = new QWidget;
    page->setMinimumHeight(2000);
    std::unique_ptr<QScrollArea> scroll(views::verticalScroll(page));
    scroll->resize(300, 240);
    scroll->show();
    QVERIFY(QTest::qWaitForWindowExposed(scroll.get()));
    QScrollBar* bar = scroll->verticalScrollBar();
    QCOMPARE(bar->value(), 0);
    wstest::wheel(bar, bar->rect().center(), -2);
    QVERIFY(bar->value() > 0);
}

void TestWheelGuard::installIsOnceAndCoversEarlierWidgets()
{
    QCOMPARE(m_before->focusPolicy(), Qt::StrongFocus);
    views::WheelGuard::install(QCoreApplication::instance());
    QCOMPARE(QCoreApplication::instance()->findChildren<views::WheelGuard*>().size(), 1);
    // A control whose focus policy was chosen otherwise keeps it.
    QSpinBox clickOnly;
    clickOnly.setFocusPolicy(Qt::ClickFocus);
    clickOnly.show();
    QCOMPARE(clickOnly.focusPolicy(), Qt::ClickFocus);
}

QTEST_MAIN(TestWheelGuard)
#include "tst_wheelguard.moc"
