// GGUF reader: header, metadata, tensor index; on what it accepts, the model load (hyper-parameters and
// weight views) and the first forward step, one thread, context 2.
#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/gguf/gguffile.h"
#include "tests/fuzz/fuzzinput.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    wsfuzz::InputFile input(data, size);
    if (!input.ok())
        return 0;
    auto file = ws::GgufFile::open(input.path());
    if (!file)
        return 0;
    auto model = ws::DecodeModel::load(input.path());
    if (!model || model->config().vocabSize < 1)
        return 0;
    // Only small models step (a fuzzed header can claim a huge context or width).
    if (model->weights().bytesPerToken() > (64u << 20))
        return 0;
    ws::Generator generator(*model, 2, 1);
    ws::GenerationSettings settings;
    settings.maxTokens = 1;
    const std::vector<ws::TokenId> prompt{0};
    if (generator.start(prompt, settings))
        (void)generator.step();
    return 0;
}
