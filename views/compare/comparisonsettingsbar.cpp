#include "views/compare/comparisonsettingsbar.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTimer>

namespace ws::views {

namespace {
QSpinBox* spin(int lo, int hi, const QString& tip)
{
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setToolTip(tip);
    s->setKeyboardTracking(false);
    return s;
}
QDoubleSpinBox* dspin(const QString& tip)
{
    auto* s = new QDoubleSpinBox;
    s->setRange(0.1, 10.0);
    s->setDecimals(2);
    s->setSingleStep(0.1);
    s->setToolTip(tip);
    s->setKeyboardTracking(false);
    return s;
}
} // namespace

ComparisonSettingsBar::ComparisonSettingsBar(QWidget* parent) : QWidget(parent)
{
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("compareModel"));
    m_model->setToolTip(tr("Model preset (resources/presets/models); every system runs the same model"));
    m_concurrency = spin(1, 65536, tr("Requests decoding at once (users); the bars are per user at this concurrency"));
    m_context = spin(1, 1 << 20, tr("Tokens already in the KV cache while decoding"));
    m_agentSteps = spin(1, 1000, tr("Agent workflow: steps (default: an example of 5 rounds)"));
    m_agentTokens = spin(1, 1000000, tr("Agent workflow: tokens generated per step (default: an example of 500)"));
    m_characters = spin(1, 10000000, tr("Length of a Chinese answer in characters"));
    m_tpcLow = dspin(tr("Tokens per Chinese character, low end (default 0.56: Alibaba Cloud, one Qwen token is "
                        "1.5–1.8 characters, https://developer.aliyun.com/ask/689758)"));
    m_tpcHigh = dspin(tr("Tokens per Chinese character, high end (default 0.67: Alibaba Cloud, one Qwen token is "
                         "1.5–1.8 characters, https://developer.aliyun.com/ask/689758)"));
    m_profile = new QComboBox;
    m_profile->setToolTip(tr("Calibration profile for the GPU predictions; automatic uses the profile measured on "
                             "each GPU, else the TensorRT-LLM H200 profile"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto add = [layout](const QString& label, QWidget* w) {
        auto* l = new QLabel(label);
        l->setBuddy(w);
        l->setToolTip(w->toolTip());
        layout->addWidget(l);
        layout->addWidget(w);
        layout->addSpacing(6);
    };
    add(tr("&Model"), m_model);
    add(tr("&Users"), m_concurrency);
    add(tr("Conte&xt"), m_context);
    add(tr("&Agent steps"), m_agentSteps);
    add(tr("× tokens"), m_agentTokens);
    add(tr("Answer (c&haracters)"), m_characters);
    add(tr("Tokens/character"), m_tpcLow);
    add(tr("to"), m_tpcHigh);
    add(tr("GPU &profile"), m_profile);
    layout->addStretch(1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(120);
    connect(m_debounce, &QTimer::timeout, this, [this] {
        const ComparisonSettings s = settings();
        if (s == m_shown)
            return;
        m_shown = s;
        emit settingsChanged(s);
    });
    for (QSpinBox* s : {m_concurrency, m_context, m_agentSteps, m_agentTokens, m_characters})
        connect(s, &QSpinBox::valueChanged, this, &ComparisonSettingsBar::changed);
    for (QDoubleSpinBox* s : {m_tpcLow, m_tpcHigh})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ComparisonSettingsBar::changed);
    for (QComboBox* c : {m_model, m_profile})
        connect(c, &QComboBox::currentIndexChanged, this, &ComparisonSettingsBar::changed);
}

void ComparisonSettingsBar::changed()
{
    if (!m_updating)
        m_debounce->start();
}

void ComparisonSettingsBar::setSettings(const ComparisonSettings& s, const QStringList& modelIds,
                                        const QStringList& gpuProfiles, const QStringList& modelNames)
{
    m_updating = true;
    m_model->clear();
    for (qsizetype i = 0; i < modelIds.size(); ++i)
        m_model->addItem(i < modelNames.size() && !modelNames[i].isEmpty() ? modelNames[i] : modelIds[i], modelIds[i]);
    m_model->setCurrentIndex(int(modelIds.indexOf(s.modelId)));
    m_profile->clear();
    m_profile->addItem(tr("automatic"), QString());
    for (const QString& p : gpuProfiles)
        m_profile->addItem(p, p);
    m_profile->setCurrentIndex(std::max(0, m_profile->findData(s.gpuProfile)));
    m_concurrency->setValue(s.workload.concurrency);
    m_context->setValue(int(s.workload.contextTokens));
    m_agentSteps->setValue(s.workload.agentSteps);
    m_agentTokens->setValue(int(s.workload.agentTokensPerStep));
    m_characters->setValue(int(s.workload.answerCharacters));
    m_tpcLow->setValue(s.workload.tokensPerCharacterLow);
    m_tpcHigh->setValue(s.workload.tokensPerCharacterHigh);
    m_shown = settings();
    m_shown.workload.promptTokens = s.workload.promptTokens;
    m_shown.workload.outputTokens = s.workload.outputTokens;
    m_updating = false;
}

ComparisonSettings ComparisonSettingsBar::settings() const
{
    ComparisonSettings s = m_shown;
    s.modelId = m_model->currentData().toString();
    s.workload.concurrency = m_concurrency->value();
    s.workload.contextTokens = m_context->value();
    s.workload.agentSteps = m_agentSteps->value();
    s.workload.agentTokensPerStep = m_agentTokens->value();
    s.workload.answerCharacters = m_characters->value();
    s.workload.tokensPerCharacterLow = std::min(m_tpcLow->value(), m_tpcHigh->value());
    s.workload.tokensPerCharacterHigh = std::max(m_tpcLow->value(), m_tpcHigh->value());
    s.gpuProfile = m_profile->currentData().toString();
    return s;
}

} // namespace ws::views
