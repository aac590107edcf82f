// Greedy reference: prompt ids, generated ids and the top1-top2 logit margin per step (F32 KV, 1 thread).
#include "llama.h"
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
int main(int argc, char** argv)
{
    if (argc < 4)
        return 1;
    const char* path = argv[1];
    std::string prompt = argv[2];
    int steps = atoi(argv[3]);
    llama_backend_init();
    llama_log_set([](ggml_log_level, const char*, void*) {}, nullptr);
    auto mp = llama_model_default_params();
    llama_model* model = llama_model_load_from_file(path, mp);
    if (!model) {
        fprintf(stderr, "load failed\n");
        return 2;
    }
    auto cp = llama_context_default_params();
    cp.n_ctx = 512;
    cp.n_batch = 512;
    cp.n_threads = 1;
    cp.n_threads_batch = 1;
    cp.type_k = GGML_TYPE_F32;
    cp.type_v = GGML_TYPE_F32;
    if (getenv("NOFA"))
        cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    llama_context* ctx = llama_init_from_model(model, cp);
    const llama_vocab* vocab = llama_model_get_vocab(model);
    std::vector<llama_token> toks(512);
    int n = llama_tokenize(vocab, prompt.c_str(), (int)prompt.size(), toks.data(), 512, true, true);
    toks.resize(n);
    printf("{\"prompt_ids\": [");
    for (int i = 0; i < n; ++i)
        printf("%s%d", i ? ", " : "", toks[i]);
    printf("], ");
    llama_batch batch = llama_batch_get_one(toks.data(), n);
    std::vector<int> gen;
    std::vector<float> margins;
    std::vector<float> top;
    const int nv = llama_vocab_n_tokens(vocab);
    for (int s = 0; s < steps; ++s) {
        if (getenv("TOP5") && s == 0) {
            if (llama_decode(ctx, batch))
                return 3;
            const float* l0 = llama_get_logits_ith(ctx, -1);
            std::vector<int> ix(nv);
            for (int i = 0; i < nv; ++i)
                ix[i] = i;
            std::partial_sort(ix.begin(), ix.begin() + 5, ix.end(), [&](int a, int b) { return l0[a] > l0[b]; });
            for (int i = 0; i < 5; ++i)
                fprintf(stderr, "%d: %.6f\n", ix[i], l0[ix[i]]);
            return 0;
        }
        if (llama_decode(ctx, batch)) {
            fprintf(stderr, "decode failed\n");
            return 3;
        }
        const float* lg = llama_get_logits_ith(ctx, -1);
        int best = 0;
        for (int i = 1; i < nv; ++i)
            if (lg[i] > lg[best])
                best = i;
        float second = -1e30f;
        for (int i = 0; i < nv; ++i)
            if (i != best && lg[i] > second)
                second = lg[i];
        gen.push_back(best);
        margins.push_back(lg[best] - second);
        top.push_back(lg[best]);
        static llama_token t;
        t = best;
        batch = llama_batch_get_one(&t, 1);
    }
    printf("\"generated_ids\": [");
    for (size_t i = 0; i < gen.size(); ++i)
        printf("%s%d", i ? ", " : "", gen[i]);
    printf("], \"margins\": [");
    for (size_t i = 0; i < margins.size(); ++i)
        printf("%s%.6g", i ? ", " : "", margins[i]);
    printf("], \"top_logits\": [");
    for (size_t i = 0; i < top.size(); ++i)
        printf("%s%.6g", i ? ", " : "", top[i]);
    printf("]}\n");
    llama_free(ctx);
    llama_model_free(model);
    return 0;
}
