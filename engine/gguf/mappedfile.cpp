#include "engine/gguf/mappedfile.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ws {

namespace {
Error ioError(ErrorCode code, const std::string& path, std::string text)
{
    Error e = makeError(code, std::move(text));
    e.file = path;
    return e;
}
} // namespace

Expected<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        return ioError(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io, path,
                       std::string("cannot open: ") + std::strerror(err));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return ioError(ErrorCode::Io, path, std::string("cannot stat: ") + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return ioError(ErrorCode::Io, path, "not a regular file");
    }
    std::shared_ptr<MappedFile> file(new MappedFile());
    file->m_path = path;
    file->m_sizeBytes = static_cast<uint64_t>(st.st_size);
    if (file->m_sizeBytes > 0) {
        void* p = ::mmap(nullptr, file->m_sizeBytes, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            return ioError(ErrorCode::Io, path, std::string("cannot map: ") + std::strerror(err));
        }
        file->m_data = static_cast<const uint8_t*>(p);
    }
    ::close(fd);
    return std::shared_ptr<const MappedFile>(std::move(file));
}

MappedFile::~MappedFile()
{
    if (m_data)
        ::munmap(const_cast<uint8_t*>(m_data), m_sizeBytes);
}

} // namespace ws
