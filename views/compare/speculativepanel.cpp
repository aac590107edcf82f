#include "views/compare/speculativepanel.h"

#include "views/charts/chartformat.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ws::views {

SpeculativePanel::SpeculativePanel(QWidget* parent) : QWidget(parent)
{
    m_intro = new QLabel(
        tr("<b>Speculative decoding</b>: a small draft model proposes k tokens one at a time and the target "
           "model verifies k + 1 in one pass; a step yields E = (1 − a<sup>k+1</sup>) / (1 − a) tokens at "
           "acceptance rate a. In plain target tokens the step costs k × c for the drafts (c: a draft token's "
           "time over a target token's) plus v for the verify, so it pays only when k c + v &lt; E. On a GPU the "
           "k + 1 tokens share one pass over the weights (v ≈ 1); on a wafer each core also reads its weights "
           "once for the k + 1 tokens and pays only its SIMD time per further token, so v stays well under k + 1 "
           "(a slow draft can still make it lose)."));
    m_intro->setWordWrap(true);
    m_intro->setTextFormat(Qt::RichText);
    m_grid = new QGridLayout;
    m_grid->setHorizontalSpacing(10);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(m_intro);
    layout->addLayout(m_grid);
    layout->addStretch(1);
}

QString SpeculativePanel::effectText(const ComparisonSystem& sys)
{
    if (!sys.ok)
        return sys.error;
    const SpeculativeDefaults& d = sys.speculativeDefaults;
    if (!sys.speculative)
        return d.vendorUses ? tr("off here; the vendor runs it (see the tooltip)") : tr("off");
    const SpeculativeEffect& e = sys.speculativeEffect;
    const Prediction& p = sys.prediction;
    const QString numbers = tr("E = %1 tokens per step; drafts %2 + verify %3 = %4 target tokens")
                                .arg(formatSignificant(e.expectedTokensPerStep), formatSignificant(e.draftTargetTokens),
                                     formatSignificant(e.verifyTargetTokens),
                                     formatSignificant(e.draftTargetTokens + e.verifyTargetTokens));
    // On a wafer the draft holds its own cores: a strip beside the target or a wafer of its own after the
    // target's (engine/predict/speculative.h chooseDraftHome).
    const QString share =
        p.draftHome == "own_wafer"
            ? tr("; the draft on a wafer of its own (the last of %1, %2 cores), %3 ms per step for its k draft tokens")
                  .arg(p.devices)
                  .arg(QLocale().toString(qlonglong(p.draftCores)), formatSignificant(p.draftSecondsPerStep * 1e3))
        : p.draftCores > 0 && p.usableCoresPerDevice > 0
            ? tr("; the draft on its own %1 cores (%2% of the %3 usable cores of a wafer), %4 ms per step "
                 "for its k draft tokens")
                  .arg(QLocale().toString(qlonglong(p.draftCores)),
                       formatSignificant(100.0 * double(p.draftCores) / double(p.usableCoresPerDevice)),
                       QLocale().toString(qlonglong(p.usableCoresPerDevice)),
                       formatSignificant(p.draftSecondsPerStep * 1e3))
            : QString();
    if (e.slower())
        return tr("%1 tokens/s, %2× slower than %3 without it: %4 > E%5")
                   .arg(formatSignificant(p.tokensPerSecondPerUser), formatSignificant(1 / e.speedup, 2),
                        formatSignificant(sys.plainTokensPerSecondPerUser), numbers,
                        e.verifyTargetTokens > e.expectedTokensPerStep
                            ? tr(" (the verify alone costs more than a step yields)")
                            : QString()) +
               share;
    return tr("%1 tokens/s, %2× faster than %3 without it: %4 < E")
               .arg(formatSignificant(p.tokensPerSecondPerUser), formatSignificant(e.speedup, 2),
                    formatSignificant(sys.plainTokensPerSecondPerUser), numbers) +
           share;
}

void SpeculativePanel::rebuild(const ComparisonSnapshot& s)
{
    while (QLayoutItem* item = m_grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_rows.clear();
    const QStringList headers = {tr("System"), tr("Draft model"), tr("Draft tokens k"), tr("Acceptance a"),
                                 tr("Effect (engine prediction)")};
    for (int c = 0; c < headers.size(); ++c)
        m_grid->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(headers[c])), 0, c);
    for (size_t i = 0; i < s.systems.size(); ++i) {
        Row row;
        row.hardwareId = s.systems[i].hardwareId;
        row.enabled = new QCheckBox(s.systems[i].label);
        row.draft = new QComboBox;
        row.draft->addItem(tr("default draft"), QString());
        for (const QString& id : s.modelIds)
            row.draft->addItem(id, id);
        row.tokens = new QSpinBox;
        row.tokens->setRange(1, 16);
        row.acceptance = new QDoubleSpinBox;
        row.acceptance->setRange(0.0, 1.0);
        row.acceptance->setSingleStep(0.05);
        row.acceptance->setDecimals(2);
        row.tokens->setKeyboardTracking(false);
        row.acceptance->setKeyboardTracking(false);
        row.effect = new QLabel;
        row.effect->setWordWrap(true);
        const int r = int(i) + 1;
        m_grid->addWidget(row.enabled, r, 0);
        m_grid->addWidget(row.draft, r, 1);
        m_grid->addWidget(row.tokens, r, 2);
        m_grid->addWidget(row.acceptance, r, 3);
        m_grid->addWidget(row.effect, r, 4);
        connect(row.enabled, &QCheckBox::toggled, this, [this, i] { emitRow(i); });
        connect(row.draft, &QComboBox::currentIndexChanged, this, [this, i] { emitRow(i); });
        connect(row.tokens, &QSpinBox::valueChanged, this, [this, i] { emitRow(i); });
        connect(row.acceptance, &QDoubleSpinBox::valueChanged, this, [this, i] { emitRow(i); });
        m_rows.push_back(row);
    }
    m_grid->setColumnStretch(4, 1);
}

void SpeculativePanel::setSnapshot(const ComparisonSnapshot& s)
{
    bool same = m_rows.size() == s.systems.size();
    for (size_t i = 0; same && i < m_rows.size(); ++i)
        same = m_rows[i].hardwareId == s.systems[i].hardwareId;
    m_filling = true;
    if (!same)
        rebuild(s);
    for (size_t i = 0; i < m_rows.size(); ++i) {
        const ComparisonSystem& sys = s.systems[i];
        const SpeculativeDefaults& d = sys.speculativeDefaults;
        const SpeculativeChoice choice = s.settings.speculative.value(
            sys.hardwareId, SpeculativeChoice{false, QString(), d.tokensPerStep, d.acceptanceRate});
        Row& row = m_rows[i];
        row.enabled->setChecked(choice.enabled);
        row.draft->setCurrentIndex(std::max(0, row.draft->findData(choice.draftModelId)));
        row.draft->setItemText(0, sys.defaultDraftId.isEmpty() ? tr("default draft (none shares the vocabulary)")
                                                               : tr("default: %1").arg(sys.defaultDraftId));
        row.tokens->setValue(choice.tokensPerStep);
        row.acceptance->setValue(choice.acceptanceRate);
        row.effect->setText(effectText(sys));
        const QString sources = tr("Vendor: %1\nDraft tokens k (default %2): %3\nAcceptance a (default %4): %5")
                                    .arg(QString::fromStdString(d.vendorSource))
                                    .arg(d.tokensPerStep)
                                    .arg(QString::fromStdString(d.tokensPerStepSource))
                                    .arg(d.acceptanceRate)
                                    .arg(QString::fromStdString(d.acceptanceRateSource));
        row.enabled->setToolTip(sources);
        row.tokens->setToolTip(sources);
        row.acceptance->setToolTip(sources);
        row.draft->setToolTip(tr("The draft must share the target's vocabulary (verification compares token ids); "
                                 "the default is the smallest preset of the same family and vocabulary. On a wafer "
                                 "the draft holds its own strip of cores beside the target (the fewest columns that "
                                 "hold it), the target the rest, and each is timed on its own cores."));
        row.effect->setToolTip(sources);
    }
    m_filling = false;
}

void SpeculativePanel::emitRow(size_t i)
{
    if (m_filling || i >= m_rows.size())
        return;
    const Row& row = m_rows[i];
    SpeculativeChoice c;
    c.enabled = row.enabled->isChecked();
    c.draftModelId = row.draft->currentData().toString();
    c.tokensPerStep = row.tokens->value();
    c.acceptanceRate = row.acceptance->value();
    emit choiceChanged(row.hardwareId, c);
}

} // namespace ws::views
