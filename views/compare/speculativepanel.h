#pragma once
// Speculative decoding per system: a row for each compared system with a
// switch, the draft model, the draft length k and the acceptance rate (each
// starting from the engine's sourced defaults, engine/predict/speculative.h),
// and what it does to that system's prediction: the tokens a step yields (E)
// against what the k drafts and the verify of k + 1 tokens cost in plain
// target tokens, so a user sees when it slows a system down (k c + v > E) and
// why. Edits go out as choiceChanged; the app recomputes.

#include "views/compare/comparisonsnapshot.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace ws::views {

class SpeculativePanel : public QWidget
{
    Q_OBJECT

public:
    explicit SpeculativePanel(QWidget* parent = nullptr);

    void setSnapshot(const ComparisonSnapshot& snapshot);

    struct Row
    {
        QString hardwareId;
        QCheckBox* enabled = nullptr;
        QComboBox* draft = nullptr;
        QSpinBox* tokens = nullptr;
        QDoubleSpinBox* acceptance = nullptr;
        QLabel* effect = nullptr;
    };
    const std::vector<Row>& rows() const { return m_rows; }
    // What a row's effect column says for a system (also its text in the panel).
    static QString effectText(const ComparisonSystem& system);

signals:
    void choiceChanged(const QString& hardwareId, const ws::views::SpeculativeChoice& choice);

private:
    void rebuild(const ComparisonSnapshot& snapshot);
    void emitRow(size_t index);

    QGridLayout* m_grid = nullptr;
    QLabel* m_intro = nullptr;
    std::vector<Row> m_rows;
    bool m_filling = false;
};

} // namespace ws::views
