#include "app/window/windowstatus.h"

#include "app/stage/stage.h"
#include "views/mesh/devicestrip.h"
#include "views/mesh/meshview.h"

#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QScrollArea>
#include <QStatusBar>

namespace ws {

WindowStatus::WindowStatus(QMainWindow* window, Stage* stage, QWidget* stripParent)
    : QObject(window), m_window(window), m_stage(stage), m_strip(new views::DeviceStrip(stripParent)),
      m_stripArea(new QScrollArea(stripParent)), m_hoverLabel(new QLabel(window)), m_zoomLabel(new QLabel(window)),
      m_devicesLabel(new QLabel(window)), m_sramLabel(new QLabel(window))
{
    m_stripArea->setWidget(m_strip);
    m_stripArea->setWidgetResizable(false);
    m_stripArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stripArea->setFrameShape(QFrame::NoFrame);
    m_stripArea->setFixedWidth(m_strip->sizeHint().width() + 14);
    // Each wafer's thumbnail is its image at full size averaged down, 4-6 ms of the GUI thread's CPU a wafer on a
    // 2-core VM, at every new placement, layer kind and present/leave (the thumbnails turn with the heatmap).
    m_strip->setThumbnailMaker([this](views::ThumbnailRequest request) {
        m_thumbnails.start(
            [request] {
                return views::DeviceStrip::makeThumbnails(*request.snapshot, request.layer, request.size,
                                                          request.turned);
            },
            [this, stamp = request.stamp](views::DeviceThumbnails made) {
                m_strip->offerThumbnails(stamp, std::move(made));
            });
    });
    QStatusBar* bar = window->statusBar();
    bar->addWidget(m_hoverLabel, 1);
    bar->addPermanentWidget(m_zoomLabel);
    bar->addPermanentWidget(m_devicesLabel);
    bar->addPermanentWidget(m_sramLabel);
    const views::MeshView* view = stage->view();
    connect(view, &views::MeshView::coreHovered, this, [this](int device, int x, int y) {
        m_hoverLabel->setText(x < 0 ? QString() : tr("Wafer %1, core (%2, %3)").arg(device + 1).arg(x).arg(y));
    });
    connect(view, &views::MeshView::zoomChanged, this, [this](double scale) {
        if (m_stage->result())
            m_zoomLabel->setText(tr("Zoom: %1 px per core").arg(QLocale().toString(scale, 'g', 3)));
    });
    connect(view, &views::MeshView::turnedChanged, m_strip, [this](bool turned) {
        m_strip->setTurned(turned); // the thumbnails as the heatmap draws the wafer
        m_strip->resize(m_strip->sizeHint());
    });
    connect(stage, &Stage::deviceChanged, m_strip, &views::DeviceStrip::setCurrentDevice);
    connect(stage, &Stage::layerChanged, m_strip, &views::DeviceStrip::setLayer);
    connect(stage, &Stage::resultChanged, this, &WindowStatus::resultShown);
}

QWidget* WindowStatus::stripArea() const
{
    return m_stripArea;
}

void WindowStatus::resultShown()
{
    const auto result = m_stage->result();
    m_strip->setSnapshot(result ? result->snapshot : nullptr);
    m_strip->setCurrentDevice(m_stage->device());
    m_strip->resize(m_strip->sizeHint());
    if (result)
        m_zoomLabel->setText(
            tr("Zoom: %1 px per core").arg(QLocale().toString(m_stage->view()->transform().scale, 'g', 3)));
    update();
}

void WindowStatus::retranslate()
{
    m_stripArea->setToolTip(tr("All wafers of the placement. Click one to show it (Page Up / Page Down)."));
    update();
}

void WindowStatus::update()
{
    const QLocale locale;
    const auto result = m_stage->result();
    m_stripArea->setVisible(result && result->snapshot && result->snapshot->deviceCount > 1);
    if (!result) {
        m_zoomLabel->clear();
        m_devicesLabel->setText(tr("Devices: –"));
        m_sramLabel->setText(tr("SRAM used: –"));
        m_window->setWindowTitle(tr("WaferScope"));
        return;
    }
    const PlacementResult& r = *result;
    const QString hardware = QString::fromStdString(r.hardware().name);
    m_devicesLabel->setText(tr("Devices: %1 × %2").arg(locale.toString(r.devices), hardware));
    m_devicesLabel->setToolTip(tr("Wafers the engine's placement needs for the model's weights and KV cache at "
                                  "%1 tokens of context.")
                                   .arg(locale.toString(qlonglong(r.spec().workload.contextTokens))));
    const double share = r.sramTotalBytes > 0 ? 100.0 * double(r.sramUsedBytes) / double(r.sramTotalBytes) : 0;
    m_sramLabel->setText(tr("SRAM used: %1 of %2 (%3%)")
                             .arg(views::formatBytes(double(r.sramUsedBytes)),
                                  views::formatBytes(double(r.sramTotalBytes)), locale.toString(share, 'f', 1)));
    m_sramLabel->setToolTip(tr("Sum over all cores of the bytes the placement puts there (weights and KV cache), "
                               "against %1 per core from the hardware preset.")
                                .arg(views::formatBytes(double(r.hardware().wafer.sramBytesPerCore))));
    m_window->setWindowTitle(tr("WaferScope — %1 on %2 × %3 (%4)")
                                 .arg(QString::fromStdString(r.model().name), locale.toString(r.devices), hardware,
                                      QString::fromLatin1(precisionId(r.spec().workload.precision).data()).toUpper()));
}

} // namespace ws
