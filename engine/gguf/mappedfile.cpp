#include "engine/gguf/mappedfile.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

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

int64_t mtimeNs(const struct stat& st)
{
    return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

// The SIGBUS guard (see mappedfile.h). The handler only reads atomics and
// calls mmap, so it is safe at any point of any thread.
struct GuardSlot
{
    std::atomic<bool> used{false};
    std::atomic<uintptr_t> begin{0}; // 0: free (set last when registering, cleared first)
    std::atomic<uintptr_t> end{0};
    std::atomic<bool> damaged{false};
};
std::array<GuardSlot, 256> g_slots;
uintptr_t g_pageSize = 4096;
struct sigaction g_previous
{
};

void onSigbus(int sig, siginfo_t* info, void* context)
{
    const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
    for (GuardSlot& slot : g_slots) {
        const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
        const uintptr_t end = slot.end.load(std::memory_order_acquire);
        if (begin == 0 || address < begin || address >= end)
            continue;
        const int savedErrno = errno;
        const uintptr_t page = address & ~(g_pageSize - 1);
        void* p = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                         -1, 0);
        errno = savedErrno;
        if (p != MAP_FAILED) {
            slot.damaged.store(true, std::memory_order_release);
            return; // the read re-runs on the zero pages
        }
        break;
    }
    // Not one of ours (or it could not be patched): the handler before ours decides.
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(sig, info, context);
        return;
    }
    if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN && g_previous.sa_handler) {
        g_previous.sa_handler(sig);
        return;
    }
    // Default action: put it back and return; the access faults again and ends the process.
    ::signal(SIGBUS, SIG_DFL);
}

void installGuard()
{
    static std::once_flag once;
    std::call_once(once, [] {
        const long page = ::sysconf(_SC_PAGESIZE);
        if (page > 0)
            g_pageSize = uintptr_t(page);
        struct sigaction action
        {
        };
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &g_previous);
    });
}

int registerMapping(const uint8_t* data, uint64_t size)
{
    installGuard();
    for (size_t i = 0; i < g_slots.size(); ++i) {
        bool expected = false;
        if (!g_slots[i].used.compare_exchange_strong(expected, true))
            continue;
        g_slots[i].damaged.store(false);
        g_slots[i].end.store(reinterpret_cast<uintptr_t>(data) + size, std::memory_order_release);
        g_slots[i].begin.store(reinterpret_cast<uintptr_t>(data), std::memory_order_release);
        return int(i);
    }
    return -1; // table full: this mapping is unguarded
}

void unregisterMapping(int slot)
{
    if (slot < 0)
        return;
    g_slots[size_t(slot)].begin.store(0, std::memory_order_release);
    g_slots[size_t(slot)].end.store(0, std::memory_order_release);
    g_slots[size_t(slot)].used.store(false, std::memory_order_release);
}
} // namespace

namespace {
std::atomic<uint64_t> g_mappingsMade{0};
} // namespace

Expected<std::shared_ptr<MappedFile>> MappedFile::openRegular(const std::string& path, int& fd)
{
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        return ioError(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io, path,
                       std::string("cannot open: ") + std::strerror(err));
    }
    struct stat st
    {
    };
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
    file->m_device = uint64_t(st.st_dev);
    file->m_inode = uint64_t(st.st_ino);
    file->m_mtimeNs = mtimeNs(st);
    return file;
}

Status MappedFile::readResident(int fd)
{
    void* p = ::mmap(nullptr, m_sizeBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return ioError(ErrorCode::Io, m_path,
                       "cannot hold the file in memory (" + std::to_string(m_sizeBytes) +
                           " bytes): " + std::strerror(errno));
#ifdef MADV_HUGEPAGE
    ::madvise(p, m_sizeBytes, MADV_HUGEPAGE); // a hint: without huge pages the copy still works
#endif
    // Huge-page-aligned parts, one per thread: the page faults (zeroing) and copies run side by side.
    constexpr uint64_t kHugePage = uint64_t(2) << 20;
    const uint64_t cores = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    const uint64_t part = std::max(kHugePage, (m_sizeBytes / cores + kHugePage - 1) / kHugePage * kHugePage);
    std::vector<int> errors(size_t((m_sizeBytes + part - 1) / part), 0);
    std::vector<uint64_t> shortAt(errors.size(), 0);
    auto readPart = [&](size_t k) {
        const uint64_t begin = uint64_t(k) * part, end = std::min(m_sizeBytes, begin + part);
        for (uint64_t at = begin; at < end;) {
            const ssize_t n =
                ::pread(fd, static_cast<uint8_t*>(p) + at, size_t(std::min(end - at, kHugePage)), off_t(at));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                errors[k] = n < 0 ? errno : 0;
                shortAt[k] = at + 1; // 1 + the offset where the file ended or the read failed
                return;
            }
            at += uint64_t(n);
        }
    };
    std::vector<std::thread> threads;
    for (size_t k = 1; k < errors.size(); ++k)
        threads.emplace_back(readPart, k);
    readPart(0);
    for (std::thread& t : threads)
        t.join();
    std::string failure;
    for (size_t k = 0; k < errors.size() && failure.empty(); ++k)
        if (shortAt[k])
            failure = errors[k] ? std::string("cannot read: ") + std::strerror(errors[k])
                                : "the model file was truncated while it was read (it ended at " +
                                      std::to_string(shortAt[k] - 1) + " of " + std::to_string(m_sizeBytes) + " bytes)";
    struct stat st
    {
    };
    if (failure.empty() && (::fstat(fd, &st) != 0 || uint64_t(st.st_size) != m_sizeBytes || mtimeNs(st) != m_mtimeNs))
        failure = "the model file changed on disk while it was read";
    if (failure.empty() && ::mprotect(p, m_sizeBytes, PROT_READ) != 0)
        failure = std::string("cannot protect the copy: ") + std::strerror(errno);
    if (!failure.empty()) {
        ::munmap(p, m_sizeBytes);
        return ioError(ErrorCode::Io, m_path, failure);
    }
    m_data = static_cast<const uint8_t*>(p);
    m_resident = true;
    return Ok{};
}

Expected<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path, FileResidency residency)
{
    int fd = -1;
    auto opened = openRegular(path, fd);
    if (!opened)
        return opened.error();
    std::shared_ptr<MappedFile> file = std::move(*opened);
    if (file->m_sizeBytes > 0 && residency == FileResidency::Resident) {
        Status read = file->readResident(fd);
        ::close(fd);
        if (!read)
            return read.error();
        g_mappingsMade.fetch_add(1, std::memory_order_relaxed);
        return std::shared_ptr<const MappedFile>(std::move(file));
    }
    if (file->m_sizeBytes > 0) {
        void* p = ::mmap(nullptr, file->m_sizeBytes, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            return ioError(ErrorCode::Io, path, std::string("cannot map: ") + std::strerror(err));
        }
        file->m_data = static_cast<const uint8_t*>(p);
        g_mappingsMade.fetch_add(1, std::memory_order_relaxed);
        file->m_slot = registerMapping(file->m_data, file->m_sizeBytes);
    }
    ::close(fd);
    return std::shared_ptr<const MappedFile>(std::move(file));
}

uint64_t MappedFile::mappingsMade()
{
    return g_mappingsMade.load(std::memory_order_relaxed);
}

Expected<std::shared_ptr<const MappedFile>> MappedFile::readPrefix(const std::string& path, uint64_t maxBytes)
{
    int fd = -1;
    auto opened = openRegular(path, fd);
    if (!opened)
        return opened.error();
    std::shared_ptr<MappedFile> file = std::move(*opened);
    file->m_prefix.resize(size_t(std::min(maxBytes, file->m_sizeBytes)));
    size_t done = 0;
    while (done < file->m_prefix.size()) {
        const ssize_t n = ::read(fd, file->m_prefix.data() + done, file->m_prefix.size() - done);
        if (n <= 0) {
            const int err = n < 0 ? errno : 0;
            if (n < 0 && err == EINTR)
                continue;
            ::close(fd);
            return ioError(ErrorCode::Io, path,
                           n < 0 ? std::string("cannot read: ") + std::strerror(err) : "the file ended early");
        }
        done += size_t(n);
    }
    ::close(fd);
    file->m_readInMemory = true;
    file->m_data = file->m_prefix.empty() ? nullptr : file->m_prefix.data();
    return std::shared_ptr<const MappedFile>(std::move(file));
}

Status MappedFile::checkIntact() const
{
    if (m_resident)
        return Ok{}; // this process's own copy: the file on disk no longer matters
    if (m_slot >= 0 && g_slots[size_t(m_slot)].damaged.load(std::memory_order_acquire))
        return ioError(ErrorCode::Io, m_path, "the model file was truncated on disk while in use");
    struct stat st
    {
    };
    // Removed (unlinked): the mapping keeps the inode, nothing is lost.
    if (::stat(m_path.c_str(), &st) != 0)
        return Ok{};
    const bool sameFile = uint64_t(st.st_dev) == m_device && uint64_t(st.st_ino) == m_inode;
    // The same file, now shorter than its mapping: cut before a step touched the lost pages.
    if (sameFile && uint64_t(st.st_size) < m_sizeBytes)
        return ioError(ErrorCode::Io, m_path, "the model file was truncated on disk while in use");
    if (!sameFile || uint64_t(st.st_size) != m_sizeBytes || mtimeNs(st) != m_mtimeNs)
        return ioError(ErrorCode::Io, m_path, "the model file was replaced or changed on disk while in use");
    return Ok{};
}

Status MappedFile::editResident(const std::function<void(uint8_t* data)>& edit) const
{
    if (!m_resident)
        return ioError(ErrorCode::InvalidArgument, m_path, "only a file read into memory can be edited");
    auto* p = const_cast<uint8_t*>(m_data);
    if (::mprotect(p, m_sizeBytes, PROT_READ | PROT_WRITE) != 0)
        return ioError(ErrorCode::Io, m_path, std::string("cannot unprotect the copy: ") + std::strerror(errno));
    edit(p);
    if (::mprotect(p, m_sizeBytes, PROT_READ) != 0)
        return ioError(ErrorCode::Io, m_path, std::string("cannot protect the copy: ") + std::strerror(errno));
    return Ok{};
}

MappedFile::~MappedFile()
{
    unregisterMapping(m_slot);
    if (m_data && !m_readInMemory)
        ::munmap(const_cast<uint8_t*>(m_data), m_sizeBytes);
}

} // namespace ws
