#include "app/window/scenariobar.h"

#include "app/common/presetlibrary.h"
#include "engine/predict/speculative.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

#include <algorithm>
#include <tuple>

namespace ws {

namespace {
const QString kLoadedId = QStringLiteral(":loaded"); // not a preset id: presets are lower-case words
const Precision kPrecisions[] = {Precision::Fp32, Precision::Bf16, Precision::Fp16, Precision::Fp8,
                                 Precision::Int8, Precision::Int4, Precision::Fp4};
} // namespace

ScenarioBar::ScenarioBar(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->setSpacing(6);
    auto add = [this, layout](QLabel*& label, QComboBox*& combo, int minWidth) {
        label = new QLabel(this);
        combo = new QComboBox(this);
        combo->setMinimumContentsLength(minWidth);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        // Its full width when the window has room; on a narrow screen it may shrink to half (eliding the name).
        combo->setMinimumWidth(combo->minimumSizeHint().width() / 2);
        label->setBuddy(combo);
        layout->addWidget(label);
        layout->addWidget(combo);
        layout->addSpacing(10);
        connect(combo, &QComboBox::currentIndexChanged, this, [this, combo] {
            if (!m_quiet && combo != m_model) // the model's: after its contexts and drafts (modelChosen)
                emit requestChanged();
        });
    };
    add(m_modelLabel, m_model, 16);
    add(m_hardwareLabel, m_hardware, 18);
    add(m_precisionLabel, m_precision, 5);
    add(m_contextLabel, m_context, 12);
    add(m_draftLabel, m_draft, 10);
    m_model->setObjectName(QStringLiteral("scenarioModel"));
    m_hardware->setObjectName(QStringLiteral("scenarioHardware"));
    m_precision->setObjectName(QStringLiteral("scenarioPrecision"));
    m_context->setObjectName(QStringLiteral("scenarioContext"));
    m_draft->setObjectName(QStringLiteral("scenarioDraft"));
    layout->addStretch(1);
    for (Precision p : kPrecisions)
        m_precision->addItem(QString::fromLatin1(precisionId(p).data()).toUpper(), static_cast<int>(p));
    // The context choices depend on the model.
    connect(m_model, &QComboBox::currentIndexChanged, this, &ScenarioBar::modelChosen);
    retranslate();
}

void ScenarioBar::modelChosen()
{
    if (!m_presets)
        return;
    const bool quiet = m_quiet;
    m_quiet = true;
    int64_t context = m_context->currentData().toLongLong();
    QString draft = m_draft->currentData().toString();
    if (loadedModelChosen()) {
        if (!m_kept)
            m_kept = std::pair(context, draft);
        fillContexts(m_loaded->contextLength, loadedContext(context));
    } else {
        if (m_kept) {
            std::tie(context, draft) = *m_kept;
            m_kept.reset();
        }
        m_preset = m_model->currentData().toString();
        const auto model = m_presets->model(m_preset);
        fillContexts(model ? model->contextLength : 0, context);
    }
    fillDrafts(draft);
    m_quiet = quiet;
    if (!m_quiet)
        emit requestChanged();
}

void ScenarioBar::setLoadedModel(const std::optional<ModelConfig>& model)
{
    const bool quiet = m_quiet;
    m_quiet = true;
    const bool chosen = loadedModelChosen();
    if (const int i = m_model->findData(kLoadedId); i >= 0)
        m_model->removeItem(i);
    m_loaded = model;
    if (m_loaded) {
        m_model->addItem(tr("%1 · loaded").arg(QString::fromStdString(m_loaded->name)), kLoadedId);
        m_model->setItemData(m_model->count() - 1,
                             tr("The chat's loaded model, placed on the scenario's hardware (Wafer shows: the "
                                "loaded model)."),
                             Qt::ToolTipRole);
    }
    m_quiet = quiet;
    showLoadedModel(chosen && m_loaded);
}

bool ScenarioBar::loadedModelChosen() const
{
    return m_model->currentData().toString() == kLoadedId;
}

void ScenarioBar::showLoadedModel(bool shown)
{
    const bool quiet = m_quiet;
    m_quiet = true;
    const int i = shown && m_loaded ? m_model->findData(kLoadedId) : m_model->findData(m_preset);
    if (i >= 0)
        m_model->setCurrentIndex(i);
    m_quiet = quiet;
}

int64_t ScenarioBar::loadedContext(int64_t context) const
{
    return m_loaded && m_loaded->contextLength > 0 ? std::min(context, m_loaded->contextLength) : context;
}

QList<int64_t> ScenarioBar::contextChoices()
{
    return {2048, 4096, 8192, 16384, 32768, 65536, 131072};
}

void ScenarioBar::fillContexts(int64_t modelContextTokens, int64_t keep)
{
    const QLocale locale;
    m_context->clear();
    for (int64_t c : contextChoices()) {
        if (modelContextTokens > 0 && c > modelContextTokens)
            break;
        m_context->addItem(tr("%1 tokens").arg(locale.toString(qlonglong(c))), qlonglong(c));
    }
    if (modelContextTokens > 0 && keep > modelContextTokens)
        keep = modelContextTokens; // beyond the model's context: its longest (said when a file asked for more)
    int index = m_context->findData(qlonglong(keep));
    if (index < 0 && keep > 0) {
        // A context from a scenario file that is not one of the usual choices: offer it too.
        int at = 0;
        while (at < m_context->count() && m_context->itemData(at).toLongLong() < keep)
            ++at;
        m_context->insertItem(at, tr("%1 tokens").arg(locale.toString(qlonglong(keep))), qlonglong(keep));
        index = at;
    }
    if (index < 0)
        index = m_context->findData(qlonglong(8192));
    m_context->setCurrentIndex(index < 0 ? m_context->count() - 1 : index);
}

void ScenarioBar::fillDrafts(const QString& keep)
{
    m_draft->clear();
    m_draft->addItem(tr("none"), QString());
    if (!m_presets || loadedModelChosen()) // the loaded model drafts for itself in the chat, not on the wafer
        return;
    const auto target = m_presets->model(m_preset);
    if (!target)
        return;
    std::vector<ModelConfig> candidates;
    for (const QString& id : m_presets->modelIds())
        if (auto m = m_presets->model(id))
            candidates.push_back(std::move(*m));
    for (const ModelConfig* m : draftCandidates(*target, candidates))
        m_draft->addItem(QString::fromStdString(m->name), QString::fromStdString(m->id));
    m_draft->setCurrentIndex(std::max(0, m_draft->findData(keep)));
}

void ScenarioBar::setPresets(const PresetLibrary& presets)
{
    m_presets = &presets;
    m_quiet = true;
    m_model->clear();
    for (const QString& id : presets.modelIds()) {
        const auto model = presets.model(id);
        m_model->addItem(model ? QString::fromStdString(model->name) : id, id);
    }
    m_hardware->clear();
    for (const QString& id : presets.hardwareIds()) {
        const auto hw = presets.hardware(id);
        // The heatmap draws a core mesh, so only wafer-scale hardware is offered here.
        if (hw && hw->kind == HardwareKind::Wafer)
            m_hardware->addItem(QString::fromStdString(hw->name), id);
    }
    setLoadedModel(m_loaded); // after the presets
    m_quiet = true;
    m_preset = m_model->currentData().toString();
    const auto model = presets.model(m_preset);
    fillContexts(model ? model->contextLength : 0, 8192);
    fillDrafts({});
    m_quiet = false;
}

Scenario ScenarioBar::request(Scenario base) const
{
    if (!loadedModelChosen()) {
        base.modelPreset = m_preset;
        base.contextTokens = m_context->currentData().toLongLong();
        base.draftModel = m_draft->currentData().toString();
    } else if (const int64_t chosen = m_context->currentData().toLongLong();
               chosen != loadedContext(base.contextTokens)) {
        base.contextTokens = chosen; // chosen for the loaded model; the scenario's preset keeps its draft
    }
    base.hardwarePreset = m_hardware->currentData().toString();
    base.precision = static_cast<Precision>(m_precision->currentData().toInt());
    return base;
}

void ScenarioBar::setRequest(const Scenario& request)
{
    m_quiet = true;
    if (const int i = m_model->findData(request.modelPreset); i >= 0) {
        m_preset = request.modelPreset;
        if (!loadedModelChosen()) // the loaded model stays named while the wafer shows it
            m_model->setCurrentIndex(i);
    }
    if (const int i = m_hardware->findData(request.hardwarePreset); i >= 0)
        m_hardware->setCurrentIndex(i);
    if (const int i = m_precision->findData(static_cast<int>(request.precision)); i >= 0)
        m_precision->setCurrentIndex(i);
    if (loadedModelChosen()) {
        m_kept = std::pair(request.contextTokens, request.draftModel);
        fillContexts(m_loaded->contextLength, loadedContext(request.contextTokens));
    } else {
        const auto model = m_presets ? m_presets->model(request.modelPreset) : Expected<ModelConfig>(ModelConfig{});
        fillContexts(model ? model->contextLength : 0, request.contextTokens);
    }
    fillDrafts(request.draftModel);
    m_quiet = false;
}

void ScenarioBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ScenarioBar::retranslate()
{
    m_modelLabel->setText(tr("&Model"));
    m_hardwareLabel->setText(tr("&Hardware"));
    m_precisionLabel->setText(tr("&Precision"));
    m_contextLabel->setText(tr("&Context"));
    m_draftLabel->setText(tr("&Draft"));
    m_draft->setToolTip(tr("Speculative decoding's draft model: a smaller preset with the model's vocabulary. It "
                           "gets its own strip of cores at the left edge of wafer 1, the fewest columns that hold "
                           "it; the model is placed on the rest."));
    if (m_draft->count() > 0)
        m_draft->setItemText(0, tr("none"));
    m_model->setToolTip(tr("Model architecture from the built-in presets (layers, sizes and heads cite their "
                           "Hugging Face config)."));
    m_hardware->setToolTip(tr("Wafer-scale hardware preset. Every figure in a preset cites its source."));
    m_precision->setToolTip(tr("Storage precision of the weights. INT8, INT4 and FP4 (MXFP4) include their block "
                               "scales (8.5, 4.5 and 4.25 bits per weight)."));
    m_context->setToolTip(tr("Tokens of context the KV cache is sized for. Limited to the model's maximum."));
    const QLocale locale;
    const bool quiet = m_quiet;
    m_quiet = true;
    for (int i = 0; i < m_context->count(); ++i)
        m_context->setItemText(i, tr("%1 tokens").arg(locale.toString(m_context->itemData(i).toLongLong())));
    m_quiet = quiet;
}

} // namespace ws
