#include "app/explore/layoutdock.h"

#include "engine/wafer/mesh/meshshapes.h"
#include "views/mesh/meshimage.h"
#include "views/widgets/comboitems.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
constexpr Precision kPrecisions[] = {Precision::Fp32, Precision::Bf16, Precision::Fp16, Precision::Fp8,
                                     Precision::Int8, Precision::Int4, Precision::Fp4};

void select(QComboBox* box, int value)
{
    if (const int i = box->findData(value); i >= 0)
        box->setCurrentIndex(i);
}
} // namespace

LayoutDock::LayoutDock(QWidget* parent) : QDockWidget(parent)
{
    setObjectName(QStringLiteral("layoutDock"));
    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    auto* form = new QFormLayout;
    column->addLayout(form);
    m_strategy = new QComboBox(body);
    m_strategy->setObjectName(QStringLiteral("layoutStrategy"));
    m_strategy->addItem(QString(), int(PlacementStrategy::Pipelined));
    m_strategy->addItem(QString(), int(PlacementStrategy::TensorParallel));
    m_experts = new QComboBox(body);
    m_experts->setObjectName(QStringLiteral("layoutExperts"));
    m_experts->addItem(QString(), int(ExpertLayout::Blocks));
    m_experts->addItem(QString(), int(ExpertLayout::Sliced));
    m_fill = new QDoubleSpinBox(body);
    m_fill->setObjectName(QStringLiteral("layoutFill"));
    m_fill->setRange(0.05, 1.0);
    m_fill->setSingleStep(0.05);
    m_fill->setDecimals(2);
    m_wafers = new QSpinBox(body);
    m_wafers->setObjectName(QStringLiteral("layoutWafers"));
    m_wafers->setRange(1, 1024);
    m_order = new QComboBox(body);
    m_order->setObjectName(QStringLiteral("layoutOrder"));
    for (LayerOrder o : {LayerOrder::Snake, LayerOrder::RowMajor, LayerOrder::ColumnMajor})
        m_order->addItem(QString(), int(o));
    m_kv = new QComboBox(body);
    m_kv->setObjectName(QStringLiteral("layoutKv"));
    m_kv->addItem(QString(), int(KvPlacement::Shift));
    m_kv->addItem(QString(), int(KvPlacement::Concat));
    m_context = new QSpinBox(body);
    m_context->setObjectName(QStringLiteral("layoutContext"));
    m_context->setRange(256, 1 << 20);
    m_context->setSingleStep(1024);
    m_context->setGroupSeparatorShown(true);
    QComboBox** groups[] = {&m_attention, &m_ffn, &m_tables};
    const char* names[] = {"layoutAttentionPrecision", "layoutFfnPrecision", "layoutTablesPrecision"};
    for (int i = 0; i < 3; ++i) {
        *groups[i] = new QComboBox(body);
        (*groups[i])->setObjectName(QLatin1String(names[i]));
        for (Precision p : kPrecisions)
            (*groups[i])->addItem(QString::fromLatin1(precisionId(p).data()).toUpper(), int(p));
    }
    QWidget* fields[] = {m_strategy, m_experts, m_fill,      m_wafers, m_order,
                         m_kv,       m_context, m_attention, m_ffn,    m_tables};
    for (int i = 0; i < 10; ++i) {
        m_labels[i] = new QLabel(body);
        m_labels[i]->setBuddy(fields[i]);
        form->addRow(m_labels[i], fields[i]);
    }
    m_edit = new QCheckBox(body);
    m_edit->setObjectName(QStringLiteral("layoutEditByHand"));
    column->addWidget(m_edit);
    m_summary = new QLabel(body);
    m_summary->setObjectName(QStringLiteral("layoutSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_summary);
    m_engineButton = new QPushButton(body);
    m_engineButton->setObjectName(QStringLiteral("layoutEngineTime"));
    column->addWidget(m_engineButton, 0, Qt::AlignLeft);
    m_engine = new QLabel(body);
    m_engine->setObjectName(QStringLiteral("layoutEngineTiming"));
    m_engine->setWordWrap(true);
    m_engine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_engine);
    connect(m_engineButton, &QPushButton::clicked, this, &LayoutDock::timeWithEngine);
    column->addStretch(1);
    setWidget(body);

    auto changed = [this] {
        if (!m_showing)
            emit settingsChanged();
    };
    for (QComboBox* box : {m_strategy, m_experts, m_order, m_kv, m_attention, m_ffn, m_tables})
        connect(box, &QComboBox::currentIndexChanged, this, changed);
    connect(m_fill, &QDoubleSpinBox::editingFinished, this, changed);
    connect(m_wafers, &QSpinBox::editingFinished, this, changed);
    connect(m_context, &QSpinBox::editingFinished, this, changed);
    connect(m_edit, &QCheckBox::toggled, this, &LayoutDock::editingChanged);
    retranslate();
}

LayoutSettings LayoutDock::settings() const
{
    LayoutSettings s;
    s.strategy = PlacementStrategy(m_strategy->currentData().toInt());
    s.experts = ExpertLayout(m_experts->currentData().toInt());
    s.weightFill = m_fill->value();
    s.wafers = m_wafers->value() == m_wafers->minimum() ? 0 : m_wafers->value();
    s.order = LayerOrder(m_order->currentData().toInt());
    s.kv = KvPlacement(m_kv->currentData().toInt());
    s.contextTokens = m_context->value();
    s.precisions = {Precision(m_attention->currentData().toInt()), Precision(m_ffn->currentData().toInt()),
                    Precision(m_tables->currentData().toInt())};
    return s;
}

bool LayoutDock::editing() const
{
    return m_edit->isChecked();
}

void LayoutDock::showState(const ExploreState& state)
{
    m_state = std::make_shared<const ExploreState>(state);
    m_showing = true;
    const LayoutSettings s = settingsOf(state.choice);
    select(m_strategy, int(s.strategy));
    select(m_experts, int(s.experts));
    // Only a mixture-of-experts model has experts to lay out.
    const bool moe =
        state.result && state.result->scene && state.result->scene->placement && state.result->spec().model.isMoe();
    m_experts->setEnabled(moe);
    m_fill->setValue(s.weightFill);
    const int fewest = state.predicted ? state.prediction.devicesNeeded : state.result->devices;
    m_wafers->setMinimum(std::max(1, fewest));
    m_wafers->setValue(std::max(fewest, s.wafers));
    select(m_order, int(s.order));
    select(m_kv, int(s.kv));
    m_context->setValue(int(std::min<int64_t>(s.contextTokens, m_context->maximum())));
    select(m_attention, int(s.precisions.attention));
    select(m_ffn, int(s.precisions.ffn));
    select(m_tables, int(s.precisions.tables));
    m_showing = false;
    showPrediction(state);
    m_jobs.cancel(); // a timing of the layout before is not this one's
    m_engine->clear();
    m_engineButton->setEnabled(state.result && state.result->scene && state.result->scene->placement &&
                               state.overCapacity.empty());
}

void LayoutDock::timeWithEngine()
{
    if (!m_state || !m_state->result || !m_state->result->scene || !m_state->result->scene->placement)
        return;
    m_engine->setText(tr("Executing the layout's layers on the mesh engine, one region shape at a time…"));
    m_jobs.start(
        [result = m_state->result] {
            return timeLayersByShape(*result->scene->placement, result->model(),
                                     MeshParams::fromHardware(result->hardware().wafer),
                                     std::max<int64_t>(1, result->spec().workload.contextTokens));
        },
        [this](Expected<MeshLayoutTiming> timed) {
            if (!timed) {
                m_engine->setText(tr("The mesh engine cannot time this layout: %1")
                                      .arg(QString::fromStdString(timed.error().message())));
                return;
            }
            const QLocale locale;
            const auto us = [&](double cycles) {
                return locale.toString(timed->clockHz > 0 ? 1e6 * cycles / timed->clockHz : 0.0, 'f', 1);
            };
            int layers = 0;
            const MeshShapeTiming* slowest = nullptr;
            for (const MeshShapeTiming& s : timed->shapes) {
                layers += int(s.layers.size());
                if (!slowest || s.engineCycles > slowest->engineCycles)
                    slowest = &s;
            }
            QString text = tr("Mesh engine: the %1 layers take %2 µs a token (closed forms with the same unit costs: "
                              "%3 µs), from %4 region shapes executed core by core.")
                               .arg(layers)
                               .arg(us(timed->engineCycles), us(timed->closedFormCycles))
                               .arg(timed->shapes.size());
            if (slowest)
                text += QLatin1Char('\n') + tr("Slowest layer region: %1 × %2 cores (layer %3), %4 cycles.")
                                                .arg(slowest->width)
                                                .arg(slowest->height)
                                                .arg(slowest->layers.front())
                                                .arg(locale.toString(qint64(std::llround(slowest->engineCycles))));
            m_engine->setText(text);
        });
}

QString LayoutDock::engineText() const
{
    return m_engine->text();
}

void LayoutDock::showMessage(const QString& text)
{
    m_summary->setText(text);
}

void LayoutDock::showPrediction(const ExploreState& state)
{
    const QLocale locale;
    QStringList lines;
    if (state.predicted) {
        const Prediction& p = state.prediction;
        lines << tr("Time per token: %1 ms").arg(locale.toString(1e3 * p.secondsPerToken, 'f', 3));
        lines << tr("Tokens/s per user: %1").arg(locale.toString(p.tokensPerSecondPerUser, 'f', 1));
        lines << tr("Time to first token: %1 ms").arg(locale.toString(1e3 * p.ttftSeconds, 'f', 1));
        lines << tr("Wafers: %1 (the fewest that hold the model: %2)").arg(p.devices).arg(p.devicesNeeded);
    } else {
        lines << tr("No prediction: %1").arg(QString::fromStdString(state.predictionError));
    }
    for (const RegionOverflow& o : state.overCapacity)
        lines << tr("Layer %1 on wafer %2 is over SRAM by %3 on its fullest core")
                     .arg(o.layer)
                     .arg(o.device + 1)
                     .arg(views::formatBytes(double(o.overflowBytes)));
    lines << tr("Layout: %1").arg(QString::fromStdString(state.choice.layout.origin));
    m_summary->setText(lines.join(QLatin1Char('\n')));
}

void LayoutDock::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        if (m_state)
            showPrediction(*m_state);
    }
    QDockWidget::changeEvent(event);
}

void LayoutDock::retranslate()
{
    setWindowTitle(tr("Layout"));
    toggleViewAction()->setObjectName(QStringLiteral("layoutDockAction"));
    toggleViewAction()->setText(tr("&Layout"));
    const QString labels[] = {tr("Strategy"),      tr("Experts"),          tr("Weight fill"),      tr("Wafers"),
                              tr("Layer order"),   tr("KV placement"),     tr("Context (tokens)"), tr("Attention"),
                              tr("FFN / experts"), tr("Embeddings / head")};
    for (int i = 0; i < 10; ++i)
        m_labels[i]->setText(labels[i]);
    views::setItemTexts(m_strategy, {tr("Layer-pipelined regions"), tr("WaferLLM whole-mesh tensor-parallel")});
    views::setItemTexts(m_experts, {tr("Each on its own block"), tr("Sliced across the region")});
    m_experts->setToolTip(tr("Where a mixture-of-experts layer's experts sit in the layer's region. Each on its own "
                             "block: only the blocks of the token's active experts work, and the hidden state "
                             "travels to them and back. Sliced: every expert is cut across all of the region's "
                             "cores, so all of them work for the active experts, after an all-reduce that tells "
                             "every core which experts the router picked. Both hold the same weights per core; an "
                             "assumption either way (WaferScope's model), as no MoE layout on a wafer is "
                             "published. Changes the time per token and what the Dataflow layer lights."));
    views::setItemTexts(m_order, {tr("Snake"), tr("Row-major"), tr("Column-major")});
    views::setItemTexts(m_kv, {tr("Shift"), tr("Concat")});
    m_strategy->setToolTip(tr("How layers map onto the mesh: one rectangular region per layer with the wafers in a "
                              "pipeline, or every layer spread over the whole mesh of one wafer (WaferLLM). Changes "
                              "the regions, the wafer count and the time per token."));
    m_fill->setToolTip(tr("Fraction of each core's SRAM the placer fills with weights (phi_w); the rest holds the KV "
                          "cache and buffers. Changes the region sizes and the wafers needed."));
    m_wafers->setToolTip(tr("Wafers the prediction uses, at least the fewest that hold the model; extra wafers stay "
                            "idle. Changes the prediction's device count and cost."));
    m_order->setToolTip(tr("How consecutive layers follow each other on a wafer (snake: neighbours across every band "
                           "end). Changes where each layer sits and the hops between layers."));
    m_kv->setToolTip(tr("How the KV cache grows each token: shifted along the region or concatenated. Changes the "
                        "attention time in the prediction."));
    m_context->setToolTip(tr("Tokens of KV cache reserved per layer. Changes the SRAM each region needs, so the "
                             "region sizes and the wafer count."));
    const QString precision = tr("Storage precision of the %1 weights. Changes their bytes per core, the region "
                                 "sizes and the time per token.");
    m_attention->setToolTip(precision.arg(tr("attention (q, k, v, o, norms, biases)")));
    m_ffn->setToolTip(precision.arg(tr("FFN and expert")));
    m_tables->setToolTip(precision.arg(tr("token embedding, LM head and final norm")));
    m_engineButton->setText(tr("Time with the mesh engine"));
    m_engineButton->setToolTip(tr("Execute the layout shown, hand edits included, core by core on the mesh engine "
                                  "with the hardware preset's core and link parameters: one layer per region shape, "
                                  "about a second each for a 70B model."));
    m_edit->setText(tr("Edit by hand on the heatmap"));
    m_edit->setToolTip(tr("Drag a layer's region to move it, drag its edges to resize it, Ctrl+click another region "
                          "to swap the two layers; right-click to put the embedding or the LM head on a region."));
}

} // namespace ws
