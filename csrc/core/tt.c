#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE: _POSIX_C_SOURCE alone hides them */
#define _POSIX_C_SOURCE 200809L
#include "tt.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define BUCKET TT_BUCKET

static inline uint64_t pack(uint32_t move, int32_t score, int depth, int flag, unsigned age)
{
    return (uint64_t)(move & 0xFFFFu) | (uint64_t)(uint32_t)score << 16 |
           (uint64_t)(depth & 0xFF) << 48 | (uint64_t)(flag & 3) << 56 | (uint64_t)(age & 63) << 58;
}

static inline void unpack(uint64_t d, TTHit *h)
{
    h->move = (uint32_t)(d & 0xFFFFu);
    h->score = (int32_t)(uint32_t)(d >> 16);
    h->depth = (int)(d >> 48 & 0xFF);
    h->flag = (int)(d >> 56 & 3);
}

/* The table's memory comes straight from the OS (an anonymous mapping), whose pages are zero
 * until first touched: allocating costs no time and no resident memory, so a process that
 * never searches never pays for its table.  A search then takes each page on its first write
 * (for the default table, a few dozen huge pages); a table asked for by size (core_set_hash,
 * `option hash`) is touched at once instead, outside any clock, since a search would take
 * its pages one fault at a time.  Each probe is a random line of a big table, so TLB misses
 * cost much of it: the table is aligned to 2 MB and transparent huge pages are asked for
 * (512x fewer pages). */
#define TT_ALIGN ((size_t)2 << 20)

/* Every page of the table resident now (zeros written over zeros). */
static void tt_touch(TT *tt)
{
    memset(tt->slots, 0, tt->bytes);
    tt->resident = 1;
}

int tt_resize(TT *tt, size_t mb, int touch)
{
    if (mb < 1) mb = 1;
    if (tt->slots && tt->mb == mb) {
        if (touch && !tt->resident) tt_touch(tt);
        return 0;
    }
    tt_free(tt);
    size_t buckets = 1;
    while (buckets * 2 * BUCKET * sizeof(TTSlot) <= mb * 1024 * 1024) buckets *= 2;
    size_t bytes = buckets * BUCKET * sizeof(TTSlot), span = bytes + TT_ALIGN;
    char *base = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return -1;
    char *start = (char *)(((uintptr_t)base + TT_ALIGN - 1) & ~(uintptr_t)(TT_ALIGN - 1));
    if (start > base) munmap(base, (size_t)(start - base));  /* the unaligned head and the tail back */
    size_t tail = (size_t)(base + span - (start + bytes));
    if (tail) munmap(start + bytes, tail);
#ifdef MADV_HUGEPAGE
    madvise(start, bytes, MADV_HUGEPAGE);
#endif
    tt->slots = (TTSlot *)(void *)start;
    tt->bytes = bytes;
    tt->mask = buckets - 1;
    tt->mb = mb;
    tt->age = 0;
    tt->written = 0;
    tt->resident = 0;
    if (touch) tt_touch(tt);
    return 0;
}

void tt_free(TT *tt)
{
    if (tt->slots) munmap(tt->slots, tt->bytes);
    tt->slots = NULL;
    tt->bytes = 0;
    tt->mask = 0;
    tt->mb = 0;
}

void tt_clear(TT *tt)
{
    /* A table no search has written since it was allocated or cleared is all zeros already:
     * left untouched (its pages stay unallocated). */
    if (tt->slots && tt->written) tt_touch(tt);
    tt->written = 0;
    tt->age = 0;
}

void tt_new_search(TT *tt)
{
    tt->age = (tt->age + 1) & 63;
    tt->written = 1;
}

int tt_probe(const TT *tt, uint64_t key, TTHit *hit)
{
    TTSlot *b = tt_bucket(tt, key);
    for (int i = 0; i < BUCKET; i++) {
        uint64_t kx = __atomic_load_n(&b[i].keyx, __ATOMIC_RELAXED);
        uint64_t d = __atomic_load_n(&b[i].data, __ATOMIC_RELAXED);
        if ((kx ^ d) == key && d) {
            unpack(d, hit);
            return 1;
        }
    }
    return 0;
}

void tt_store(TT *tt, uint64_t key, uint32_t move, int32_t score, int depth, int flag)
{
    TTSlot *b = tt_bucket(tt, key);
    int victim = 0, worst = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t kx = __atomic_load_n(&b[i].keyx, __ATOMIC_RELAXED);
        uint64_t d = __atomic_load_n(&b[i].data, __ATOMIC_RELAXED);
        if (d && (kx ^ d) == key) {
            TTHit old;
            unpack(d, &old);
            /* Keep a proven or much deeper entry unless this one is proven too. */
            if (depth != TT_DEPTH_PROVEN && (old.depth == TT_DEPTH_PROVEN || old.depth > depth + 2) &&
                (unsigned)(d >> 58) == tt->age)
                return;
            if (!move) move = old.move;
            victim = i;
            goto write;
        }
        if (!d) { victim = i; goto write; }
        int dep = (int)(d >> 48 & 0xFF);
        unsigned age = (unsigned)(d >> 58);
        /* Replace the shallowest entry, older searches first. */
        int value = dep - 16 * (int)((tt->age - age) & 63);
        if (value < worst) { worst = value; victim = i; }
    }
write:;
    uint64_t d = pack(move, score, depth, flag, tt->age);
    __atomic_store_n(&b[victim].data, d, __ATOMIC_RELAXED);
    __atomic_store_n(&b[victim].keyx, key ^ d, __ATOMIC_RELAXED);
}
