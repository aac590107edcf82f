#pragma once
// A read-only memory map of a whole file. Model files are mapped, never read
// into buffers: the OS pages weights in on first touch and shares them between
// processes. The mapping lives as long as the last MappedFile handle that
// holds it (GgufFile and Llama2cCheckpoint share one through shared_ptr, so
// tensor pointers stay valid while any of them is alive).
//
// A file that changes on disk while mapped. Replaced by rename, the old inode
// stays mapped and readable. Truncated in place, a page past the new end
// raises SIGBUS on its next touch, on whichever thread touches it (the
// decode's pool workers too), which would kill the process. So every mapping
// is registered in a fixed, lock-free table, and a SIGBUS handler that finds
// the faulting address in it maps anonymous zero pages over the rest of that
// mapping (mmap MAP_FIXED, one syscall) and marks it damaged, then returns:
// the faulting read re-runs and sees zeros. Nothing unwinds through C++
// frames (no siglongjmp), so no lock or allocation is left half done; the
// step that read zeros finishes, and the decode loop asks checkIntact() after
// each step and ends the session with the error. A fault elsewhere goes to
// the handler that was installed before (or the default one, which kills).
// checkIntact() also stats the path, so a file replaced or rewritten in
// place (new inode, size or modification time) ends the session as well.

#include "engine/core/error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ws {

class MappedFile
{
public:
    // Maps `path` read-only. Fails with NotFound or Io, the path in Error::file.
    static Expected<std::shared_ptr<const MappedFile>> open(const std::string& path);

    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // The first `maxBytes` of the file (or all of it) read with plain reads into memory, nothing mapped:
    // for reading a header before deciding to map. sizeBytes() is still the whole file's size;
    // data() holds readableBytes() of it.
    static Expected<std::shared_ptr<const MappedFile>> readPrefix(const std::string& path, uint64_t maxBytes);

    // How many files this process has mapped so far (open), for checking that a refusal mapped nothing.
    static uint64_t mappingsMade();

    const uint8_t* data() const { return m_data; }
    uint64_t sizeBytes() const { return m_sizeBytes; }
    uint64_t readableBytes() const { return m_readInMemory ? m_prefix.size() : m_sizeBytes; }
    const std::string& path() const { return m_path; }

    // Io error (the path in Error::file) once a read hit a page the file no
    // longer has (it was truncated), or the path now names another file or
    // one of another size or modification time (a removed path is fine: the
    // mapping keeps the old inode). Sticky: a damaged mapping stays damaged.
    Status checkIntact() const;

private:
    MappedFile() = default;
    // Opens `path` (a regular file) into `fd` and fills in the path, size and identity.
    static Expected<std::shared_ptr<MappedFile>> openRegular(const std::string& path, int& fd);

    const uint8_t* m_data = nullptr;
    uint64_t m_sizeBytes = 0;
    std::string m_path;
    int m_slot = -1; // in the SIGBUS guard's table, or -1 (empty file or table full)
    uint64_t m_device = 0;
    uint64_t m_inode = 0;
    int64_t m_mtimeNs = 0;
    std::vector<uint8_t> m_prefix; // readPrefix's bytes (then nothing is mapped)
    bool m_readInMemory = false;
};

} // namespace ws
