#pragma once
// The fuzz targets' shared pieces. The readers take a path (they map the file), so an input becomes an
// anonymous in-memory file (memfd) opened through /proc/self/fd. Seed files come from the models folder
// (WAFERSCOPE_TEST_MODELS) and resources/, referenced by path, never copied here.

#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

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
    if (!env || !*env)
        env = std::getenv("WAFERSCOPE_DEFAULT_TEST_MODELS"); // set by ctest
    return std::string(env ? env : "") + "/" + relative;
}

// Loads what a reader accepted as a model and runs its first forward step (one thread, context 2).
// Only small models step: a fuzzed header can claim a huge width.
inline void loadAndStep(const std::string& path)
{
    auto model = ws::DecodeModel::load(path);
    if (!model || model->config().vocabSize < 1 || model->weights().bytesPerToken() > (64u << 20))
        return;
    ws::Generator generator(*model, 2, 1);
    ws::GenerationSettings settings;
    settings.maxTokens = 1;
    const std::vector<ws::TokenId> prompt{0};
    if (generator.start(prompt, settings))
        (void)generator.step();
}

} // namespace wsfuzz
