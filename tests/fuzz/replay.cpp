// Replays inputs through a fuzz target without libFuzzer (ctest, normal preset): every file named, or
// every file in a folder named, goes once through LLVMFuzzerTestOneInput; a crash or sanitizer report fails
// the test. "models:<path>" names a file or folder under the models folder (WAFERSCOPE_TEST_MODELS at run
// time): missing, it fails the test in CI (CI=true) and elsewhere is left out with a QtTest-style SKIP line
// tagged [ws-skip:missing], which the skip count after ctest (tests/skips/skipcount.cmake) sees.
// Another folder named that is missing is left out (a target may have no regressions yet).
#include "tests/fuzz/fuzzinput.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    const char* ci = std::getenv("CI");
    const bool inCi = ci && std::string(ci) == "true";
    int replayed = 0;
    int missingModels = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool underModels = arg.rfind("models:", 0) == 0;
        const fs::path where = underModels ? fs::path(wsfuzz::modelPath(arg.substr(7))) : fs::path(arg);
        std::vector<fs::path> files;
        std::error_code ec;
        if (underModels && !fs::exists(where, ec)) {
            const std::string what =
                "test model missing: " + where.string() + " (set WAFERSCOPE_TEST_MODELS to the shared/models folder)";
            if (inCi)
                std::printf("FAIL!  : %s %s (CI=true: required in CI, so a failure rather than a skip)\n", argv[0],
                            what.c_str());
            else
                std::printf("SKIP   : %s [ws-skip:missing] %s\n", argv[0], what.c_str());
            ++missingModels;
            continue;
        }
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
    return replayed > 0 && !(inCi && missingModels > 0) ? 0 : 1;
}
