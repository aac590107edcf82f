#pragma once
// A read-only memory map of a whole file. Model files are mapped, never read
// into buffers: the OS pages weights in on first touch and shares them between
// processes. The mapping lives as long as the last MappedFile handle that
// holds it (GgufFile and Llama2cCheckpoint share one through shared_ptr, so
// tensor pointers stay valid while any of them is alive).

#include "engine/core/error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ws {

class MappedFile
{
public:
    // Maps `path` read-only. Fails with NotFound or Io, the path in Error::file.
    static Expected<std::shared_ptr<const MappedFile>> open(const std::string& path);

    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const { return m_data; }
    uint64_t sizeBytes() const { return m_sizeBytes; }
    const std::string& path() const { return m_path; }

private:
    MappedFile() = default;

    const uint8_t* m_data = nullptr;
    uint64_t m_sizeBytes = 0;
    std::string m_path;
};

} // namespace ws
