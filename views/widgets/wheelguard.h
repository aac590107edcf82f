#pragma once
// The mouse wheel scrolls; it does not edit. Over a spin box, a combo box or a slider that does not have the
// keyboard focus, a wheel event is not delivered to the control: QApplication passes the ignored event on to
// the control's parents, so the dock's scroll area scrolls instead of the pointer turning FFN precision from
// BF16 to INT4 and re-placing the model at every notch. A focused control (clicked or tabbed into) takes the
// wheel as usual. These controls also lose Qt::WheelFocus (Qt::StrongFocus instead), so a wheel never gives
// them the focus that would let the next notch through. Scroll bars keep the wheel.
//
// One guard per application, installed on the application object: it covers every widget of every window,
// those made later (docks built on demand, panels rebuilt on a change of language) included.

#include <QObject>

class QCoreApplication;
class QWidget;

namespace ws::views {

class WheelGuard : public QObject
{
    Q_OBJECT

public:
    // Installs the application's guard unless it has one; calmed are the widgets that exist now and every
    // widget polished from now on (Qt polishes a widget before it is first shown).
    static void install(QCoreApplication* app);
    static bool isInstalled(const QCoreApplication* app);
    // A spin box, combo box or slider (not a scroll bar): a control the wheel would edit.
    static bool guards(const QObject* object);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QObject* parent) : QObject(parent) {}
    static void calm(QWidget* control);
};

} // namespace ws::views
