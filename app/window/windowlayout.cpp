#include "app/window/windowlayout.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QPointer>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>

#include <map>
#include <vector>

namespace ws {

namespace {
const char kOwnPlace[] = "waferscopeOwnPlace";
const char kWrapper[] = "waferscopeDockScroll";
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kSizeKey = QStringLiteral("window/size");
constexpr int kStateVersion = 1; // bump when the default docks change so that an old saved layout is dropped
} // namespace

WindowLayout::WindowLayout(QMainWindow* window) : QObject(window), m_window(window) {}

int WindowLayout::stateVersion()
{
    return kStateVersion;
}

void WindowLayout::keepOwnPlace(QDockWidget* dock)
{
    dock->setProperty(kOwnPlace, true);
}

void WindowLayout::arrange(QSize preferred)
{
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        wrap(dock);
        dock->installEventFilter(this);
        // Shown: as large as its content needs, as far as the window has room (else it scrolls).
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock = QPointer<QDockWidget>(dock)](bool shown) {
            if (shown)
                QMetaObject::invokeMethod(
                    this,
                    [this, dock] {
                        if (dock)
                            grow(dock);
                    },
                    Qt::QueuedConnection);
        });
        // Shown from its menu action: in front of the docks it shares a tab group with.
        connect(dock->toggleViewAction(), &QAction::triggered, dock, [dock](bool shown) {
            if (shown)
                dock->raise();
        });
    }
    tabify();
    // The right docks (the chat) run the window's full height; the bottom docks sit left of them.
    m_window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    // On a screen much larger than `preferred` (a 4K monitor, a projector's desktop) the window takes most of it,
    // so the wafer is not drawn in a corner: at least 80 % of the available width and height.
    if (const QScreen* screen = m_window->screen())
        preferred = preferred.expandedTo(screen->availableGeometry().size() * 0.8);
    m_defaultSize = preferred;
    m_window->resize(boundedToScreen(m_window, preferred));
    m_defaultState = m_window->saveState(kStateVersion);
}

void WindowLayout::wrap(QDockWidget* dock)
{
    QWidget* content = dock->widget();
    if (!content || dock->property(kOwnPlace).toBool() || qobject_cast<QAbstractScrollArea*>(content))
        return;
    auto* area = new QScrollArea(dock);
    area->setObjectName(dock->objectName() + QStringLiteral("Scroll"));
    area->setProperty(kWrapper, true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true); // the content grows with the dock and scrolls only below its minimum size
    area->setWidget(content);
    dock->setWidget(area);
}

bool WindowLayout::eventFilter(QObject* watched, QEvent* event)
{
    // A dock given a new content (setWidget reparents it to the dock): wrap it once the dock has taken it.
    if (event->type() == QEvent::ChildAdded)
        if (auto* dock = qobject_cast<QDockWidget*>(watched))
            QMetaObject::invokeMethod(
                this,
                [this, dock = QPointer<QDockWidget>(dock)] {
                    if (dock)
                        wrap(dock);
                },
                Qt::QueuedConnection);
    if (watched == m_window && event->type() == QEvent::Show && m_restoredSize.isValid()) {
        m_window->removeEventFilter(this);
        QMetaObject::invokeMethod(
            this, [this, size = m_restoredSize] { m_window->resize(boundedToScreen(m_window, size)); },
            Qt::QueuedConnection);
        m_restoredSize = {};
    }
    return QObject::eventFilter(watched, event);
}

void WindowLayout::grow(QDockWidget* dock)
{
    const auto* area = qobject_cast<QScrollArea*>(dock->widget());
    if (!area || !area->property(kWrapper).toBool() || !area->widget() || dock->isFloating() || !dock->isVisible())
        return;
    const QSize need = area->widget()->minimumSizeHint();
    const QSize frame = dock->size() - area->size(); // the title bar and margins
    const Qt::DockWidgetArea where = m_window->dockWidgetArea(dock);
    if ((where == Qt::TopDockWidgetArea || where == Qt::BottomDockWidgetArea) && area->height() < need.height())
        m_window->resizeDocks({dock}, {need.height() + frame.height()}, Qt::Vertical);
    else if ((where == Qt::LeftDockWidgetArea || where == Qt::RightDockWidgetArea) && area->width() < need.width())
        m_window->resizeDocks({dock}, {need.width() + frame.width()}, Qt::Horizontal);
}

void WindowLayout::tabify()
{
    std::map<int, std::vector<QDockWidget*>> byArea;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        if (!dock->property(kOwnPlace).toBool() && !dock->isFloating())
            byArea[int(m_window->dockWidgetArea(dock))].push_back(dock);
    for (const auto& [area, docks] : byArea) {
        if (area == int(Qt::NoDockWidgetArea))
            continue;
        for (size_t i = 1; i < docks.size(); ++i)
            m_window->tabifyDockWidget(docks.front(), docks[i]);
    }
}

void WindowLayout::reset()
{
    m_window->restoreState(m_defaultState, kStateVersion);
    m_window->resize(boundedToScreen(m_window, m_defaultSize));
}

void WindowLayout::save(QSettings& settings) const
{
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kSizeKey, m_window->size());
    settings.setValue(kStateKey, m_window->saveState(kStateVersion));
}

bool WindowLayout::restore(const QSettings& settings)
{
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    const QByteArray state = settings.value(kStateKey).toByteArray();
    if (geometry.isEmpty() || state.isEmpty())
        return false;
    if (!m_window->restoreState(state, kStateVersion))
        return false;
    m_window->restoreGeometry(geometry); // Qt moves a window saved on a screen no longer there back onto one
    m_window->resize(boundedToScreen(m_window, m_window->size()));
    // Before the first show the docks' layout still holds the default state's minimum, which may be wider than
    // the saved window: the saved size is applied again once shown.
    m_restoredSize = settings.value(kSizeKey).toSize();
    if (!m_window->isVisible())
        m_window->installEventFilter(this);
    return true;
}

QSize WindowLayout::boundedToScreen(const QMainWindow* window, QSize preferred)
{
    const QScreen* screen = window->screen();
    if (!screen)
        return preferred;
    return preferred.boundedTo(screen->availableGeometry().size());
}

} // namespace ws
