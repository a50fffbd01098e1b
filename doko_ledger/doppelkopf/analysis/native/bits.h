/* What both compiled searches share (solver.c, specials.c): the bit tricks on a hand's word and
 * the memory of a transposition table. A hand is a 64-bit word with two bits per card number
 * (bit 2i: a first copy of card i, bit 2i+1: a second), as in position.py. */
#ifndef DK_BITS_H
#define DK_BITS_H
#if defined(__linux__)
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and madvise */
#include <sys/mman.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CARDS 24
#define SEATS 4
#define AFTER(seat, k) (((seat) + (k)) & (SEATS - 1)) /* the seat k places after `seat` (four seats) */
#define STOPPED (-(1 << 30))

/* Bits set, without the library call a compiler makes for a CPU it may not assume has one. */
static inline int popcount(uint64_t x) {
    x -= x >> 1 & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)(x * 0x0101010101010101ULL >> 56);
}
static inline int lowest(uint64_t x) { return __builtin_ctzll(x); }
static inline int highest(uint64_t x) { return 63 - __builtin_clzll(x); }

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

/* Bits 0, 2, 4, ... of a hand's word gathered into 24 bits, one per card type. */
static inline uint64_t gathered(uint64_t x) {
    x &= 0x555555555555ULL;
    x = (x | x >> 1) & 0x333333333333ULL;
    x = (x | x >> 2) & 0x0f0f0f0f0f0fULL;
    x = (x | x >> 4) & 0x00ff00ff00ffULL;
    x = (x | x >> 8) & 0x0000ffff0000ffffULL;
    return (x | x >> 16) & 0xffffffULL;
}

/* Cards left in the four hands. */
static inline int cards_left(const uint64_t *hands) {
    return popcount(hands[0]) + popcount(hands[1]) + popcount(hands[2]) + popcount(hands[3]);
}

/* What a fail-soft search that found `best` in the window (a0, b0) says of the position's
 * value: an upper bound (at or below a0), a lower bound (at or above b0), or the value itself,
 * narrowing the bounds `*lo`, `*hi` known before. */
static inline void narrow(int best, int a0, int b0, int *lo, int *hi) {
    if (best <= a0) {
        if (best < *hi) *hi = best;
    } else if (best >= b0) {
        if (best > *lo) *lo = best;
    } else {
        *lo = *hi = best;
    }
}

/* `bytes` of zeroed memory for a table. On Linux, a large one is asked for in huge pages: a
 * probe lands anywhere in up to 100 MB, and with small pages nearly every probe also missed
 * the address translation's cache. */
static void *table_alloc(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= (1u << 21)) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
#endif
    return calloc(1, bytes);
}

static void table_release(void *table, size_t bytes) {
    if (!table) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= (1u << 21)) {
        munmap(table, bytes);
        return;
    }
#endif
    (void)bytes;
    free(table);
}
#endif
