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
//
// Resident: the whole file read into this process's own memory instead, in
// transparent huge pages where the kernel offers them (madvise). A decode
// reads every weight once per token; from a mapping of the page cache that
// costs a TLB miss per 4 KiB page (about 100,000 per token for a 400 MB
// model), and how the kernel laid the cache out decides the speed: the same
// Q4_K_M file decoded at 36 tokens/s mapped and at 51 once copied afresh (and
// at 48-53 resident, whatever the cache looked like). The copy costs the
// read at open (0.1-0.4 s for 400 MB from the page cache here, more on
// memory the VM touches the first time) and no more memory than the mapping
// (both count the file's size in the process). Once read, the file on disk
// no longer matters: truncating or replacing it cannot harm the decode, so
// a resident file is always intact.

#include "engine/core/error.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ws {

enum class FileResidency
{
    Mapped,   // mapped read-only: paged in on first touch, shared with the page cache (the SIGBUS guard)
    Resident, // read whole into this process's memory (huge pages where offered)
};

class MappedFile
{
public:
    // Maps `path` read-only, or reads it whole into memory (Resident). Fails with NotFound or Io, the path in
    // Error::file (Resident: also when the file ends early or changes while it is read, or memory runs out).
    static Expected<std::shared_ptr<const MappedFile>> open(const std::string& path,
                                                            FileResidency residency = FileResidency::Mapped);

    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // The first `maxBytes` of the file (or all of it) read with plain reads into memory, nothing mapped:
    // for reading a header before deciding to map. sizeBytes() is still the whole file's size;
    // data() holds readableBytes() of it.
    static Expected<std::shared_ptr<const MappedFile>> readPrefix(const std::string& path, uint64_t maxBytes);

    // How many files this process has mapped or read whole so far (open), for checking that a refusal mapped
    // nothing.
    static uint64_t mappingsMade();

    const uint8_t* data() const { return m_data; }
    uint64_t sizeBytes() const { return m_sizeBytes; }
    uint64_t readableBytes() const { return m_readInMemory ? m_prefix.size() : m_sizeBytes; }
    bool isResident() const { return m_resident; }
    const std::string& path() const { return m_path; }

    // A resident file only: makes its copy writable, calls edit(copy) and protects the copy again (the decode
    // rearranges some matrices into its kernels' layout once, after loading; whoever shares this file sees the
    // edited bytes). An InvalidArgument error for a mapped file, Io if the protection cannot be changed.
    Status editResident(const std::function<void(uint8_t* data)>& edit) const;

    // Always Ok for a resident file. Otherwise an Io error (the path in Error::file) once a read hit a page the file no
    // longer has (it was truncated), or the path now names another file or
    // one of another size or modification time (a removed path is fine: the
    // mapping keeps the old inode). Sticky: a damaged mapping stays damaged.
    Status checkIntact() const;

private:
    MappedFile() = default;
    // Opens `path` (a regular file) into `fd` and fills in the path, size and identity.
    static Expected<std::shared_ptr<MappedFile>> openRegular(const std::string& path, int& fd);
    // Reads the open file `fd` whole into anonymous memory (m_data), the reads spread over a few threads.
    Status readResident(int fd);

    const uint8_t* m_data = nullptr;
    uint64_t m_sizeBytes = 0;
    std::string m_path;
    int m_slot = -1; // in the SIGBUS guard's table, or -1 (empty file or table full)
    uint64_t m_device = 0;
    uint64_t m_inode = 0;
    int64_t m_mtimeNs = 0;
    std::vector<uint8_t> m_prefix; // readPrefix's bytes (then nothing is mapped)
    bool m_readInMemory = false;
    bool m_resident = false; // m_data is an anonymous mapping holding the whole file
};

} // namespace ws
