#include "views/chat/chatsettingspanel.h"

#include "views/chat/chatstats.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>

#include <iterator>

namespace ws::views {

ChatSettingsPanel::ChatSettingsPanel(QWidget* parent)
    : QWidget(parent), m_systemPrompt(new QPlainTextEdit(this)), m_mode(new QComboBox(this)),
      m_temperature(new QDoubleSpinBox(this)), m_topK(new QSpinBox(this)), m_topP(new QDoubleSpinBox(this)),
      m_minP(new QDoubleSpinBox(this)), m_repeatPenalty(new QDoubleSpinBox(this)), m_seed(new QSpinBox(this)),
      m_maxTokens(new QSpinBox(this)), m_pace(new QComboBox(this)), m_context(new QSpinBox(this)),
      m_kvCache(new QComboBox(this)), m_contextFull(new QComboBox(this)), m_weights(new QComboBox(this))
{
    m_systemPrompt->setMaximumHeight(m_systemPrompt->fontMetrics().lineSpacing() * 4);
    m_systemPrompt->setTabChangesFocus(true);
    m_temperature->setRange(0.0, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    m_topK->setRange(0, 1000);
    m_topP->setRange(0.01, 1.0);
    m_topP->setSingleStep(0.05);
    m_topP->setDecimals(2);
    m_topP->setValue(1.0);
    // The CLI's --min-p and --repeat-penalty ranges; the defaults are the sampler's (off).
    const SamplerSettings off;
    m_minP->setRange(0.0, 1.0);
    m_minP->setSingleStep(0.01);
    m_minP->setDecimals(2);
    m_minP->setValue(off.minP);
    m_repeatPenalty->setRange(0.01, 10.0);
    m_repeatPenalty->setSingleStep(0.05);
    m_repeatPenalty->setDecimals(2);
    m_repeatPenalty->setValue(off.repetitionPenalty);
    m_seed->setRange(0, 2147483647);
    m_maxTokens->setRange(1, 32768);
    m_maxTokens->setValue(256);
    const ChatSettings defaults;
    m_context->setRange(1, 1 << 24); // the loader's limit until a model says its own
    m_context->setSingleStep(1024);
    m_context->setValue(defaults.contextLength);
    m_kvCache->addItem(QStringLiteral("F16"), int(KvCacheType::F16));
    m_kvCache->addItem(QStringLiteral("F32"), int(KvCacheType::F32));
    m_context->setObjectName(QStringLiteral("chatContextLength"));
    m_kvCache->setObjectName(QStringLiteral("chatKvCacheType"));
    m_contextFull->setObjectName(QStringLiteral("chatContextFullPolicy"));
    m_weights->setObjectName(QStringLiteral("chatModelWeights"));

    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
    for (QWidget* field :
         std::initializer_list<QWidget*>{m_systemPrompt, m_mode, m_temperature, m_topK, m_topP, m_minP, m_repeatPenalty,
                                         m_seed, m_maxTokens, m_pace, m_context, m_kvCache, m_contextFull, m_weights})
        m_form->addRow(new QLabel(this), field);
    retranslate();

    auto changed = [this] { emit settingsChanged(); };
    connect(m_systemPrompt, &QPlainTextEdit::textChanged, this, changed);
    connect(m_mode, &QComboBox::currentIndexChanged, this, changed);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_topK, &QSpinBox::valueChanged, this, changed);
    connect(m_topP, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_minP, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_repeatPenalty, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_seed, &QSpinBox::valueChanged, this, changed);
    connect(m_maxTokens, &QSpinBox::valueChanged, this, changed);
    connect(m_pace, &QComboBox::currentIndexChanged, this, changed);
    connect(m_context, &QSpinBox::valueChanged, this, changed);
    connect(m_kvCache, &QComboBox::currentIndexChanged, this, changed);
    connect(m_contextFull, &QComboBox::currentIndexChanged, this, changed);
    connect(m_weights, &QComboBox::currentIndexChanged, this, changed);
}

void ChatSettingsPanel::setTrainedContext(int tokens)
{
    m_context->setMaximum(tokens > 0 ? tokens : 1 << 24);
}

void ChatSettingsPanel::retranslate()
{
    const QSignalBlocker blockMode(m_mode);
    const int mode = m_mode->currentIndex() < 0 ? int(PromptMode::Auto) : m_mode->currentData().toInt();
    m_mode->clear();
    m_mode->addItem(tr("Automatic (chat template when the model has one)"), int(PromptMode::Auto));
    m_mode->addItem(tr("Chat template"), int(PromptMode::Chat));
    m_mode->addItem(tr("Completion (continue the text)"), int(PromptMode::Completion));
    m_mode->setCurrentIndex(std::max(0, m_mode->findData(mode)));
    m_systemPrompt->setPlaceholderText(tr("Optional instructions for instruct models"));
    m_temperature->setSpecialValueText(tr("0 (greedy)"));
    m_topK->setSpecialValueText(tr("off"));
    m_minP->setSpecialValueText(tr("off"));
    m_repeatPenalty->setToolTip(tr("Above 1 discourages repeating the last 64 tokens (1 = off)"));
    m_pace->setToolTip(tr("Show tokens as fast as this CPU makes them, or at the speed the selected system is "
                          "predicted to reach for this model"));
    selectPace(m_pace->currentData().toString().toStdString());
    {
        const QSignalBlocker block(m_contextFull);
        const int policy =
            m_contextFull->currentIndex() < 0 ? int(ContextFullPolicy::Stop) : m_contextFull->currentData().toInt();
        m_contextFull->clear();
        m_contextFull->addItem(tr("Stop the reply"), int(ContextFullPolicy::Stop));
        m_contextFull->addItem(tr("Leave the oldest turns out (and say so)"), int(ContextFullPolicy::DropOldest));
        m_contextFull->setCurrentIndex(std::max(0, m_contextFull->findData(policy)));
    }
    {
        const QSignalBlocker block(m_weights);
        const int mapped = std::max(0, m_weights->currentIndex());
        m_weights->clear();
        m_weights->addItem(tr("Read into memory (decodes fastest)"));
        m_weights->addItem(tr("Mapped from the file (mmap)"));
        m_weights->setCurrentIndex(mapped);
    }
    m_weights->setToolTip(tr("How the next model opened holds its weights: read whole into memory (huge pages, "
                             "the fastest decoding, and the file on disk no longer matters), or mapped from the "
                             "file (opens at once; if the file changes on disk the reply ends with an error). A "
                             "file larger than half the free memory is always mapped"));
    m_context->setSuffix(tr(" tokens"));
    m_context->setToolTip(tr("Prompt and reply tokens the conversation may use, at most the model's trained "
                             "context; the KV cache grows with the conversation up to it"));
    m_kvCache->setToolTip(tr("F16 halves the KV cache's memory (llama.cpp's default); F32 is exact"));
    const QString labels[] = {tr("System prompt:"),
                              tr("Prompt:"),
                              tr("Temperature:"),
                              tr("Top-k:"),
                              tr("Top-p:"),
                              tr("Min-p:"),
                              tr("Repetition penalty:"),
                              tr("Seed:"),
                              tr("Max new tokens:"),
                              tr("Pace:"),
                              tr("Context:"),
                              tr("KV cache:"),
                              tr("When the context is full:"),
                              tr("Model weights:")};
    for (int row = 0; row < m_form->rowCount() && row < int(std::size(labels)); ++row) {
        if (auto* label = qobject_cast<QLabel*>(m_form->itemAt(row, QFormLayout::LabelRole)->widget()))
            label->setText(labels[row]);
    }
}

void ChatSettingsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

ChatSettings ChatSettingsPanel::settings() const
{
    ChatSettings s;
    s.systemPrompt = m_systemPrompt->toPlainText().toStdString();
    s.mode = PromptMode(m_mode->currentData().toInt());
    s.sampling.temperature = float(m_temperature->value());
    s.sampling.topK = m_topK->value();
    s.sampling.topP = float(m_topP->value());
    s.sampling.minP = float(m_minP->value());
    s.sampling.repetitionPenalty = float(m_repeatPenalty->value());
    s.sampling.seed = uint64_t(m_seed->value());
    s.maxTokens = m_maxTokens->value();
    s.paceSystemId = m_pace->currentData().toString().toStdString();
    s.contextLength = m_context->value();
    s.kvCache = KvCacheType(m_kvCache->currentData().toInt());
    s.mapWeights = m_weights->currentIndex() == 1;
    s.contextFull = ContextFullPolicy(m_contextFull->currentData().toInt());
    return s;
}

void ChatSettingsPanel::setSettings(const ChatSettings& s)
{
    m_systemPrompt->setPlainText(QString::fromStdString(s.systemPrompt));
    m_mode->setCurrentIndex(std::max(0, m_mode->findData(int(s.mode))));
    m_temperature->setValue(s.sampling.temperature);
    m_topK->setValue(s.sampling.topK);
    m_topP->setValue(s.sampling.topP);
    m_minP->setValue(s.sampling.minP);
    m_repeatPenalty->setValue(s.sampling.repetitionPenalty);
    m_seed->setValue(int(std::min<uint64_t>(s.sampling.seed, 2147483647u)));
    m_maxTokens->setValue(s.maxTokens);
    m_context->setValue(s.contextLength);
    m_kvCache->setCurrentIndex(std::max(0, m_kvCache->findData(int(s.kvCache))));
    m_weights->setCurrentIndex(s.mapWeights ? 1 : 0);
    m_contextFull->setCurrentIndex(std::max(0, m_contextFull->findData(int(s.contextFull))));
    selectPace(s.paceSystemId);
}

void ChatSettingsPanel::setSystems(const std::vector<SystemPace>& systems)
{
    const std::string current = m_pace->currentData().toString().toStdString();
    m_systems = systems;
    selectPace(current);
}

void ChatSettingsPanel::selectPace(const std::string& id)
{
    const QSignalBlocker block(m_pace);
    m_pace->clear();
    m_pace->addItem(tr("As fast as this CPU"), QString());
    for (const SystemPace& system : m_systems) {
        if (system.tokensPerSecondPerUser <= 0)
            continue;
        m_pace->addItem(
            tr("At the pace of %1 (%2, predicted)")
                .arg(QString::fromStdString(system.name), ChatStats::formatRate(system.tokensPerSecondPerUser)),
            QString::fromStdString(system.id));
    }
    m_pace->setCurrentIndex(std::max(0, m_pace->findData(QString::fromStdString(id))));
}

const SystemPace* ChatSettingsPanel::paceSystem() const
{
    const std::string id = m_pace->currentData().toString().toStdString();
    for (const SystemPace& system : m_systems) {
        if (!id.empty() && system.id == id)
            return &system;
    }
    return nullptr;
}

} // namespace ws::views
