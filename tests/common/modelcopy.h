#pragma once
// A writable copy of a model file in a temporary folder, for the fault tests that cut or replace the
// file a running session has mapped. Empty when the copy fails.

#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace wstest {

inline QString writableCopy(const QString& source, const QTemporaryDir& dir, const QString& name)
{
    const QString copy = dir.filePath(name);
    if (!dir.isValid() || !QFile::copy(source, copy) ||
        !QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner))
        return {};
    return copy;
}

} // namespace wstest
