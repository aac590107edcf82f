// FileMenuController's exports (figure, image, data table) and recording: the dialogs around app/export and
// app/record.
#include "app/window/filemenucontroller.h"

#include "app/export/exporter.h"
#include "app/export/figuredialog.h"
#include "app/export/tableexportjob.h"
#include "app/record/recorder.h"
#include "app/scenario/scenarioformat.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLocale>
#include <QMainWindow>
#include <QProgressDialog>

#include <algorithm>

namespace ws {

ExportStamp FileMenuController::exportStamp() const
{
    return ExportStamp::forScenario(ScenarioFormat::toJson(scenario()));
}

void FileMenuController::exportImage(const QString& name, QWidget* widget)
{
    if (!widget)
        return;
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export %1").arg(name), {}, tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    bool ok = false;
    const double scale = QInputDialog::getDouble(
        m_window, tr("Export %1").arg(name),
        tr("Sharpness: pixels in the file for each pixel on screen (2 draws it twice as wide and high):"), 2.0,
        Exporter::kMinScale, Exporter::kMaxScale, 2, &ok);
    QString error;
    if (ok && !Exporter::savePng(widget, path, scale, &error, exportStamp()))
        showError(tr("Export"), error);
}

void FileMenuController::exportFigure()
{
    const std::optional<FigureInput> input = m_figureSource ? m_figureSource() : std::nullopt;
    if (!input || !input->frame) {
        showError(tr("Export Figure"), tr("There is no placement to draw yet."));
        return;
    }
    views::MeshFigureOptions options = input->options;
    if (m_figureOptions) { // the page and resolution chosen last time; the title and source are this scene's
        options.sizeMm = m_figureOptions->sizeMm;
        options.dpi = m_figureOptions->dpi;
    }
    FigureDialog dialog(input->frame, options, exportStamp(), m_window);
    connect(&dialog, &FigureDialog::saved, this,
            [this](const QString& path) { emit statusMessage(tr("Exported %1").arg(path)); });
    dialog.exec();
    m_figureOptions = dialog.options();
}

void FileMenuController::exportData(const QString& name)
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export %1").arg(name), {},
                                                tr("CSV files (*.csv);;JSON files (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    exportDataTo(name, path);
}

TableExportJob* FileMenuController::exportDataTo(const QString& name, const QString& path)
{
    const auto entry = std::find_if(m_dataExports.begin(), m_dataExports.end(),
                                    [&name](const DataExport& e) { return e.name == name; });
    if (entry == m_dataExports.end())
        return nullptr;
    if (m_dataExport) {
        showError(tr("Export"), tr("Another data export is still being written: wait for it or cancel it first."));
        return nullptr;
    }
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor); // the placement is computed here; the rows are written later
    const std::optional<DataTable> table = entry->table(&error);
    QApplication::restoreOverrideCursor();
    if (!table) {
        showError(tr("Export"), error);
        return nullptr;
    }
    const qsizetype total = table->rowCount();
    auto* job = new TableExportJob(this);
    m_dataExport = job;
    QPointer<QProgressDialog> progress;
    if (m_interactive) {
        const QString file = QFileInfo(path).fileName();
        progress = new QProgressDialog(tr("Exporting %1…").arg(file), tr("Cancel"), 0,
                                       int(std::max<qsizetype>(total, 1)), m_window);
        progress->setWindowTitle(tr("Export %1").arg(name));
        progress->setWindowModality(Qt::WindowModal);
        progress->setAutoClose(false);
        progress->setAutoReset(false);
        progress->setMinimumDuration(500);
        connect(progress, &QProgressDialog::canceled, job, &TableExportJob::cancel);
        connect(job, &TableExportJob::progressChanged, progress, [progress, file](qint64 done, qint64 all) {
            progress->setLabelText(
                tr("Exporting %1: %2 of %3 rows").arg(file, QLocale().toString(done), QLocale().toString(all)));
            progress->setValue(int(done));
        });
    }
    const auto done = [this, job, progress] {
        m_dataExport = nullptr; // the next export may start now
        if (progress)
            progress->deleteLater();
        job->deleteLater();
    };
    connect(job, &TableExportJob::finished, this, [this, done](const QString& file) {
        emit statusMessage(tr("Exported %1").arg(file));
        done();
    });
    connect(job, &TableExportJob::failed, this, [this, done](const QString& message) {
        showError(tr("Export"), message);
        done();
    });
    connect(job, &TableExportJob::cancelled, this, [this, done](const QString& file) {
        emit statusMessage(tr("Export cancelled: %1 was not written").arg(file));
        done();
    });
    job->start(*table, path, exportStamp());
    return job;
}

void FileMenuController::record()
{
    if (!m_frameSource) {
        showError(tr("Record"), tr("There is nothing to record yet."));
        return;
    }
    RecordDialog dialog(m_window);
    dialog.setOptions(m_recordOptions);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const RecordOptions options = dialog.options();
    m_recordOptions = options;
    const QString suffix = options.video.format == VideoFormat::Mp4    ? QStringLiteral("mp4")
                           : options.video.format == VideoFormat::WebM ? QStringLiteral("webm")
                                                                       : QStringLiteral("gif");
    QString path = QFileDialog::getSaveFileName(m_window, tr("Record"), QStringLiteral("waferscope.") + suffix,
                                                tr("%1 (*.%2)").arg(videoFormatName(options.video.format), suffix));
    if (path.isEmpty())
        return;
    if (videoFormatFromPath(path) != options.video.format)
        path += QLatin1Char('.') + suffix;

    auto* recorder = new Recorder(this);
    recorder->setPacing(Recorder::Pacing::RealTime); // the view is live: take what is on screen every 1/fps s
    auto* progress = new QProgressDialog(tr("Recording %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0,
                                         options.frameCount(), m_window);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    connect(progress, &QProgressDialog::canceled, recorder, &Recorder::cancel);
    connect(recorder, &Recorder::progressChanged, progress, &QProgressDialog::setValue);
    const auto done = [recorder, progress] {
        progress->deleteLater();
        recorder->deleteLater();
    };
    connect(recorder, &Recorder::finished, this, [this, done](const QString& file) {
        emit statusMessage(tr("Recorded %1").arg(file));
        done();
    });
    connect(recorder, &Recorder::failed, this, [this, done](const QString& message) {
        showError(tr("Record"), message);
        done();
    });
    connect(recorder, &Recorder::cancelled, this, done);
    const FrameSource source = m_frameSource;
    VideoSettings video = options.video;
    video.comment = exportStamp().text();
    if (!recorder->start(path, video, options.frameCount(),
                         [source, options](int frame) { return source(frame, options); })) {
        showError(tr("Record"), recorder->errorString());
        done();
    }
}

} // namespace ws
