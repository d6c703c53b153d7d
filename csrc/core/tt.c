#define _DEFAULT_SOURCE /* MADV_HUGEPAGE: _POSIX_C_SOURCE alone hides it (silently skipped) */
#define _POSIX_C_SOURCE 200809L
#include "tt.h"

#include <stdlib.h>
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

int tt_resize(TT *tt, size_t mb)
{
    if (mb < 1) mb = 1;
    if (tt->slots && tt->mb == mb) return 0;
    tt_free(tt);
    size_t buckets = 1;
    while (buckets * 2 * BUCKET * sizeof(TTSlot) <= mb * 1024 * 1024) buckets *= 2;
    void *mem = NULL;
    size_t bytes = buckets * BUCKET * sizeof(TTSlot);
    /* Each probe is a random line of a big table: TLB misses cost much of it.  Huge pages
     * (2 MB aligned, transparent huge pages asked for) make 512x fewer pages. */
    if (posix_memalign(&mem, bytes >= (2u << 20) ? (2u << 20) : 64, bytes)) return -1;
#ifdef MADV_HUGEPAGE
    if (bytes >= (2u << 20)) madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    tt->slots = mem;
    tt->mask = buckets - 1;
    tt->mb = mb;
    tt_clear(tt);
    return 0;
}

void tt_free(TT *tt)
{
    free(tt->slots);
    tt->slots = NULL;
    tt->mask = 0;
    tt->mb = 0;
}

void tt_clear(TT *tt)
{
    if (tt->slots) memset(tt->slots, 0, (tt->mask + 1) * BUCKET * sizeof(TTSlot));
    tt->age = 0;
}

void tt_new_search(TT *tt) { tt->age = (tt->age + 1) & 63; }

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
