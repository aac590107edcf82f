// Replays inputs through a fuzz target without libFuzzer (ctest, normal preset): every file named, or
// every file in a folder named, goes once through LLVMFuzzerTestOneInput. A missing folder is skipped
// (the seeds in the models folder may be absent outside CI); a crash or sanitizer report fails the test.
// "models:<path>" names a file or folder under the models folder (WAFERSCOPE_TEST_MODELS at run time).
#include "tests/fuzz/fuzzinput.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    int replayed = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const fs::path where =
            arg.rfind("models:", 0) == 0 ? fs::path(wsfuzz::modelPath(arg.substr(7))) : fs::path(arg);
        std::vector<fs::path> files;
        std::error_code ec;
        if (fs::is_directory(where, ec)) {
            for (const auto& entry : fs::directory_iterator(where, ec))
                if (entry.is_regular_file())
                    files.push_back(entry.path());
        } else if (fs::is_regular_file(where, ec)) {
            files.push_back(where);
        }
        for (const fs::path& file : files) {
            std::ifstream in(file, std::ios::binary);
            const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %d inputs\n", replayed);
    return replayed > 0 ? 0 : 1;
}
