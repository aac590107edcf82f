#!/usr/bin/env python3
"""Writes the small RANDOM-WEIGHT F32 GGUF models of tests/engine/decode/data/ggmltypes.

Pure Python (struct + random, no numpy: the machine these were made on had no numpy,
so llama.cpp's gguf-py, which needs it, could not run). The GGUF layout written here
is the one gguf-py writes (version 3, 32-byte alignment, little endian).
The tokenizer is the 512-token stories260K SentencePiece vocabulary: every
tokenizer.* key is copied from stories260K.gguf (given as the first argument).
Every other type is made from these files with llama.cpp's llama-quantize
(see README.md).

usage: make_models.py <stories260K.gguf> <output dir>
       make_models.py --types <file.gguf>   (prints {ggml type number: tensor count})
"""
import math
import random
import struct
import sys

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
SCALAR = {U8: '<B', I8: '<b', U16: '<H', I16: '<h', U32: '<I', I32: '<i', F32: '<f', BOOL: '<?',
          U64: '<Q', I64: '<q', F64: '<d'}


def read_value(buf, off, vtype):
    if vtype == STR:
        (n,) = struct.unpack_from('<Q', buf, off)
        return buf[off + 8:off + 8 + n], off + 8 + n
    if vtype == ARR:
        (etype, count) = struct.unpack_from('<IQ', buf, off)
        off += 12
        items = []
        for _ in range(count):
            v, off = read_value(buf, off, etype)
            items.append(v)
        return (etype, items), off
    fmt = SCALAR[vtype]
    return struct.unpack_from(fmt, buf, off)[0], off + struct.calcsize(fmt)


def read_tokenizer_keys(path):
    buf = open(path, 'rb').read()
    assert buf[:4] == b'GGUF'
    _, _, nkv = struct.unpack_from('<IQQ', buf, 4)
    off = 24
    keys = []
    for _ in range(nkv):
        key, off = read_value(buf, off, STR)
        (vtype,) = struct.unpack_from('<I', buf, off)
        value, off = read_value(buf, off + 4, vtype)
        if key.startswith(b'tokenizer.'):
            keys.append((key.decode(), vtype, value))
    return keys


def pack_value(vtype, value):
    if vtype == STR:
        b = value if isinstance(value, bytes) else value.encode()
        return struct.pack('<Q', len(b)) + b
    if vtype == ARR:
        etype, items = value
        return struct.pack('<IQ', etype, len(items)) + b''.join(pack_value(etype, v) for v in items)
    return struct.pack(SCALAR[vtype], value)


def write_gguf(path, kvs, tensors):
    """kvs: [(key, type, value)]; tensors: [(name, ne list, float list)], all F32."""
    out = bytearray(b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(kvs)))
    for key, vtype, value in kvs:
        out += pack_value(STR, key) + struct.pack('<I', vtype) + pack_value(vtype, value)
    offset = 0
    datas = []
    for name, ne, values in tensors:
        out += pack_value(STR, name) + struct.pack('<I', len(ne)) + b''.join(struct.pack('<Q', n) for n in ne)
        out += struct.pack('<IQ', 0, offset)  # type 0 = F32
        data = struct.pack('<%df' % len(values), *values)
        datas.append(data)
        offset += (len(data) + 31) // 32 * 32
    out += b'\0' * ((-len(out)) % 32)
    for data in datas:
        out += data + b'\0' * ((-len(data)) % 32)
    open(path, 'wb').write(bytes(out))


def shape_kvs(arch, n_embd, n_ff, n_layer, n_head, n_head_kv, head_dim, name=None):
    """The general.* keys and the shape keys every model here starts its header with."""
    return [
        ('general.architecture', STR, arch),
        ('general.name', STR, name or '%s-random-%d' % (arch, n_embd)),
        ('general.description', STR, 'RANDOM WEIGHTS, for exactness tests only'),
        ('general.file_type', U32, 0),
        (arch + '.context_length', U32, 2048),
        (arch + '.embedding_length', U32, n_embd),
        (arch + '.feed_forward_length', U32, n_ff),
        (arch + '.block_count', U32, n_layer),
        (arch + '.attention.head_count', U32, n_head),
        (arch + '.attention.head_count_kv', U32, n_head_kv),
        (arch + '.attention.key_length', U32, head_dim),
        (arch + '.attention.value_length', U32, head_dim),
    ]


def make_model(arch, seed, n_embd, n_ff, n_layer, n_head, n_head_kv, head_dim, tokenizer, path, n_expert=0,
               n_expert_used=0):
    """A dense model, or with n_expert a mixture-of-experts one (llama Mixtral-style or qwen3moe): a router
    ffn_gate_inp [n_embd, n_expert] and stacked experts ffn_{gate,up}_exps [n_embd, n_ff, n_expert],
    ffn_down_exps [n_ff, n_embd, n_expert] instead of ffn_gate/up/down."""
    rng = random.Random(seed)
    n_vocab = 512

    def normal(count, std):
        return [rng.gauss(0.0, std) for _ in range(count)]

    def ones(count):
        return [1.0] * count

    tensors = [('token_embd.weight', [n_embd, n_vocab], normal(n_vocab * n_embd, 0.1))]
    q_dim, kv_dim = n_head * head_dim, n_head_kv * head_dim
    stack = [n_expert] if n_expert else []
    for i in range(n_layer):
        p = 'blk.%d.' % i
        tensors += [
            (p + 'attn_norm.weight', [n_embd], ones(n_embd)),
            (p + 'attn_q.weight', [n_embd, q_dim], normal(q_dim * n_embd, 1 / math.sqrt(n_embd))),
            (p + 'attn_k.weight', [n_embd, kv_dim], normal(kv_dim * n_embd, 1 / math.sqrt(n_embd))),
            (p + 'attn_v.weight', [n_embd, kv_dim], normal(kv_dim * n_embd, 1 / math.sqrt(n_embd))),
            (p + 'attn_output.weight', [q_dim, n_embd], normal(n_embd * q_dim, 1 / math.sqrt(q_dim))),
            (p + 'ffn_norm.weight', [n_embd], ones(n_embd)),
        ]
        if n_expert:
            tensors.append((p + 'ffn_gate_inp.weight', [n_embd, n_expert],
                            normal(n_expert * n_embd, 1 / math.sqrt(n_embd))))
        suffix = '_exps.weight' if n_expert else '.weight'
        count = max(n_expert, 1) * n_ff * n_embd
        tensors += [
            (p + 'ffn_gate' + suffix, [n_embd, n_ff] + stack, normal(count, 1 / math.sqrt(n_embd))),
            (p + 'ffn_up' + suffix, [n_embd, n_ff] + stack, normal(count, 1 / math.sqrt(n_embd))),
            (p + 'ffn_down' + suffix, [n_ff, n_embd] + stack, normal(count, 1 / math.sqrt(n_ff))),
        ]
        if arch in ('qwen3', 'qwen3moe'):
            tensors += [(p + 'attn_q_norm.weight', [head_dim], ones(head_dim)),
                        (p + 'attn_k_norm.weight', [head_dim], ones(head_dim))]
        if arch == 'qwen2':
            tensors += [(p + 'attn_q.bias', [q_dim], normal(q_dim, 0.1)),
                        (p + 'attn_k.bias', [kv_dim], normal(kv_dim, 0.1)),
                        (p + 'attn_v.bias', [kv_dim], normal(kv_dim, 0.1))]
    tensors.append(('output_norm.weight', [n_embd], ones(n_embd)))
    kvs = shape_kvs(arch, n_embd, n_ff * n_expert_used if arch == 'qwen3moe' else n_ff, n_layer, n_head, n_head_kv,
                    head_dim, ('%s-moe-random-%d' % (arch, n_embd)) if n_expert else None) + [
        (arch + '.rope.dimension_count', U32, head_dim),
        (arch + '.rope.freq_base', F32, 10000.0),
        (arch + '.attention.layer_norm_rms_epsilon', F32, 1e-5 if arch == 'llama' else 1e-6),
    ]
    if n_expert:
        kvs += [(arch + '.expert_count', U32, n_expert), (arch + '.expert_used_count', U32, n_expert_used)]
    kvs += tokenizer
    if arch == 'qwen3moe':
        kvs.append((arch + '.expert_feed_forward_length', U32, n_ff))
    write_gguf(path, kvs, tensors)


def gaussians(rng):
    """normal(count, std): N(0, std) values; norm(count): 1 + N(0, 0.1) values; both drawn from rng."""
    def normal(count, std):
        return [rng.gauss(0.0, std) for _ in range(count)]

    def norm(count):
        return [1.0 + rng.gauss(0.0, 0.1) for _ in range(count)]

    return normal, norm


def qkv_weights(p, normal, n_embd, q_dim, kv_dim):
    """A layer's attn_q, attn_k and attn_v matrices, standard deviation 1/sqrt(n_embd), drawn in that order."""
    return [(p + 'attn_%s.weight' % name, [n_embd, rows], normal(rows * n_embd, 1 / math.sqrt(n_embd)))
            for name, rows in (('q', q_dim), ('k', kv_dim), ('v', kv_dim))]


def make_gemma3(seed, tokenizer, path):
    """gemma3: 2 layers (layer 0 sliding with a window of 8 positions, layer 1 global: sliding_window_pattern 2),
    q/k norms, post-attention and post-FFN norms, GELU-tanh gated FFN, linear RoPE scaling (global layers only),
    final logit softcapping (5, low enough to matter for these logits). Embedding standard deviation 0.02:
    scaled by sqrt(256) it no longer drowns the layers. The norms are random around 1: a GGUF stores Gemma's (1 + weight) already added."""
    rng = random.Random(seed)
    n_embd, n_ff, n_layer, n_head, n_head_kv, head_dim, n_vocab = 256, 256, 2, 4, 2, 64, 512

    normal, norm = gaussians(rng)

    q_dim, kv_dim = n_head * head_dim, n_head_kv * head_dim
    tensors = [('token_embd.weight', [n_embd, n_vocab], normal(n_vocab * n_embd, 0.02))]
    for i in range(n_layer):
        p = 'blk.%d.' % i
        tensors += [
            (p + 'attn_norm.weight', [n_embd], norm(n_embd)),
        ] + qkv_weights(p, normal, n_embd, q_dim, kv_dim) + [
            (p + 'attn_q_norm.weight', [head_dim], norm(head_dim)),
            (p + 'attn_k_norm.weight', [head_dim], norm(head_dim)),
            (p + 'attn_output.weight', [q_dim, n_embd], normal(n_embd * q_dim, 1 / math.sqrt(q_dim))),
            (p + 'post_attention_norm.weight', [n_embd], norm(n_embd)),
            (p + 'ffn_norm.weight', [n_embd], norm(n_embd)),
            (p + 'ffn_gate.weight', [n_embd, n_ff], normal(n_ff * n_embd, 1 / math.sqrt(n_embd))),
            (p + 'ffn_up.weight', [n_embd, n_ff], normal(n_ff * n_embd, 1 / math.sqrt(n_embd))),
            (p + 'ffn_down.weight', [n_ff, n_embd], normal(n_embd * n_ff, 1 / math.sqrt(n_ff))),
            (p + 'post_ffw_norm.weight', [n_embd], norm(n_embd)),
        ]
    tensors.append(('output_norm.weight', [n_embd], norm(n_embd)))
    a = 'gemma3.'
    kvs = shape_kvs('gemma3', n_embd, n_ff, n_layer, n_head, n_head_kv, head_dim) + [
        (a + 'attention.layer_norm_rms_epsilon', F32, 1e-6),
        (a + 'attention.sliding_window', U32, 8),
        (a + 'attention.sliding_window_pattern', U32, 2),
        (a + 'rope.freq_base', F32, 1000000.0),
        (a + 'rope.scaling.type', STR, 'linear'),
        (a + 'rope.scaling.factor', F32, 8.0),
        (a + 'final_logit_softcapping', F32, 5.0),
    ] + tokenizer
    write_gguf(path, kvs, tensors)


def make_gptoss(seed, tokenizer, path):
    """gpt-oss: 2 layers (layer 0 sliding with a window of 8 positions, layer 1 global: llama.cpp's pattern 2),
    Q/K/V/O biases, learned attention sinks (one logit per head), NeoX RoPE with YaRN scaling (gpt-oss's factor
    32, original context 4096, base 150000), post_attention_norm before the FFN, a biased router over 4 experts
    (2 used, softmax over the selected logits), stacked experts with biases, the clamped SwiGLU (alpha 1.702,
    limit 7: the gate and up weights are wide enough that some inputs reach the clamp) and an untied output."""
    rng = random.Random(seed)
    n_embd, n_ff, n_layer, n_head, n_head_kv, head_dim, n_vocab = 256, 256, 2, 4, 2, 64, 512
    n_expert, n_used = 4, 2

    normal, norm = gaussians(rng)

    q_dim, kv_dim = n_head * head_dim, n_head_kv * head_dim
    tensors = [('token_embd.weight', [n_embd, n_vocab], normal(n_vocab * n_embd, 0.1))]
    for i in range(n_layer):
        p = 'blk.%d.' % i
        tensors += [
            (p + 'attn_norm.weight', [n_embd], norm(n_embd)),
        ] + qkv_weights(p, normal, n_embd, q_dim, kv_dim) + [
            (p + 'attn_q.bias', [q_dim], normal(q_dim, 0.1)),
            (p + 'attn_k.bias', [kv_dim], normal(kv_dim, 0.1)),
            (p + 'attn_v.bias', [kv_dim], normal(kv_dim, 0.1)),
            (p + 'attn_output.weight', [q_dim, n_embd], normal(n_embd * q_dim, 1 / math.sqrt(q_dim))),
            (p + 'attn_output.bias', [n_embd], normal(n_embd, 0.1)),
            (p + 'attn_sinks.weight', [n_head], normal(n_head, 1.0)),
            (p + 'post_attention_norm.weight', [n_embd], norm(n_embd)),
            (p + 'ffn_gate_inp.weight', [n_embd, n_expert], normal(n_expert * n_embd, 1 / math.sqrt(n_embd))),
            (p + 'ffn_gate_inp.bias', [n_expert], normal(n_expert, 0.1)),
            (p + 'ffn_gate_exps.weight', [n_embd, n_ff, n_expert], normal(n_expert * n_ff * n_embd, 3 / math.sqrt(n_embd))),
            (p + 'ffn_gate_exps.bias', [n_ff, n_expert], normal(n_expert * n_ff, 0.5)),
            (p + 'ffn_up_exps.weight', [n_embd, n_ff, n_expert], normal(n_expert * n_ff * n_embd, 3 / math.sqrt(n_embd))),
            (p + 'ffn_up_exps.bias', [n_ff, n_expert], normal(n_expert * n_ff, 0.5)),
            (p + 'ffn_down_exps.weight', [n_ff, n_embd, n_expert], normal(n_expert * n_embd * n_ff, 0.25 / math.sqrt(n_ff))),
            (p + 'ffn_down_exps.bias', [n_embd, n_expert], normal(n_expert * n_embd, 0.1)),
        ]
    tensors += [('output_norm.weight', [n_embd], norm(n_embd)),
                ('output.weight', [n_embd, n_vocab], normal(n_vocab * n_embd, 1 / math.sqrt(n_embd)))]
    a = 'gpt-oss.'
    kvs = shape_kvs('gpt-oss', n_embd, n_ff, n_layer, n_head, n_head_kv, head_dim) + [
        (a + 'expert_count', U32, n_expert),
        (a + 'expert_used_count', U32, n_used),
        (a + 'expert_feed_forward_length', U32, n_ff),
        (a + 'attention.layer_norm_rms_epsilon', F32, 1e-5),
        (a + 'attention.sliding_window', U32, 8),
        (a + 'rope.dimension_count', U32, head_dim),
        (a + 'rope.freq_base', F32, 150000.0),
        (a + 'rope.scaling.type', STR, 'yarn'),
        (a + 'rope.scaling.factor', F32, 32.0),
        (a + 'rope.scaling.original_context_length', U32, 4096),
    ] + tokenizer
    write_gguf(path, kvs, tensors)


def tensor_types(path):
    """{type number: tensor count} of a GGUF file."""
    buf = open(path, 'rb').read()
    _, ntensors, nkv = struct.unpack_from('<IQQ', buf, 4)
    off = 24
    for _ in range(nkv):
        _, off = read_value(buf, off, STR)
        (vtype,) = struct.unpack_from('<I', buf, off)
        _, off = read_value(buf, off + 4, vtype)
    counts = {}
    for _ in range(ntensors):
        _, off = read_value(buf, off, STR)
        (ndim,) = struct.unpack_from('<I', buf, off)
        off += 4 + 8 * ndim
        (ttype,) = struct.unpack_from('<I', buf, off)
        off += 12
        counts[ttype] = counts.get(ttype, 0) + 1
    return counts


def main():
    if sys.argv[1] == '--types':
        print(tensor_types(sys.argv[2]))
        return
    tokenizer = read_tokenizer_keys(sys.argv[1])
    out = sys.argv[2]
    make_model('llama', 1234, 256, 256, 1, 4, 2, 64, tokenizer, out + '/llama-random-F32.gguf')
    make_model('qwen3', 5678, 256, 256, 1, 4, 2, 64, tokenizer, out + '/qwen3-random-F32.gguf')
    # MoE: 4 experts, 2 used, expert FFN 256.
    make_model('llama', 4321, 256, 256, 1, 4, 2, 64, tokenizer, out + '/llamamoe-random-F32.gguf', 4, 2)
    make_model('qwen3moe', 8765, 256, 256, 1, 4, 2, 64, tokenizer, out + '/qwen3moe-random-F32.gguf', 4, 2)
    make_model('qwen2', 2468, 256, 256, 1, 4, 2, 64, tokenizer, out + '/qwen2-random-F32.gguf')
    make_gemma3(1357, tokenizer, out + '/gemma3-random-F32.gguf')
    make_gptoss(9753, tokenizer, out + '/gptoss-random-F32.gguf')


if __name__ == '__main__':
    main()
