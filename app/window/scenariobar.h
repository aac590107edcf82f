#pragma once
// The scenario pickers above the heatmap: model, wafer hardware, precision,
// context length and speculative decoding's draft model (none, or a preset
// that can draft for the model), filled from the PresetLibrary. Emits requestChanged
// whenever the user changes one of them. While the chat has a model loaded, the
// model picker offers it too (its name, "· loaded"): chosen while the wafer shows
// it, so the bar always names the model on stage (issue 31).

#include "app/scenario/scenario.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;

namespace ws {

class PresetLibrary;

class ScenarioBar : public QWidget
{
    Q_OBJECT

public:
    explicit ScenarioBar(QWidget* parent = nullptr);

    void setPresets(const PresetLibrary& presets);
    // `base` with the pickers' choice: model preset, hardware, precision, context and draft model.
    Scenario request(Scenario base = {}) const;
    // Selects the scenario's choice in the pickers; unknown ids leave that picker as it is. Emits nothing.
    void setRequest(const Scenario& request);

    // The chat's loaded model as a choice of its own (nullopt: none loaded). Emits nothing.
    void setLoadedModel(const std::optional<ModelConfig>& model);
    // Whether the loaded model is the choice; showLoadedModel selects it, or the scenario's preset again,
    // without emitting requestChanged (the wafer already shows it).
    bool loadedModelChosen() const;
    void showLoadedModel(bool shown);

    static QList<int64_t> contextChoices();

signals:
    void requestChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fillContexts(int64_t modelContextTokens, int64_t keep);
    void fillDrafts(const QString& keep);
    void modelChosen();
    int64_t loadedContext(int64_t context) const; // the context the loaded model is placed with

    const PresetLibrary* m_presets = nullptr;
    QLabel* m_modelLabel = nullptr;
    QLabel* m_hardwareLabel = nullptr;
    QLabel* m_precisionLabel = nullptr;
    QLabel* m_contextLabel = nullptr;
    QLabel* m_draftLabel = nullptr;
    QComboBox* m_model = nullptr;
    QComboBox* m_hardware = nullptr;
    QComboBox* m_precision = nullptr;
    QComboBox* m_context = nullptr;
    QComboBox* m_draft = nullptr;
    bool m_quiet = false;
    std::optional<ModelConfig> m_loaded;
    QString m_preset; // the preset chosen before the loaded model was
    // The preset's context and draft while the loaded model is chosen (restored when a preset is chosen again).
    std::optional<std::pair<int64_t, QString>> m_kept;
};

} // namespace ws
