#include "app/record/recorddialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace ws {

RecordDialog::RecordDialog(QWidget* parent)
    : QDialog(parent), m_format(new QComboBox(this)), m_width(new QSpinBox(this)), m_height(new QSpinBox(this)),
      m_fps(new QSpinBox(this)), m_duration(new QSpinBox(this)), m_includeChat(new QCheckBox(this))
{
    setWindowTitle(tr("Record"));
    for (VideoFormat format : {VideoFormat::Mp4, VideoFormat::WebM, VideoFormat::Gif})
        m_format->addItem(videoFormatName(format), int(format));
    for (QSpinBox* side : {m_width, m_height}) {
        side->setRange(kMinVideoSide, kMaxVideoSide);
        side->setSuffix(tr(" px"));
    }
    m_fps->setRange(kMinVideoFps, kMaxVideoFps);
    m_fps->setSuffix(tr(" fps"));
    m_duration->setRange(1, 600);
    m_duration->setSuffix(tr(" s"));
    m_includeChat->setText(tr("Include the chat pane"));

    auto* size = new QHBoxLayout;
    size->addWidget(m_width);
    size->addWidget(new QLabel(QStringLiteral("\u00d7"), this));
    size->addWidget(m_height);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Frame size:"), size);
    form->addRow(tr("Frame rate:"), m_fps);
    form->addRow(tr("Length:"), m_duration);
    form->addRow(QString(), m_includeChat);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Record…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    setOptions(RecordOptions{});
}

void RecordDialog::setOptions(const RecordOptions& options)
{
    m_format->setCurrentIndex(m_format->findData(int(options.video.format)));
    m_width->setValue(options.video.frameSize.width());
    m_height->setValue(options.video.frameSize.height());
    m_fps->setValue(options.video.fps);
    m_duration->setValue(options.durationSeconds);
    m_includeChat->setChecked(options.includeChat);
}

RecordOptions RecordDialog::options() const
{
    RecordOptions options;
    options.video.format = VideoFormat(m_format->currentData().toInt());
    options.video.frameSize = QSize(m_width->value(), m_height->value());
    options.video.fps = m_fps->value();
    options.durationSeconds = m_duration->value();
    options.includeChat = m_includeChat->isChecked();
    return options;
}

} // namespace ws
