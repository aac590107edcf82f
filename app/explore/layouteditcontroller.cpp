#include "app/explore/layouteditcontroller.h"

#include "app/explore/layoutdock.h"
#include "app/stage/stage.h"
#include "engine/wafer/placement/layoutedit.h"
#include "views/mesh/mesheditor.h"
#include "views/mesh/meshview.h"

#include <QAction>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QUndoCommand>
#include <QUndoStack>

#include <utility>

namespace ws {

namespace {
// One change of the layout: undo places `before` again, redo `after` (the first redo is the change itself,
// already under way when the command is pushed).
class LayoutCommand : public QUndoCommand
{
public:
    LayoutCommand(LayoutEditController* c, LayoutChoice before, LayoutChoice after, const QString& text)
        : QUndoCommand(text), m_c(c), m_before(std::move(before)), m_after(std::move(after))
    {
    }
    void undo() override { m_c->show(m_before); }
    void redo() override
    {
        if (m_first)
            m_first = false;
        else
            m_c->show(m_after);
    }

private:
    LayoutEditController* m_c;
    LayoutChoice m_before;
    LayoutChoice m_after;
    bool m_first = true;
};
} // namespace

LayoutEditController::LayoutEditController(Stage* stage, QMainWindow* window)
    : QObject(window), m_window(window), m_jobs(this)
{
    setObjectName(QStringLiteral("layoutEditController"));
    m_dock = new LayoutDock(window);
    m_editor = stage->editor();
    m_stack = new QUndoStack(this);
    connect(m_dock, &LayoutDock::settingsChanged, this, &LayoutEditController::settingsChanged);
    connect(m_dock, &LayoutDock::editingChanged, m_editor, &views::MeshEditor::setEnabled);
    connect(m_editor, &views::MeshEditor::moveRequested, this, &LayoutEditController::moveLayer);
    connect(m_editor, &views::MeshEditor::resizeRequested, this, &LayoutEditController::resizeLayer);
    connect(m_editor, &views::MeshEditor::swapRequested, this, &LayoutEditController::swapLayers);
    connect(m_editor, &views::MeshEditor::tableRequested, this, &LayoutEditController::moveTable);
    connect(this, &LayoutEditController::refused, m_editor, &views::MeshEditor::showMessage);
    window->installEventFilter(this);
}

LayoutEditController::~LayoutEditController() = default;

void LayoutEditController::installMenus(QAction* before)
{
    m_editMenu = new QMenu(m_window);
    m_editMenu->setObjectName(QStringLiteral("editMenu"));
    m_window->menuBar()->insertMenu(before, m_editMenu);
    m_undo = m_stack->createUndoAction(m_window);
    m_undo->setObjectName(QStringLiteral("undoAction"));
    m_undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    m_redo = m_stack->createRedoAction(m_window);
    m_redo->setObjectName(QStringLiteral("redoAction"));
    m_redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    m_editMenu->addAction(m_undo);
    m_editMenu->addAction(m_redo);
    retranslate();
}

bool LayoutEditController::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::LanguageChange)
        retranslate();
    return false;
}

void LayoutEditController::retranslate()
{
    if (!m_editMenu)
        return;
    m_editMenu->setTitle(tr("&Edit"));
    m_editMenu->setAccessibleName(tr("Edit"));
    m_undo->setToolTip(tr("Undo the last layout change (Ctrl+Z)"));
    m_redo->setToolTip(tr("Redo the layout change undone last (Ctrl+Shift+Z)"));
}

void LayoutEditController::adopt(std::shared_ptr<const PlacementResult> result, const std::optional<Layout>& saved)
{
    m_stack->clear();
    m_target.reset();
    m_state.reset();
    m_retired.clear();
    m_editor->setSelectedLayer(std::nullopt);
    if (!result || !result->scene || !result->scene->placement)
        return;
    const LayoutChoice choice{*result->layout(), m_dock->settings().kv, 0};
    m_target = choice;
    m_jobs.start([result, choice] { return exploreResult(result, choice); },
                 [this, saved](ExploreState s) {
                     accept(std::move(s), false); // the window shows it already
                     if (saved && !(*saved == m_target->layout))
                         show(LayoutChoice{*saved, m_target->kv, m_target->wafers});
                 });
}

void LayoutEditController::settingsChanged()
{
    if (!m_state)
        return;
    const std::shared_ptr<const PlacementResult> result = m_state->result;
    const LayoutSettings settings = m_dock->settings();
    const std::optional<LayoutChoice> before = m_target;
    m_jobs.start([result, settings] { return exploreSettings(result->spec(), settings); },
                 [this, before](Expected<ExploreState> s) {
                     if (!s) {
                         m_dock->showMessage(
                             tr("No placement for these settings: %1").arg(QString::fromStdString(s.error().text)));
                         return;
                     }
                     m_target = s->choice;
                     if (before)
                         m_stack->push(new LayoutCommand(this, *before, s->choice, tr("Layout settings")));
                     accept(std::move(*s), true);
                 });
}

void LayoutEditController::show(const LayoutChoice& choice)
{
    if (!m_state)
        return;
    m_target = choice;
    const std::shared_ptr<const ExploreState> previous = m_state;
    // A retired snapshot only this controller still holds (made non-const by the engine, so writable).
    std::shared_ptr<MeshSnapshot> spare;
    for (auto it = m_retired.begin(); it != m_retired.end(); ++it)
        if (it->use_count() == 1 && (*it)->deviceCount == previous->result->snapshot->deviceCount) {
            spare = std::const_pointer_cast<MeshSnapshot>(*it);
            m_retired.erase(it);
            break;
        }
    m_jobs.start([previous, choice, spare] { return exploreChoice(*previous, choice, spare); },
                 [this](Expected<ExploreState> s) {
                     if (!s) {
                         emit refused(QString::fromStdString(s.error().text));
                         return;
                     }
                     accept(std::move(*s), true);
                 });
}

void LayoutEditController::accept(ExploreState state, bool changed)
{
    if (m_state && m_state->result->snapshot) {
        m_retired.push_back(m_state->result->snapshot);
        if (m_retired.size() > 2)
            m_retired.erase(m_retired.begin());
    }
    m_state = std::make_shared<const ExploreState>(std::move(state));
    m_dock->showState(*m_state);
    if (changed)
        emit stateChanged(m_state->result);
    m_editor->setSelectedLayer(m_editor->selectedLayer()); // the selected region's outline where it is now
}

bool LayoutEditController::edit(Expected<Layout> edited, const QString& what)
{
    if (!m_state)
        return false;
    if (!edited) {
        emit refused(QString::fromStdString(edited.error().text));
        return false;
    }
    LayoutChoice after = *m_target;
    after.layout = std::move(*edited);
    m_stack->push(new LayoutCommand(this, *m_target, after, what));
    show(after);
    return true;
}

bool LayoutEditController::moveLayer(int layer, int dx, int dy)
{
    if (!m_target || layer < 0 || layer >= int(m_target->layout.layers.size()))
        return false;
    const LayoutRegion& r = m_target->layout.layers[size_t(layer)];
    return edit(ws::moveRegion(m_target->layout, layer, r.device, r.rect.x + dx, r.rect.y + dy),
                tr("Move layer %1").arg(layer));
}

bool LayoutEditController::resizeLayer(int layer, int edge, int delta)
{
    if (!m_target || edge < 0 || edge > 3)
        return false;
    return edit(ws::resizeRegion(m_target->layout, layer, RegionEdge(edge), delta), tr("Resize layer %1").arg(layer));
}

bool LayoutEditController::swapLayers(int a, int b)
{
    if (!m_target)
        return false;
    return edit(ws::swapLayers(m_target->layout, a, b), tr("Swap layers %1 and %2").arg(a).arg(b));
}

bool LayoutEditController::moveTable(int table, int layer)
{
    if (!m_target)
        return false;
    const bool head = table == int(LayoutTable::LmHead);
    return edit(ws::moveTable(m_target->layout, head ? LayoutTable::LmHead : LayoutTable::Embedding, {layer}),
                head ? tr("Move the LM head") : tr("Move the embedding"));
}

} // namespace ws
