#pragma once
// A data table written to a file on a worker thread (TableWriter::save), so
// the window stays live while a large export (the per-core SRAM map of a
// full wafer) runs. It reports rows written (progressChanged, in the thread
// that owns the job, rows never going down) and ends with exactly one of
// finished, failed or cancelled. cancel() stops it between two steps of
// TableWriter::kProgressStep rows; the partial file is then removed and a
// file that was at the path before is left as it was. The table's row source
// is only read by the worker while the job runs.

#include "app/export/datatable.h"
#include "app/export/exportstamp.h"

#include <QObject>
#include <QString>

#include <atomic>

class QThread;

namespace ws {

class TableExportJob : public QObject
{
    Q_OBJECT

public:
    explicit TableExportJob(QObject* parent = nullptr);
    ~TableExportJob() override; // cancels a running export and waits for its thread

    // False (and nothing started) when a job is already running.
    bool start(DataTable table, const QString& path, const ExportStamp& stamp);
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_thread != nullptr; }
    QString path() const { return m_path; }

signals:
    void progressChanged(qint64 done, qint64 total);
    void finished(const QString& path);
    void failed(const QString& error);
    void cancelled(const QString& path);

private:
    void threadDone();

    QThread* m_thread = nullptr;
    QString m_path;
    std::atomic_bool m_cancel = false;
    int m_outcome = 0; // TableWriter::Outcome, written by the worker before its thread ends
    QString m_error;
};

} // namespace ws
