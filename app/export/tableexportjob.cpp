#include "app/export/tableexportjob.h"

#include "app/export/tablewriter.h"

#include <QThread>

namespace ws {

TableExportJob::TableExportJob(QObject* parent) : QObject(parent) {}

TableExportJob::~TableExportJob()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

bool TableExportJob::start(DataTable table, const QString& path, const ExportStamp& stamp)
{
    if (m_thread)
        return false;
    m_path = path;
    m_cancel = false;
    m_error.clear();
    m_thread = QThread::create([this, table = std::move(table), path, stamp] {
        const auto progress = [this](qsizetype done, qsizetype total) {
            // Emitted from this object's thread, in order, before the end is reported.
            QMetaObject::invokeMethod(
                this, [this, done, total] { emit progressChanged(done, total); }, Qt::QueuedConnection);
            return !m_cancel;
        };
        m_outcome = int(TableWriter::save(table, path, stamp, &m_error, progress));
    });
    connect(m_thread, &QThread::finished, this, &TableExportJob::threadDone, Qt::QueuedConnection);
    m_thread->start(QThread::LowPriority);
    return true;
}

void TableExportJob::threadDone()
{
    if (!m_thread)
        return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    switch (TableWriter::Outcome(m_outcome)) {
    case TableWriter::Outcome::Written:
        emit finished(m_path);
        break;
    case TableWriter::Outcome::Cancelled:
        emit cancelled(m_path);
        break;
    case TableWriter::Outcome::Failed:
        emit failed(m_error);
        break;
    }
}

} // namespace ws
