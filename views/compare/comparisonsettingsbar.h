#pragma once
// The comparison's settings in one row: model, concurrency, context, the
// agent workflow (steps x tokens), the Chinese answer (characters, tokens per
// character) and the GPU calibration profile. Edits are coalesced and sent
// as one settingsChanged().

#include "views/compare/comparisonsnapshot.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QTimer;

namespace ws::views {

class ComparisonSettingsBar : public QWidget
{
    Q_OBJECT

public:
    explicit ComparisonSettingsBar(QWidget* parent = nullptr);

    // Shows the settings and choices without emitting settingsChanged.
    // The model choices show their display names (`modelNames`, in the order of `modelIds`; an id where empty).
    void setSettings(const ComparisonSettings& settings, const QStringList& modelIds, const QStringList& gpuProfiles,
                     const QStringList& modelNames = {});
    ComparisonSettings settings() const;

    QComboBox* modelCombo() const { return m_model; }
    QSpinBox* concurrencySpin() const { return m_concurrency; }
    QSpinBox* answerCharactersSpin() const { return m_characters; }
    QComboBox* profileCombo() const { return m_profile; }

signals:
    void settingsChanged(const ws::views::ComparisonSettings& settings);

private:
    void changed();

    ComparisonSettings m_shown;
    bool m_updating = false;
    QComboBox* m_model = nullptr;
    QSpinBox* m_concurrency = nullptr;
    QSpinBox* m_context = nullptr;
    QSpinBox* m_agentSteps = nullptr;
    QSpinBox* m_agentTokens = nullptr;
    QSpinBox* m_characters = nullptr;
    QDoubleSpinBox* m_tpcLow = nullptr;
    QDoubleSpinBox* m_tpcHigh = nullptr;
    QComboBox* m_profile = nullptr;
    QTimer* m_debounce = nullptr;
};

} // namespace ws::views
