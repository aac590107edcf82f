#pragma once
// The scenario pickers above the heatmap: model, wafer hardware, precision,
// context length and speculative decoding's draft model (none, or a preset
// that can draft for the model), filled from the PresetLibrary. Emits requestChanged
// whenever the user changes one of them.

#include "app/scenario/scenario.h"

#include <QWidget>

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

    static QList<int64_t> contextChoices();

signals:
    void requestChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fillContexts(int64_t modelContextTokens, int64_t keep);
    void fillDrafts(const QString& keep);

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
};

} // namespace ws
