#include "app/session/livewafer.h"

#include "views/widgets/comboitems.h"

// LiveWafer's row and its words: the choice, the slow-motion box and the header line saying which model wrote
// the text and whose timing the wafer shows.

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace ws {

void LiveWafer::buildRow()
{
    m_row->setObjectName(QStringLiteral("liveWaferRow"));
    m_choice->setObjectName(QStringLiteral("waferShowsChoice"));
    m_choice->addItems({QString(), QString()});
    m_header->setObjectName(QStringLiteral("liveWaferHeader"));
    m_header->setWordWrap(true);
    auto* label = new QLabel(m_row);
    label->setObjectName(QStringLiteral("waferShowsLabel"));
    label->setBuddy(m_choice);
    auto* choice = new QHBoxLayout;
    choice->setContentsMargins(0, 0, 0, 0);
    choice->addWidget(label);
    choice->addWidget(m_choice, 1);
    m_slowMotionBox->setObjectName(QStringLiteral("slowMotionBox"));
    m_slowMotionBox->setChecked(m_slowMotionOn);
    choice->addWidget(m_slowMotionBox);
    auto* layout = new QVBoxLayout(m_row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(choice);
    layout->addWidget(m_header);
}

void LiveWafer::retranslate()
{
    if (auto* label = m_row->findChild<QLabel*>(QStringLiteral("waferShowsLabel")))
        label->setText(tr("&Wafer shows:"));
    views::setItemTexts(m_choice, {tr("the scenario's model, at its predicted pace"), tr("the loaded model")});
    m_choice->setToolTip(tr("What the main wafer plays while the chat answers: one token of the scenario "
                            "model's dataflow per token, or the loaded model itself placed on the scenario's "
                            "hardware."));
    m_slowMotionBox->setText(tr("&Slow motion"));
    m_slowMotionBox->setToolTip(
        tr("Shows the scenario model's answer slowed down to about reading pace (238 words per minute "
           "[Reading-rate], 4/3 tokens per word [Tokens-per-word]), so each token's dataflow can be seen. The rate "
           "named stays the predicted one. Takes effect from the next answer."));
    updateHeader();
}

void LiveWafer::updateHeader()
{
    const QLocale locale;
    QString text;
    QString chat;
    if (m_model)
        chat = QString::fromStdString(m_model->displayName); // with its file's name (importedModelName)
    if (!m_model) {
        text = tr("Open a model: the main wafer follows its answer token by token.");
    } else if (!m_error.isEmpty()) {
        text = tr("The wafer cannot follow the chat: %1").arg(m_error);
    } else if (m_shows == Shows::LoadedModel) {
        text = m_chatPlacement ? tr("Text and wafer: %1, placed on %2 × %3 and lit token by token as it writes.")
                                     .arg(chat, locale.toString(m_chatPlacement->devices),
                                          QString::fromStdString(m_chatPlacement->hardware().name))
                               : tr("Text and wafer: %1. Placing it on the scenario's hardware…").arg(chat);
    } else if (m_mainPlacement && m_scenarioPace) {
        text = tr("Text: %1 on this CPU. Wafer timing: %2 on %3 × %4, one token of its dataflow per token, at "
                  "its predicted %5 tokens/s.")
                   .arg(chat, QString::fromStdString(m_mainPlacement->model().name),
                        locale.toString(m_mainPlacement->devices),
                        QString::fromStdString(m_mainPlacement->hardware().name),
                        locale.toString(m_scenarioPace->tokensPerSecondPerUser, 'f', 0));
        if (const double slowed = slowMotion(); slowed > 1)
            text +=
                QLatin1Char(' ') + tr("Shown slowed %1× (%2 tokens/s) so each token can be followed.")
                                       .arg(locale.toString(slowed, 'f', 0),
                                            locale.toString(m_scenarioPace->tokensPerSecondPerUser / slowed, 'f', 1));
    } else {
        text = tr("Text: %1 on this CPU. Preparing the scenario model's timing…").arg(chat);
    }
    m_header->setText(text);
}

} // namespace ws
