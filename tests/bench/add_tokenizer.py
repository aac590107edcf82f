#!/usr/bin/env python3
"""Copies a GGUF file, adding the tokenizer.* keys of another GGUF file.

bench_decode's random-weight models carry no tokenizer, and llama.cpp's llama-bench
refuses a model without one; this gives them one (e.g. the Qwen3 vocabulary of the
test models' tokenizer/ggml-vocab-qwen3.gguf) so both programs can read the same
weights. The tensor data is copied unchanged (its offsets are relative to the data
section, so only the header grows).

usage: add_tokenizer.py <model.gguf> <vocab.gguf> <out.gguf>
"""
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'engine', 'decode', 'data',
                                'ggmltypes'))
from make_models import STR, pack_value, read_tokenizer_keys, read_value  # noqa: E402

ALIGNMENT = 32  # general.alignment is not written by bench_decode's generator


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, vocab, dst = sys.argv[1:4]
    with open(src, 'rb') as f:
        head = f.read(64 << 20)
    assert head[:4] == b'GGUF', src + ' is not a GGUF file'
    _, tensors, kv_count = struct.unpack_from('<IQQ', head, 4)
    off = 24
    kept = []
    for _ in range(kv_count):
        start = off
        key, off = read_value(head, off, STR)
        (vtype,) = struct.unpack_from('<I', head, off)
        _, off = read_value(head, off + 4, vtype)
        if not key.startswith(b'tokenizer.'):
            kept.append(head[start:off])
    index_start = off
    for _ in range(tensors):
        _, off = read_value(head, off, STR)
        (dims,) = struct.unpack_from('<I', head, off)
        off += 4 + 8 * dims + 12
    index = head[index_start:off]
    data_start = (off + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT
    tokenizer = read_tokenizer_keys(vocab)
    out = bytearray(b'GGUF' + struct.pack('<IQQ', 3, tensors, len(kept) + len(tokenizer)))
    for kv in kept:
        out += kv
    for key, vtype, value in tokenizer:
        out += pack_value(STR, key) + struct.pack('<I', vtype) + pack_value(vtype, value)
    out += index
    out += b'\0' * ((-len(out)) % ALIGNMENT)
    with open(src, 'rb') as f, open(dst, 'wb') as o:
        o.write(out)
        f.seek(data_start)
        shutil.copyfileobj(f, o, 16 << 20)


if __name__ == '__main__':
    main()
