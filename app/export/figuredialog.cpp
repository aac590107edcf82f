#include "app/export/figuredialog.h"

#include "app/export/figureexport.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace ws {

namespace {

struct SizePreset
{
    const char* name;
    double widthMm;
    double heightMm;
};

// Slides: the presentation programs' default pages (13.33 × 7.5 in, 10 × 7.5 in); papers: a two-column
// journal's full width and one column.
const SizePreset kPresets[] = {
    {QT_TRANSLATE_NOOP("ws::FigureDialog", "Slide, 16:9"), 338.7, 190.5},
    {QT_TRANSLATE_NOOP("ws::FigureDialog", "Slide, 4:3"), 254.0, 190.5},
    {QT_TRANSLATE_NOOP("ws::FigureDialog", "Paper, full width"), 180.0, 110.0},
    {QT_TRANSLATE_NOOP("ws::FigureDialog", "Paper, one column"), 88.0, 80.0},
};
constexpr int kCustom = int(std::size(kPresets));

} // namespace

FigureDialog::FigureDialog(std::shared_ptr<const MeshFrame> frame, const views::MeshFigureOptions& defaults,
                           ExportStamp stamp, QWidget* parent)
    : QDialog(parent), m_frame(std::move(frame)), m_base(defaults), m_stamp(std::move(stamp))
{
    setObjectName(QStringLiteral("figureDialog"));
    setWindowTitle(tr("Export Figure"));
    auto* form = new QFormLayout;

    m_wafers = new QComboBox(this);
    const int devices = m_frame && m_frame->base ? m_frame->base->deviceCount : 0;
    m_wafers->addItem(tr("Every wafer (%1)").arg(QLocale().toString(devices)), -1);
    for (int d = 0; d < devices; ++d)
        m_wafers->addItem(views::MeshFigure::waferCaption(*m_frame->base, d), d);
    form->addRow(tr("&Wafers:"), m_wafers);

    m_preset = new QComboBox(this);
    const QLocale locale;
    for (const SizePreset& p : kPresets)
        m_preset->addItem(
            tr("%1 (%2 × %3 mm)")
                .arg(tr(p.name), locale.toString(p.widthMm, 'f', 1), locale.toString(p.heightMm, 'f', 1)));
    m_preset->addItem(tr("Custom"));
    form->addRow(tr("&Page:"), m_preset);

    auto makeMm = [this] {
        auto* spin = new QDoubleSpinBox(this);
        spin->setRange(views::MeshFigureOptions::kMinMm, views::MeshFigureOptions::kMaxMm);
        spin->setDecimals(1);
        spin->setSuffix(tr(" mm"));
        return spin;
    };
    m_width = makeMm();
    m_height = makeMm();
    form->addRow(tr("W&idth:"), m_width);
    form->addRow(tr("H&eight:"), m_height);

    m_dpi = new QSpinBox(this);
    m_dpi->setRange(int(views::MeshFigureOptions::kMinDpi), int(views::MeshFigureOptions::kMaxDpi));
    m_dpi->setSingleStep(50);
    m_dpi->setSuffix(tr(" dots per inch"));
    form->addRow(tr("&Resolution:"), m_dpi);
    m_pixels = new QLabel(this);
    m_pixels->setWordWrap(true);
    form->addRow(QString(), m_pixels);

    m_title = new QLineEdit(this);
    form->addRow(tr("&Title:"), m_title);
    m_source = new QLineEdit(this);
    form->addRow(tr("S&ource line:"), m_source);

    m_previewLabel = new QLabel(this);
    m_previewLabel->setObjectName(QStringLiteral("figurePreview"));
    m_previewLabel->setMinimumSize(480, 270);
    m_previewLabel->setAlignment(Qt::AlignCenter);
    m_previewLabel->setAccessibleName(tr("Preview of the figure"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Save)->setText(tr("&Save…"));
    buttons->button(QDialogButtonBox::Cancel)->setText(tr("Cancel")); // Qt's own text is not translated here
    connect(buttons, &QDialogButtonBox::accepted, this, &FigureDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* columns = new QHBoxLayout;
    columns->addLayout(form, 0);
    columns->addWidget(m_previewLabel, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);

    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(120);
    connect(m_previewTimer, &QTimer::timeout, this, &FigureDialog::updatePreview);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &FigureDialog::applyPreset);
    connect(m_width, &QDoubleSpinBox::valueChanged, this, &FigureDialog::sizeEdited);
    connect(m_height, &QDoubleSpinBox::valueChanged, this, &FigureDialog::sizeEdited);
    connect(m_dpi, &QSpinBox::valueChanged, this, &FigureDialog::schedulePreview);
    connect(m_wafers, &QComboBox::currentIndexChanged, this, &FigureDialog::schedulePreview);
    connect(m_title, &QLineEdit::textChanged, this, &FigureDialog::schedulePreview);
    connect(m_source, &QLineEdit::textChanged, this, &FigureDialog::schedulePreview);
    setOptions(defaults);
    updatePreview();
}

views::MeshFigureOptions FigureDialog::options() const
{
    views::MeshFigureOptions o = m_base;
    o.device = m_wafers->currentData().toInt();
    o.sizeMm = QSizeF(m_width->value(), m_height->value());
    o.dpi = m_dpi->value();
    o.title = m_title->text();
    o.source = m_source->text();
    return o;
}

void FigureDialog::setOptions(const views::MeshFigureOptions& o)
{
    m_applying = true;
    m_base = o;
    m_wafers->setCurrentIndex(std::max(0, m_wafers->findData(o.device)));
    m_width->setValue(o.sizeMm.width());
    m_height->setValue(o.sizeMm.height());
    m_dpi->setValue(int(std::lround(o.dpi)));
    m_title->setText(o.title);
    m_title->setCursorPosition(0); // show the start of a long line, not its end
    m_source->setText(o.source);
    m_source->setCursorPosition(0);
    int preset = kCustom;
    for (int i = 0; i < kCustom; ++i)
        if (std::abs(kPresets[i].widthMm - o.sizeMm.width()) < 0.05 &&
            std::abs(kPresets[i].heightMm - o.sizeMm.height()) < 0.05)
            preset = i;
    m_preset->setCurrentIndex(preset);
    m_applying = false;
    schedulePreview();
}

void FigureDialog::applyPreset(int index)
{
    if (m_applying || index < 0 || index >= kCustom)
        return;
    m_applying = true;
    m_width->setValue(kPresets[index].widthMm);
    m_height->setValue(kPresets[index].heightMm);
    m_applying = false;
    schedulePreview();
}

void FigureDialog::sizeEdited()
{
    if (!m_applying) {
        m_applying = true;
        m_preset->setCurrentIndex(kCustom);
        m_applying = false;
    }
    schedulePreview();
}

void FigureDialog::schedulePreview()
{
    m_previewTimer->start();
}

void FigureDialog::updatePreview()
{
    const views::MeshFigure figure(m_frame, options());
    const QLocale locale;
    const QSize px = figure.options().pixelSize();
    const QString svg = figure.pixelsPerCore() >= 1
                            ? tr("SVG: every core a vector rectangle (%1 pixels per core at this resolution).")
                                  .arg(locale.toString(figure.pixelsPerCore(), 'f', 1))
                            : tr("SVG: each wafer an image of one pixel per core (cores are smaller than a pixel "
                                 "at this resolution).");
    m_pixels->setText(tr("PNG: %1 × %2 pixels.").arg(locale.toString(px.width()), locale.toString(px.height())) +
                      QLatin1Char(' ') + svg);
    const qreal ratio = devicePixelRatioF();
    m_preview = figure.preview(m_previewLabel->contentsRect().size() * ratio);
    QPixmap pixmap = QPixmap::fromImage(m_preview);
    pixmap.setDevicePixelRatio(ratio);
    m_previewLabel->setPixmap(pixmap);
}

bool FigureDialog::saveTo(const QString& path, QString* error)
{
    const views::MeshFigure figure(m_frame, options());
    if (!FigureExport::write(figure, path, m_stamp, error))
        return false;
    emit saved(path);
    return true;
}

void FigureDialog::save()
{
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Figure"), QStringLiteral("figure.png"),
                                                tr("PNG image (*.png);;SVG drawing (*.svg)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(QLatin1String("*.svg")) ? QStringLiteral(".svg") : QStringLiteral(".png");
    QString error;
    if (!saveTo(path, &error)) {
        QMessageBox::warning(this, tr("Export Figure"), error);
        return;
    }
    accept();
}

} // namespace ws
