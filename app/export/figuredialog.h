#pragma once
// The dialog of File > Export figure…: which wafers, the page size (slide and
// paper presets, or millimetres), the resolution in dots per inch with the
// PNG's pixels and how the SVG draws the cores, the title and the source
// line, and a preview of the page as it will be written (views/mesh/
// meshfigure.h). Save… asks for a .png or .svg file and writes it
// (FigureExport). Every field has a label with a mnemonic, in tab order.

#include "app/export/exportstamp.h"
#include "views/mesh/meshfigure.h"

#include <QDialog>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace ws {

class FigureDialog : public QDialog
{
    Q_OBJECT

public:
    FigureDialog(std::shared_ptr<const MeshFrame> frame, const views::MeshFigureOptions& defaults, ExportStamp stamp,
                 QWidget* parent = nullptr);

    views::MeshFigureOptions options() const;
    void setOptions(const views::MeshFigureOptions& options);
    // Writes the figure to `path` (.png or .svg); false with *error when it cannot.
    bool saveTo(const QString& path, QString* error);
    // The preview's picture (for tests).
    QImage previewImage() const { return m_preview; }

signals:
    void saved(const QString& path);

private:
    void applyPreset(int index);
    void sizeEdited();
    void schedulePreview();
    void updatePreview();
    void save();

    std::shared_ptr<const MeshFrame> m_frame;
    views::MeshFigureOptions m_base; // layer, and what the fields do not edit
    ExportStamp m_stamp;
    QComboBox* m_wafers = nullptr;
    QComboBox* m_preset = nullptr;
    QDoubleSpinBox* m_width = nullptr;
    QDoubleSpinBox* m_height = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_pixels = nullptr;
    QLineEdit* m_title = nullptr;
    QLineEdit* m_source = nullptr;
    QLabel* m_previewLabel = nullptr;
    QTimer* m_previewTimer = nullptr;
    QImage m_preview;
    bool m_applying = false;
};

} // namespace ws
