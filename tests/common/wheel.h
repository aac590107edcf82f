#pragma once
// A mouse-wheel notch as the window system delivers it. QTest has no wheel function, and an event sent with
// QCoreApplication::sendEvent is not spontaneous: QApplication gives such a wheel event to its receiver only,
// never to the receiver's parents, so a scroll area above an unfocused control would never see it. Here the
// event goes to the top-level widget's window, marked spontaneous, as QGuiApplication sends what the platform
// reports; the window finds the widget under the point and QApplication walks up from it, gives focus by the
// widgets' focus policies and runs the application's event filters, as for a real wheel.

#include <QApplication>
#include <QSpontaneKeyEvent>
#include <QWheelEvent>
#include <QWidget>
#include <QWindow>

namespace wstest {

// `notches` notches of a vertical wheel (positive: away from the user, which scrolls up) at `pos` in
// `widget`'s coordinates.
inline void wheel(QWidget* widget, QPoint pos, int notches)
{
    QWidget* top = widget->window();
    const QPoint inTop = widget->mapTo(top, pos);
    QWindow* window = top->windowHandle();
    if (!window)
        return;
    const int step = notches < 0 ? -1 : 1;
    for (int i = 0; i != notches; i += step) {
        QWheelEvent event(QPointF(inTop), QPointF(top->mapToGlobal(inTop)), QPoint(), QPoint(0, 120 * step),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QSpontaneKeyEvent::setSpontaneous(&event);
        QApplication::instance()->notify(window, &event);
    }
}

} // namespace wstest
