#include "app/window/inspectordock.h"

#include "views/dataflow/timelinechart.h"
#include "views/mesh/meshimage.h"

#include <QColor>
#include <QEvent>
#include <QHeaderView>
#include <QLocale>
#include <QTreeWidget>

#include <cmath>

namespace ws {

namespace {
QString source(const std::map<std::string, std::string>& sources, const char* field)
{
    const auto it = sources.find(field);
    return it == sources.end() ? QString() : QString::fromStdString(it->second);
}
} // namespace

InspectorDock::InspectorDock(QWidget* parent) : QDockWidget(parent)
{
    setObjectName(QStringLiteral("inspectorDock"));
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->setFocusPolicy(Qt::NoFocus);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    setWidget(m_tree);
    refresh();
}

void InspectorDock::setResult(std::shared_ptr<const PlacementResult> result)
{
    m_result = std::move(result);
    m_core.reset();
    refresh();
}

void InspectorDock::setProblem(const QString& problem)
{
    if (problem == m_problem)
        return;
    m_problem = problem;
    refresh();
}

void InspectorDock::setCore(int device, int x, int y)
{
    m_core = Core{device, x, y};
    refresh();
}

void InspectorDock::clearCore()
{
    m_core.reset();
    refresh();
}

void InspectorDock::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        refresh();
    QDockWidget::changeEvent(event);
}

QTreeWidgetItem* InspectorDock::addSection(const QString& title)
{
    auto* item = new QTreeWidgetItem(m_tree, {title});
    item->setFirstColumnSpanned(true);
    QFont font = item->font(0);
    font.setBold(true);
    item->setFont(0, font);
    item->setExpanded(true);
    return item;
}

void InspectorDock::addRow(QTreeWidgetItem* section, const QString& label, const QString& value, const QString& toolTip)
{
    auto* item = new QTreeWidgetItem(section, {label, value});
    item->setToolTip(0, toolTip);
    item->setToolTip(1, toolTip);
}

QString InspectorDock::valueFor(const QString& label) const
{
    for (int s = 0; s < m_tree->topLevelItemCount(); ++s) {
        const QTreeWidgetItem* section = m_tree->topLevelItem(s);
        for (int r = 0; r < section->childCount(); ++r)
            if (section->child(r)->text(0) == label)
                return section->child(r)->text(1);
    }
    return {};
}

QString InspectorDock::kindName(const std::string& kind) const
{
    if (kind == "kv")
        return tr("KV cache");
    if (kind == "weights")
        return tr("Weights");
    if (kind == "activations")
        return tr("activation buffers");
    if (kind == "program")
        return tr("program and runtime");
    return QString::fromStdString(kind);
}

void InspectorDock::refresh()
{
    setWindowTitle(tr("Inspector"));
    m_tree->setHeaderLabels({tr("Property"), tr("Value")});
    m_tree->clear();
    const QLocale locale;
    if (!m_problem.isEmpty()) {
        auto* problem = addSection(tr("Problem"));
        addRow(problem, tr("Defects"), m_problem,
               tr("The scenario's defects could not be remapped; the rows below describe the last placement that "
                  "fits."));
        problem->setForeground(0, QColor(240, 110, 110));
    }
    if (!m_result) {
        auto* section = addSection(tr("Scenario"));
        addRow(section, tr("Status"), tr("No placement"), tr("Choose a model and wafer hardware above."));
        return;
    }
    const PlacementResult& r = *m_result;
    const WaferSpec& w = r.hardware().wafer;
    auto* scenario = addSection(tr("Scenario"));
    addRow(scenario, tr("Model"), QString::fromStdString(r.model().name),
           tr("Architecture from the model preset (%1 layers, hidden size %2).")
               .arg(r.model().layers)
               .arg(locale.toString(r.model().hiddenSize)));
    addRow(scenario, tr("Hardware"), QString::fromStdString(r.hardware().name),
           tr("Hardware preset '%1'.").arg(QString::fromStdString(r.hardware().id)));
    addRow(scenario, tr("Precision"), QString::fromLatin1(precisionId(r.spec().workload.precision).data()).toUpper(),
           tr("Storage precision of the weights, including block scales for int8, int4 and fp4 (MXFP4)."));
    addRow(scenario, tr("Context"), tr("%1 tokens").arg(locale.toString(qlonglong(r.spec().workload.contextTokens))),
           tr("KV cache is sized for this many tokens per layer."));
    QString devicesTip =
        tr("The fewest wafers that hold the model's weights and KV cache, from the engine's placement.");
    for (const std::string& note : r.notes)
        devicesTip += QLatin1Char('\n') + QString::fromStdString(note);
    addRow(scenario, tr("Devices used"), locale.toString(r.devices), devicesTip);
    addRow(scenario, tr("Mesh per wafer"),
           tr("%1 × %2 cores").arg(locale.toString(w.meshCols), locale.toString(w.meshRows)),
           tr("Logical fabric as the SDK exposes it. Source: %1").arg(source(r.hardware().sources, "meshCols")));
    addRow(scenario, tr("SRAM per core"), views::formatBytes(double(w.sramBytesPerCore)),
           tr("Source: %1").arg(source(r.hardware().sources, "sramBytesPerCore")));
    const double share = r.sramTotalBytes > 0 ? 100.0 * double(r.sramUsedBytes) / double(r.sramTotalBytes) : 0;
    addRow(scenario, tr("SRAM used"),
           tr("%1 of %2 (%3%)")
               .arg(views::formatBytes(double(r.sramUsedBytes)), views::formatBytes(double(r.sramTotalBytes)),
                    locale.toString(share, 'f', 1)),
           tr("Bytes the placement puts on cores (weights and KV cache), summed over all wafers, against the "
              "SRAM of all their cores."));
    QStringList perDevice;
    for (int layers : r.layersPerDevice)
        perDevice << locale.toString(layers);
    if (!perDevice.isEmpty())
        addRow(scenario, tr("Layers per wafer"), perDevice.join(QStringLiteral(" + ")),
               tr("Transformer layers the placement puts on each wafer, in order."));

    auto* core = addSection(tr("Core"));
    if (!m_core) {
        addRow(core, tr("Selection"), tr("Click a core on the heatmap"),
               tr("Details come from the engine's placement."));
        return;
    }
    const auto info = coreInfo(r, m_core->device, m_core->x, m_core->y);
    if (!info) {
        addRow(core, tr("Error"), QString::fromStdString(info.error().message()), QString());
        return;
    }
    addRow(core, tr("Wafer"), locale.toString(info->device + 1), QString());
    addRow(core, tr("Logical (x, y)"), QStringLiteral("(%1, %2)").arg(info->x).arg(info->y),
           tr("Position in the healthy rectangular mesh software sees."));
    if (info->usableX && info->usableY)
        addRow(core, tr("Placement (x, y)"), QStringLiteral("(%1, %2)").arg(*info->usableX).arg(*info->usableY),
               tr("Position inside the application rectangle: the mesh minus the cores reserved for host I/O."));
    else
        addRow(core, tr("Placement (x, y)"), tr("reserved for host I/O"),
               tr("The fabric border the SDK keeps for memcpy host I/O; applications do not use it."));
    if (info->physicalX && info->physicalY)
        addRow(
            core, tr("Physical (x, y)"), QStringLiteral("(%1, %2)").arg(*info->physicalX).arg(*info->physicalY),
            tr("Position on the silicon grid, spare cores included, from the redundancy remap (no defects injected)."));
    if (!info->draftModel.empty())
        addRow(core, tr("Model"),
               tr("draft model %1 (speculative decoding)").arg(QString::fromStdString(info->draftModel)),
               tr("The draft model holds its own strip of cores beside the target; layer and tiles below are the "
                  "draft's."));
    if (info->tensorKind.empty()) {
        addRow(core, tr("Holds"), tr("nothing placed"), QString());
    } else {
        addRow(core, tr("Layer"),
               info->layerIndex >= 0 ? locale.toString(info->layerIndex) : tr("none (embedding or LM head)"),
               tr("Transformer layer whose data this core holds."));
        addRow(core, tr("Matrix"), kindName(info->tensorKind), tr("Tensor kind, as named in GGUF files."));
    }
    for (const std::string& tile : info->tiles)
        addRow(core, tr("Matrix tile"), QString::fromStdString(tile),
               tr("Output rows and input values of the matrix this core holds (half-open ranges)."));
    if (!info->kvRange.empty())
        addRow(core, tr("KV cache"), QString::fromStdString(info->kvRange),
               tr("Tokens and K|V columns of the layer's KV cache this core holds."));
    for (const auto& [kind, bytes] : info->bytesByKind)
        addRow(core, tr("Bytes: %1").arg(kindName(kind)), views::formatBytes(double(bytes)),
               tr("Bytes of this kind on the core, from the engine's per-core SRAM map."));
    addRow(core, tr("SRAM used"),
           tr("%1 of %2").arg(views::formatBytes(double(info->usedBytes)), views::formatBytes(double(info->sramBytes))),
           tr("All bytes on this core against its SRAM."));
    addExecutedRows(info->device, info->x, info->y);
}

void InspectorDock::setExecuted(std::shared_ptr<const MeshPlayback> run, int layer)
{
    if (run == m_executed && layer == m_executedLayer)
        return;
    m_executed = std::move(run);
    m_executedLayer = layer;
    refresh();
}

// What the core did in the mesh engine's run (MeshFabric's per-core accounting: busy while its compute engine
// works, waiting while it has work but lacks an input, idle otherwise).
void InspectorDock::addExecutedRows(int device, int x, int y)
{
    if (!m_executed || !m_executed->run().fabric)
        return;
    const MeshRun& run = m_executed->run();
    auto* section = addSection(tr("Mesh engine: layer %1").arg(m_executedLayer));
    const int index = run.fabric->findCore(device, x, y);
    if (index < 0) {
        addRow(section, tr("Took part"), tr("no"),
               tr("The engine ran layer %1 only; this core holds none of its tiles and no message crossed it.")
                   .arg(m_executedLayer));
        return;
    }
    const QLocale locale;
    const CoreStats& stats = run.fabric->cores()[size_t(index)].stats;
    const CoreCycles total = stats.total();
    const auto cycles = [&](double c) {
        return tr("%1 cycles (%2%)")
            .arg(locale.toString(qint64(std::llround(c))),
                 locale.toString(run.totalCycles > 0 ? 100.0 * c / run.totalCycles : 0.0, 'f', 1));
    };
    const QString why = tr("From the mesh engine's events for this core: %1 cycles in the run.")
                            .arg(locale.toString(qint64(std::llround(run.totalCycles))));
    addRow(section, tr("Busy"), cycles(total.busy), why);
    addRow(section, tr("Waiting"), cycles(total.waiting), why);
    addRow(section, tr("Idle"), cycles(stats.idle(run.totalCycles)), why);
    const MeshPlayback::CoreTraffic traffic = m_executed->coreTraffic(index);
    const auto words = [&](double w) { return locale.toString(qint64(std::llround(w))); };
    addRow(section, tr("Messages out"),
           tr("%1 · %2 words").arg(locale.toString(traffic.messagesOut), words(traffic.wordsOut)),
           tr("Messages this core sent (its partial sums, a multicast's copies, the hidden state onwards)."));
    addRow(section, tr("Messages in"),
           tr("%1 · %2 words").arg(locale.toString(traffic.messagesIn), words(traffic.wordsIn)),
           tr("Messages that ended at this core."));
    addRow(section, tr("Router words"), words(traffic.routerWords),
           tr("Words that left this core's router on its four links: its own and those it forwarded (the Links "
              "layer)."));
    if (const MeshCoreValue* v = m_executed->valueAt(device, x, y)) {
        const QString values = tr("Computed from the loaded model's weights for the token shown on the Values layer.");
        addRow(section, tr("Sum of partial products"), locale.toString(v->partialSum, 'g', 5), values);
        addRow(section, tr("Sum of |partial products|"), locale.toString(v->partialMagnitude, 'g', 5), values);
    }
    for (size_t k = 0; k < stats.byKind.size(); ++k) {
        const CoreCycles& c = stats.byKind[k];
        if (c.busy <= 0 && c.waiting <= 0)
            continue;
        addRow(
            section, views::phaseKindName(PhaseKind(k)),
            tr("busy %1 · waiting %2")
                .arg(locale.toString(qint64(std::llround(c.busy))), locale.toString(qint64(std::llround(c.waiting)))),
            tr("Cycles of this phase kind the core computed, and waited for an input."));
    }
}

} // namespace ws
