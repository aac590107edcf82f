#include "app/present/presentationmode.h"

#include "app/dataflow/dataflowdock.h"
#include "app/present/tourcaptions.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QScreen>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {
constexpr double kFontScale = 1.25;   // large type for a room: the window's font, times this
constexpr double kCaptionScale = 1.6; // and the caption's, times this again
} // namespace

PresentationMode::PresentationMode(WindowParts parts)
    : QObject(parts.window), m_stage(std::move(parts)), m_tourPath(TourFormat::shippedTours().constFirst())
{
    setObjectName(QStringLiteral("presentationMode"));
    QMainWindow* window = m_stage.parts().window;
    m_action = new QAction(this);
    m_action->setObjectName(QStringLiteral("presentAction"));
    m_action->setShortcut(QKeySequence(Qt::Key_F11));
    window->addAction(m_action); // its shortcut works while the menu bar is hidden
    connect(m_action, &QAction::triggered, this, &PresentationMode::toggle);

    m_bar = new QToolBar(window);
    m_bar->setObjectName(QStringLiteral("presentationBar"));
    m_bar->setMovable(false);
    m_bar->setFloatable(false);
    auto* box = new QWidget(m_bar);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(16, 8, 16, 8);
    m_caption = new QLabel(box);
    m_caption->setObjectName(QStringLiteral("presentationCaption"));
    m_caption->setWordWrap(true);
    m_status = new QLabel(box);
    m_status->setObjectName(QStringLiteral("presentationStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_caption);
    layout->addWidget(m_status);
    m_bar->addWidget(box);
    box->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    window->addToolBar(Qt::BottomToolBarArea, m_bar);
    m_bar->hide();
    window->installEventFilter(this); // language changes
    retranslate();
}

PresentationMode::~PresentationMode()
{
    qApp->removeEventFilter(this);
}

void PresentationMode::toggle()
{
    if (isPresenting()) {
        leave();
        return;
    }
    QString error;
    if (!present(m_tourPath, &error))
        m_stage.parts().window->statusBar()->showMessage(error, 10000);
}

bool PresentationMode::present(const QString& tourPath, QString* error)
{
    auto tour = TourFormat::load(tourPath, error);
    if (!tour)
        return false;
    if (isPresenting())
        leave();
    m_tourPath = tourPath;
    QMainWindow* window = m_stage.parts().window;
    paintOnTheNextTurn();
    m_savedState = window->saveState();
    m_savedScenario = m_stage.parts().scenario();
    m_wasFullScreen = window->isFullScreen();
    m_wasMaximized = window->isMaximized();
    // The caption's width from an earlier presentation would hold the window at that width before its bar shows
    // (updateBar sets it anew).
    for (QLabel* label : {m_caption, m_status}) {
        label->setMinimumWidth(0);
        label->setMaximumWidth(QWIDGETSIZE_MAX);
    }
    for (QDockWidget* dock : window->findChildren<QDockWidget*>())
        dock->hide();
    m_stage.parts().dataflow->setShowsWithLayer(false); // the tour's layer steps leave it hidden
    m_wasTurning = m_stage.parts().stage->turnsToFit();
    m_stage.parts().stage->setTurnToFit(true); // a portrait wafer turns to fill a landscape screen
    for (QToolBar* bar : window->findChildren<QToolBar*>())
        bar->setVisible(bar == m_bar);
    window->menuBar()->hide();
    window->statusBar()->hide();
    m_largeFont = window->font();
    m_largeFont.setPointSizeF(m_largeFont.pointSizeF() * kFontScale);
    enlarge(window->centralWidget());
    enlarge(m_bar);
    QFont captionFont = m_largeFont;
    captionFont.setPointSizeF(m_largeFont.pointSizeF() * kCaptionScale);
    m_caption->setFont(captionFont);
    m_barShown.clear(); // laid out again in the new type
    if (m_fullScreen) {
        m_savedGeometry = window->saveGeometry();
        if (QScreen* screen = window->screen())
            window->setGeometry(screen->geometry()); // also without a window manager that knows full screen
        window->showFullScreen();
    }
    qApp->installEventFilter(this);

    m_player = std::make_unique<TourPlayer>(std::move(*tour), &m_stage);
    connect(m_player.get(), &TourPlayer::captionChanged, this, &PresentationMode::updateBar);
    connect(m_player.get(), &TourPlayer::stepChanged, this, &PresentationMode::updateBar);
    connect(m_player.get(), &TourPlayer::pausedChanged, this, &PresentationMode::updateBar);
    connect(m_player.get(), &TourPlayer::finished, this, &PresentationMode::updateBar);
    connect(m_player.get(), &TourPlayer::failed, this, &PresentationMode::updateBar);
    emit presentingChanged(true);
    if (m_autoPlay)
        m_player->start();
    else
        m_player->advance(0);
    updateBar();
    return true;
}

void PresentationMode::leave()
{
    if (!m_player)
        return;
    qApp->removeEventFilter(this);
    m_player->stop();
    m_player.reset();
    QMainWindow* window = m_stage.parts().window;
    paintOnTheNextTurn();
    m_bar->hide();
    for (const SavedFont& saved : m_savedFonts)
        if (saved.widget)
            saved.widget->setFont(saved.own ? saved.font : QFont()); // QFont(): inherit again
    m_savedFonts.clear();
    window->menuBar()->show();
    window->statusBar()->show();
    m_stage.parts().dataflow->setShowsWithLayer(true);
    m_stage.parts().stage->setTurnToFit(m_wasTurning);
    window->restoreState(m_savedState);
    if (m_fullScreen && !m_wasFullScreen) {
        m_wasMaximized ? window->showMaximized() : window->showNormal();
        window->restoreGeometry(m_savedGeometry);
    }
    m_stage.parts().applyScenario(m_savedScenario);
    emit presentingChanged(false);
}

void PresentationMode::paintOnTheNextTurn()
{
    // Presenting and leaving lay the whole window out again (menus, toolbars, docks: 3-6 ms at 1920 x 1080 on a
    // 2-core VM), and its paint then draws every widget shown (7-11 ms). Run back to back, the two held the event
    // loop for 15-27 ms. The window's paint waits for the next turn of the loop instead, so that input and timers
    // are served between them; nothing else is drawn meanwhile (about a millisecond).
    QWidget* window = m_stage.parts().window;
    if (!window->updatesEnabled()) // already waiting (present() leaves first), or held by someone else
        return;
    window->setUpdatesEnabled(false);
    QMetaObject::invokeMethod(
        window, [window] { window->setUpdatesEnabled(true); }, Qt::QueuedConnection);
}

void PresentationMode::enlarge(QWidget* widget)
{
    if (!widget)
        return;
    for (const SavedFont& saved : m_savedFonts)
        if (saved.widget == widget)
            return;
    m_savedFonts.push_back({widget, widget->testAttribute(Qt::WA_SetFont), widget->font()});
    widget->setFont(m_largeFont);
}

QString PresentationMode::captionText() const
{
    return m_caption->text();
}

bool PresentationMode::handleKey(int key)
{
    switch (key) {
    case Qt::Key_Right:
        m_player->next();
        return true;
    case Qt::Key_Left:
        m_player->back();
        return true;
    case Qt::Key_Space:
        m_player->togglePause();
        return true;
    case Qt::Key_Home:
        m_player->restart();
        return true;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        leave();
        return true;
    default:
        return false;
    }
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && watched == m_stage.parts().window) {
        retranslate();
        return QObject::eventFilter(watched, event);
    }
    if (event->type() == QEvent::Show && m_player && watched->isWidgetType()) {
        auto* dock = qobject_cast<QDockWidget*>(watched); // a tour step shows it (the comparison, the race)
        if (dock && dock->parentWidget() == m_stage.parts().window)
            enlarge(dock);
        return QObject::eventFilter(watched, event);
    }
    if (event->type() == QEvent::Resize && watched == m_stage.parts().window) {
        updateBar(); // the caption wraps at the new width
        return QObject::eventFilter(watched, event);
    }
    if (!m_player || (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride))
        return QObject::eventFilter(watched, event);
    // The presentation's keys win over the window's shortcuts (Space and the arrows also drive the Dataflow dock).
    const int key = static_cast<QKeyEvent*>(event)->key();
    const bool ours = key == Qt::Key_Right || key == Qt::Key_Left || key == Qt::Key_Space || key == Qt::Key_Home ||
                      key == Qt::Key_Escape || key == Qt::Key_F11;
    if (!ours)
        return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept(); // delivered as a key press instead of triggering a shortcut
        return true;
    }
    return handleKey(key);
}

void PresentationMode::retranslate()
{
    m_action->setText(tr("&Present"));
    m_action->setToolTip(tr("Play a tour full screen (F11): → next, ← back, Space pause, Home start again, Esc leave"));
    m_action->setStatusTip(m_action->toolTip());
    m_bar->setWindowTitle(tr("Presentation"));
    if (m_player)
        m_player->refreshCaption();
    updateBar();
}

void PresentationMode::updateBar()
{
    if (!m_player)
        return;
    const QString caption = m_player->error().isEmpty() ? m_player->caption() : m_player->error();
    const int count = int(m_player->tour().steps.size());
    QString state;
    if (!m_player->error().isEmpty())
        state = tr("The tour stopped");
    else if (m_player->isFinished())
        state = tr("End of the tour");
    else if (m_player->isPaused())
        state = tr("Paused");
    else
        state = tr("Step %1 of %2").arg(std::min(m_player->stepIndex() + 1, count)).arg(count);
    const QString status =
        tr("%1 · %2 · → next · ← back · Space pause · Home start again · Esc leave")
            .arg(QCoreApplication::translate("Tour", m_player->tour().title.toUtf8().constData()), state);
    // A toolbar gives its widgets their size hint: wrap the caption at the window's width, on two lines or more.
    const int width = std::max(200, m_stage.parts().window->width() - 40);
    // A caption step asks again at every frame (its values may change): the same text at the same width is not
    // laid out again (the wrapped height of a long caption in large type, 60 times a second).
    const QStringList shown{caption, status, QString::number(width)};
    if (shown == m_barShown)
        return;
    m_barShown = shown;
    m_caption->setText(caption);
    m_caption->setFixedWidth(width);
    m_caption->setFixedHeight(std::max(2 * m_caption->fontMetrics().height(), m_caption->heightForWidth(width)));
    m_status->setText(status);
    // Wrapped at the same width: a long title in large type never holds the window wider than its screen.
    m_status->setFixedWidth(width);
    m_status->setFixedHeight(std::max(m_status->fontMetrics().height(), m_status->heightForWidth(width)));
}

} // namespace ws
