#pragma once
// The chat pane's settings: system prompt, prompt mode (chat template or
// completion), sampling (temperature, top-k, top-p, min-p, repetition
// penalty, seed: the sampler's own SamplerSettings), the token limit
// the pace (as fast as this CPU, or at a compared system's predicted
// speed), and the conversation's memory: the context length (default 4,096
// tokens, up to the model's trained context), the KV cache type (F16 as
// llama.cpp, or F32) and what happens when the context is full (stop, or
// leave the oldest turns out).

#include "engine/session/chatturn.h"
#include "engine/session/sessionsnapshot.h"

#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QPlainTextEdit;
class QSpinBox;

namespace ws::views {

struct ChatSettings
{
    std::string systemPrompt;
    PromptMode mode = PromptMode::Auto;
    SamplerSettings sampling;
    int maxTokens = 256;
    std::string paceSystemId; // empty: as fast as this CPU
    int contextLength = 4096; // llama.cpp's default context
    KvCacheType kvCache = KvCacheType::F16;
    ContextFullPolicy contextFull = ContextFullPolicy::Stop;
    // Map the model file instead of reading it into memory at open (LoadBudget::mapWeights); applies to
    // the next model opened.
    bool mapWeights = false;
};

class ChatSettingsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChatSettingsPanel(QWidget* parent = nullptr);

    ChatSettings settings() const;
    void setSettings(const ChatSettings& settings);
    // The systems the pace can follow; keeps the choice when it still exists.
    void setSystems(const std::vector<SystemPace>& systems);
    const std::vector<SystemPace>& systems() const { return m_systems; }
    // The system chosen for the pace, or nullptr for "as fast as this CPU".
    const SystemPace* paceSystem() const;
    // The loaded model's trained context: the most the context may be (0: no model, no limit known).
    void setTrainedContext(int tokens);

signals:
    void settingsChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void selectPace(const std::string& id);

    std::vector<SystemPace> m_systems;
    QPlainTextEdit* m_systemPrompt;
    QComboBox* m_mode;
    QDoubleSpinBox* m_temperature;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QDoubleSpinBox* m_minP;
    QDoubleSpinBox* m_repeatPenalty;
    QSpinBox* m_seed;
    QSpinBox* m_maxTokens;
    QComboBox* m_pace;
    QSpinBox* m_context;
    QComboBox* m_kvCache;
    QComboBox* m_contextFull;
    QComboBox* m_weights;
    QFormLayout* m_form = nullptr;
};

} // namespace ws::views
