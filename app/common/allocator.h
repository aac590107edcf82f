#pragma once
// How the programs ask glibc's allocator to hand large buffers back. A frame,
// a thumbnail or a recording's image is hundreds of KiB to tens of MiB and
// lives for one frame. glibc maps such blocks and unmaps them on free, but
// after the first large free it raises its mapping threshold (up to 32 MiB)
// and later images come from the heap, where freed space is kept: a tour
// looping for 30 minutes offscreen grew by 8 to 10 % between the mean RSS of
// its first and last quarter (three runs; peaks of 293 to 310 MiB; bench_soak
// tour). With the threshold fixed at 256 KiB those buffers are always mapped
// and returned: +0.5 % (165 -> 166 MiB), peak 207 MiB.

namespace ws {

// Fixes glibc's mmap threshold at 256 KiB (mallopt M_MMAP_THRESHOLD); nothing elsewhere. Call first in main.
void keepLargeBuffersMapped();

} // namespace ws
