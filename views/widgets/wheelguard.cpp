#include "views/widgets/wheelguard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QScrollBar>

namespace ws::views {

void WheelGuard::install(QCoreApplication* app)
{
    if (!app || isInstalled(app))
        return;
    app->installEventFilter(new WheelGuard(app));
    for (QWidget* widget : QApplication::allWidgets())
        if (guards(widget))
            calm(widget);
}

bool WheelGuard::isInstalled(const QCoreApplication* app)
{
    return app && app->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly);
}

bool WheelGuard::guards(const QObject* object)
{
    if (!object || !object->isWidgetType())
        return false;
    if (qobject_cast<const QAbstractSpinBox*>(object) || qobject_cast<const QComboBox*>(object))
        return true;
    return qobject_cast<const QAbstractSlider*>(object) && !qobject_cast<const QScrollBar*>(object);
}

void WheelGuard::calm(QWidget* control)
{
    if (control->focusPolicy() == Qt::WheelFocus)
        control->setFocusPolicy(Qt::StrongFocus);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::Polish:
        if (guards(watched))
            calm(static_cast<QWidget*>(watched));
        break;
    case QEvent::Wheel:
        // hasFocus() follows the focus proxy: the line edit inside a spin box or an editable combo box.
        if (guards(watched) && !static_cast<QWidget*>(watched)->hasFocus()) {
            event->ignore(); // not taken: QApplication offers it to the parent, up to the scroll area
            return true;
        }
        break;
    default:
        break;
    }
    return false;
}

} // namespace ws::views
