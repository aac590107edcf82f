#include "app/window/modecontroller.h"

#include "app/present/presentationmode.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace ws {

namespace {
const QString kModeKey = QStringLiteral("window/mode");
const QString kModeStateKey = QStringLiteral("window/modes/%1");
} // namespace

QString ModeController::modeId(Mode mode)
{
    switch (mode) {
    case Mode::Wafer:
        return QStringLiteral("wafer");
    case Mode::Chat:
        return QStringLiteral("chat");
    case Mode::Compare:
        return QStringLiteral("compare");
    case Mode::Explore:
        return QStringLiteral("explore");
    case Mode::Present:
        return QStringLiteral("present");
    }
    return {};
}

std::optional<ModeController::Mode> ModeController::modeFromId(const QString& id)
{
    for (Mode mode : allModes())
        if (modeId(mode) == id.trimmed().toLower())
            return mode;
    return std::nullopt;
}

QString ModeController::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Wafer:
        return tr("&Wafer");
    case Mode::Chat:
        return tr("&Chat");
    case Mode::Compare:
        return tr("C&ompare");
    case Mode::Explore:
        return tr("&Explore");
    case Mode::Present:
        return tr("&Present");
    }
    return {};
}

ModeController::ModeController(Parts parts, QObject* parent) : QObject(parent), m_parts(std::move(parts))
{
    setObjectName(QStringLiteral("modeController"));
    QMainWindow* window = m_parts.window;
    m_menu = new QMenu(window);
    m_menu->setObjectName(QStringLiteral("modeMenu"));
    m_group = new QActionGroup(this);
    for (Mode mode : allModes()) {
        auto* action = new QAction(this);
        action->setObjectName(QStringLiteral("mode_%1Action").arg(modeId(mode)));
        action->setCheckable(true);
        action->setShortcut(QKeySequence(Qt::ALT | (Qt::Key_1 + int(mode))));
        action->setData(int(mode));
        m_group->addAction(action);
        m_menu->addAction(action);
        window->addAction(action); // its key works while the menu bar is hidden (Present)
        connect(action, &QAction::triggered, this, [this, mode] { setMode(mode); });
        m_actions[size_t(mode)] = action;
    }
    m_overlayTimer = new QTimer(this);
    m_overlayTimer->setSingleShot(true);
    m_overlayTimer->setInterval(kOverlayHideMs);
    connect(m_overlayTimer, &QTimer::timeout, this, [this] {
        QDockWidget* inspector = m_parts.inspector;
        if (m_mode != Mode::Wafer || !inspector->isFloating())
            return;
        if (inspector->underMouse())
            m_overlayTimer->start(); // still being read
        else
            inspector->hide();
    });
    if (m_parts.presentation)
        connect(m_parts.presentation, &PresentationMode::presentingChanged, this, &ModeController::presentingChanged);
    window->installEventFilter(this); // language changes
    for (QDockWidget* dock : m_parts.workbenchOnly)
        dock->installEventFilter(this); // shown by their own rules (a layer): hidden again outside the workbench
    retranslate();
    check();
}

void ModeController::setMode(Mode mode)
{
    if (mode == m_mode) {
        check();
        return;
    }
    if (m_mode == Mode::Present)
        m_parts.presentation->leave(); // back to the mode before (presentingChanged)
    if (mode == m_mode) {
        check();
        return;
    }
    m_states[size_t(m_mode)] = m_parts.window->saveState(m_parts.stateVersion);
    if (mode == Mode::Present) {
        if (m_parts.presentation)
            m_parts.presentation->action()->trigger(); // presentingChanged(true) when the tour starts
        check();
        return;
    }
    apply(mode);
}

void ModeController::presentingChanged(bool presenting)
{
    if (presenting && m_mode != Mode::Present) {
        m_beforePresent = m_mode; // its layout comes back with the presentation's leave()
        m_mode = Mode::Present;
    } else if (!presenting && m_mode == Mode::Present) {
        m_mode = m_beforePresent;
    } else {
        return;
    }
    check();
    emit modeChanged(m_mode);
}

void ModeController::resetMode()
{
    if (m_mode == Mode::Present)
        return;
    m_states[size_t(m_mode)].clear();
    arrangeDefault(m_mode);
}

void ModeController::apply(Mode mode)
{
    m_mode = mode;
    QMainWindow* window = m_parts.window;
    if (!m_states[size_t(mode)].isEmpty() && window->restoreState(m_states[size_t(mode)], m_parts.stateVersion)) {
        if (mode == Mode::Wafer && m_parts.inspector->isFloating())
            m_parts.inspector->hide(); // an overlay comes with a click, not with the mode
        if (m_parts.restored)
            m_parts.restored();
        if (hidesWorkbenchDocks())
            for (QDockWidget* dock : m_parts.workbenchOnly)
                dock->hide();
    } else {
        arrangeDefault(mode);
    }
    check();
    emit modeChanged(mode);
    // The wafer fills the room the mode gives it, once the window has laid the docks out.
    QTimer::singleShot(0, this, [this, mode] {
        if (m_mode == mode && m_parts.arranged)
            m_parts.arranged();
    });
}

void ModeController::arrangeDefault(Mode mode)
{
    QMainWindow* window = m_parts.window;
    window->restoreState(m_parts.defaultState, m_parts.stateVersion);
    const auto docks = window->findChildren<QDockWidget*>();
    auto only = [&](QDockWidget* shown) {
        for (QDockWidget* dock : docks)
            if (dock != shown)
                dock->hide();
        if (shown)
            shown->show();
    };
    switch (mode) {
    case Mode::Wafer:
        only(nullptr);
        for (QToolBar* bar : window->findChildren<QToolBar*>())
            bar->hide();
        break;
    case Mode::Chat:
        only(m_parts.chat);
        break;
    case Mode::Compare:
        only(nullptr);
        window->addDockWidget(Qt::LeftDockWidgetArea, m_parts.comparison);
        m_parts.comparison->show();
        for (QToolBar* bar : window->findChildren<QToolBar*>())
            bar->hide(); // the comparison has its own settings row; every pixel of height goes to its charts
        break;
    case Mode::Explore:
    case Mode::Present:
        break;
    }
    if (m_parts.restored)
        m_parts.restored();
    if (hidesWorkbenchDocks())
        for (QDockWidget* dock : m_parts.workbenchOnly)
            dock->hide();
    fitDocks(mode);
    // Again once the window has laid itself out at its size (before the first show it has none yet).
    QTimer::singleShot(0, this, [this, mode] {
        if (m_mode == mode)
            fitDocks(mode);
    });
}

void ModeController::fitDocks(Mode mode)
{
    QMainWindow* window = m_parts.window;
    if (mode == Mode::Chat)
        window->resizeDocks({m_parts.chat}, {int(window->width() * kChatShare)}, Qt::Horizontal);
    else if (mode == Mode::Compare)
        window->resizeDocks({m_parts.comparison}, {std::max(window->width() / 2, window->width() - kThumbnailWidth)},
                            Qt::Horizontal);
}

void ModeController::showInspector()
{
    QDockWidget* inspector = m_parts.inspector;
    if (m_mode != Mode::Wafer) {
        inspector->show();
        return;
    }
    // Over the heatmap's top-right corner, hiding itself once left alone.
    QWidget* heatmap = m_parts.window->centralWidget();
    const QSize size(std::min(360, heatmap->width() / 2), std::min(480, heatmap->height() - 16));
    inspector->setFloating(true);
    inspector->setGeometry(QRect(heatmap->mapToGlobal(QPoint(heatmap->width() - size.width() - 8, 8)), size));
    inspector->show();
    inspector->raise();
    m_overlayTimer->start();
}

void ModeController::save(QSettings& settings) const
{
    const Mode current = m_mode == Mode::Present ? m_beforePresent : m_mode;
    settings.setValue(kModeKey, modeId(current));
    for (Mode mode : allModes()) {
        if (mode == Mode::Present)
            continue;
        const QByteArray state =
            mode == m_mode ? m_parts.window->saveState(m_parts.stateVersion) : m_states[size_t(mode)];
        if (state.isEmpty())
            settings.remove(kModeStateKey.arg(modeId(mode)));
        else
            settings.setValue(kModeStateKey.arg(modeId(mode)), state);
    }
}

bool ModeController::restore(const QSettings& settings)
{
    const auto mode = modeFromId(settings.value(kModeKey).toString());
    if (!mode || *mode == Mode::Present)
        return false;
    for (Mode m : allModes())
        m_states[size_t(m)] =
            m == Mode::Present ? QByteArray() : settings.value(kModeStateKey.arg(modeId(m))).toByteArray();
    m_mode = *mode;
    check();
    emit modeChanged(m_mode);
    return true;
}

void ModeController::check()
{
    m_actions[size_t(m_mode)]->setChecked(true);
}

bool ModeController::hidesWorkbenchDocks() const
{
    return m_mode != Mode::Explore;
}

bool ModeController::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Show && hidesWorkbenchDocks())
        if (auto* dock = qobject_cast<QDockWidget*>(watched); dock && m_parts.workbenchOnly.contains(dock))
            QMetaObject::invokeMethod(
                dock,
                [this, dock] {
                    if (hidesWorkbenchDocks())
                        dock->hide();
                },
                Qt::QueuedConnection);
    if (watched == m_parts.window && event->type() == QEvent::LanguageChange)
        retranslate();
    return QObject::eventFilter(watched, event);
}

void ModeController::retranslate()
{
    m_menu->setTitle(tr("&Mode"));
    const QString tips[] = {
        tr("The heatmap fills the window; a clicked core's inspector comes over it and hides itself again"),
        tr("The chat beside the wafer, the wafer following the answer's tokens"),
        tr("GPU, Groq and wafer compared at a legible size, the wafer as a live thumbnail beside them"),
        tr("The workbench: inspector, defects, layout editing, A/B compare and sweeps"),
        tr("Presentation mode: a tour full screen, no menus or docks (also F11; Esc leaves)")};
    for (Mode mode : allModes()) {
        QAction* action = m_actions[size_t(mode)];
        action->setText(modeName(mode));
        action->setToolTip(tips[size_t(mode)] +
                           QStringLiteral(" (%1)").arg(action->shortcut().toString(QKeySequence::NativeText)));
        action->setStatusTip(tips[size_t(mode)]);
    }
}

} // namespace ws
