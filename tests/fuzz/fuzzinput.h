#pragma once
// The fuzz targets' shared pieces. The readers take a path (they map the file), so an input becomes an
// anonymous in-memory file (memfd) opened through /proc/self/fd. Seed files come from the models folder
// (WAFERSCOPE_TEST_MODELS) and resources/, referenced by path, never copied here.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace wsfuzz {

class InputFile
{
public:
    InputFile(const uint8_t* data, size_t size) : m_fd(::memfd_create("fuzz-input", MFD_CLOEXEC))
    {
        for (size_t done = 0; m_fd >= 0 && done < size;) {
            const ssize_t n = ::write(m_fd, data + done, size - done);
            if (n <= 0)
                break;
            done += size_t(n);
        }
    }
    ~InputFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    bool ok() const { return m_fd >= 0; }
    std::string path() const { return "/proc/self/fd/" + std::to_string(m_fd); }

private:
    int m_fd;
};

// A file under the models folder (for the tokenizer targets' fixed vocabularies).
inline std::string modelPath(const std::string& relative)
{
    const char* env = std::getenv("WAFERSCOPE_TEST_MODELS");
    return std::string(env && *env ? env : WAFERSCOPE_DEFAULT_TEST_MODELS) + "/" + relative;
}

} // namespace wsfuzz
