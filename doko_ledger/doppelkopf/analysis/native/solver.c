/* The double-dummy solver's search, compiled: the same alpha-beta as solver.py (fail-soft,
 * zero-window questions from Python, a transposition table kept across one game's positions,
 * move ordering, equivalent cards once, quick bounds), over the tables position.py derives
 * from the rules core. Nothing here knows a rule of the game: who beats whom, the suits and
 * the card points all come in as tables.
 *
 * A hand is a 64-bit word with two bits per card number (bit 2i: a first copy of card i,
 * bit 2i+1: a second), as in position.py. Values are Re's card points from the trick on the
 * table and the tricks to come.
 *
 * Plain C99, no Python header: loaded with ctypes (native/__init__.py).
 */
#include "bits.h"

#define DK_VERSION 5
#define FAR (1 << 20)
#define SMALLEST_TABLE (1u << 12)
#define LARGEST_TABLE (1u << 22)
#define PROBES 8
#define SURE_LAST 12 /* more than any card's points: a sure winner (no card still out beats it) comes last */

typedef struct {
    uint64_t key[2];       /* the position closed up: table_key */
    uint8_t lo, hi;        /* bounds on the value of the tricks to come (at most 240 points) */
    int8_t best;           /* the card that did best, or -1 */
    uint8_t left;          /* cards left in all hands; 0: an empty slot */
    uint8_t held[3];       /* the card types the hands held before closing up, 24 bits */
} Entry;

typedef struct {
    uint8_t points[CARDS], suit[CARDS], equal_ok[CARDS], re[SEATS], top_points;
    uint64_t suit_bits[5];
    uint8_t beats[CARDS * CARDS], beats_last[CARDS * CARDS];
    uint64_t beaten_by[CARDS], beaten_by_last[CARDS]; /* the bits of the cards that beat card w */
    uint8_t run_start[CARDS], run_length[CARDS], runs; /* runs of card types alike but for points */
    uint32_t run_mask[CARDS];                          /* the types of each run */
    uint8_t pack[16][16];                              /* packed() four types at a time */
    int plain;
    int64_t limit, nodes;
    int stopped;
    int64_t history[CARDS];
    int8_t killer[2 * CARDS + 1][SEATS]; /* by cards in hand and seat: the last lead that cut off, + 1 */
    Entry *table;
    uint32_t size, used;
} Ctx;

static inline uint32_t slot_of(const uint64_t *key, uint32_t mask) {
    uint64_t h = mix(key[0] ^ mix(key[1]));
    return (uint32_t)h & mask;
}

static inline uint32_t held_of(const Entry *e) {
    return e->held[0] | (uint32_t)e->held[1] << 8 | (uint32_t)e->held[2] << 16;
}

static int same(const Entry *e, const uint64_t *key) {
    return e->left && e->key[0] == key[0] && e->key[1] == key[1];
}

static void put(Ctx *c, const Entry *entry);
static int slack(const Ctx *c, uint32_t then, uint32_t now, uint32_t twice, int *up);

static int grow(Ctx *c) {
    uint32_t old_size = c->size;
    Entry *old = c->table;
    uint32_t size = old ? old_size * 2 : SMALLEST_TABLE;
    Entry *table = table_alloc((size_t)size * sizeof(Entry));
    if (!table) return 0;
    c->table = table;
    c->size = size;
    c->used = 0;
    for (uint32_t i = 0; i < old_size; i++)
        if (old[i].left) put(c, &old[i]);
    table_release(old, (size_t)old_size * sizeof(Entry));
    return 1;
}

/* Stores an entry: over one of its key whose cards carry the same points (its own position,
 * or one where, say, other queens or jacks have fallen), else in an empty slot, else over the one
 * nearest the end of the game among those probed (the cheapest to search again). */
static void put(Ctx *c, const Entry *entry) {
    if ((!c->table || c->used * 2 >= c->size) && (!c->table || c->size < LARGEST_TABLE)) grow(c);
    if (!c->table) return;
    uint32_t mask = c->size - 1, i = slot_of(entry->key, mask);
    Entry *victim = NULL;
    for (int p = 0; p < PROBES; p++, i = (i + 1) & mask) {
        Entry *e = &c->table[i];
        if (!e->left) {
            *e = *entry;
            c->used++;
            return;
        }
        int up;
        if (same(e, entry->key) && !slack(c, held_of(e), held_of(entry), 0, &up) && !up) {
            *e = *entry;
            return;
        }
        if (!victim || e->left < victim->left) victim = e;
    }
    *victim = *entry;
}

/* Everyone holds one card: the trick plays itself. */
static int last_trick(const Ctx *c, const uint64_t *hands, int seat) {
    int wcard = highest(hands[seat]) >> 1, wseat = seat, total = c->points[wcard];
    for (int i = 1; i < SEATS; i++) {
        int s = AFTER(seat, i), card = highest(hands[s]) >> 1;
        total += c->points[card];
        if (c->beats_last[wcard * CARDS + card]) wseat = s, wcard = card;
    }
    return c->re[wseat] ? total : 0;
}

/* Whether cards x and y (x just above y) play alike against every other card and each other
 * as two ranks of one suit do: the same suit, the first of two copies taking the second,
 * every third card beating both or neither and beaten by both or neither, in both tables.
 * Their points may differ. */
static int alike_in_rank(const Ctx *c, int x, int y) {
    if (c->suit[x] != c->suit[y] || !c->equal_ok[x] || !c->equal_ok[y]) return 0;
    const uint8_t *tables[2] = {c->beats, c->beats_last};
    for (int t = 0; t < 2; t++) {
        const uint8_t *b = tables[t];
        if (b[x * CARDS + y] || !b[y * CARDS + x] || b[x * CARDS + x] || b[y * CARDS + y]) return 0;
        for (int z = 0; z < CARDS; z++)
            if (z != x && z != y &&
                (b[z * CARDS + x] != b[z * CARDS + y] || b[x * CARDS + z] != b[y * CARDS + z]))
                return 0;
    }
    return 1;
}

/* The bits of `field` where `in_run` has a bit, moved to the lowest bits in their order. */
static inline uint64_t packed(const Ctx *c, uint64_t field, uint64_t in_run, int length) {
    static const uint8_t count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    uint64_t out = c->pack[in_run & 15][field & 15];
    for (int o = 4, k = count[in_run & 15]; o < length; o += 4) {
        uint64_t part = in_run >> o & 15;
        out |= (uint64_t)c->pack[part][field >> o & 15] << k;
        k += count[part];
    }
    return out;
}

/* The transposition table's key, in two words: the hands with, in each run of card types alike
 * but for their points (a suit in rank order, the trumps from the highest to the lowest), the
 * types still held moved to the top of the run, and the seat to play. A position where other
 * cards of a run have fallen plays as this one, card for card by rank: the same tricks go to
 * the same players, and only the points the cards carry differ (`slack`; none where other
 * queens or jacks have fallen). Returns the types held, `*twice` those whose both copies are
 * still in the hands. The hands are written
 * as the card types each holds (24 bits a hand) and the types some hand holds both copies of
 * (24 bits): that says who holds every copy, in 122 bits instead of 194, so that an entry
 * takes 24 bytes, not 40, and a probe reads fewer cache lines. The runs are closed up on those
 * five words, a small table at a time, and only where a type above a held one is gone. */
static uint32_t table_key(const Ctx *c, const uint64_t *hands, int seat, uint64_t *key, uint32_t *twice) {
    uint64_t words[SEATS + 1], both = 0;
    for (int s = 0; s < SEATS; s++) {
        words[s] = gathered(hands[s] | hands[s] >> 1);
        both |= hands[s] & hands[s] >> 1;
    }
    words[SEATS] = gathered(both);
    uint64_t in_two = (words[0] & (words[1] | words[2] | words[3])) | (words[1] & (words[2] | words[3])) |
                      (words[2] & words[3]);
    *twice = (uint32_t)(words[SEATS] | in_two);
    uint64_t held = words[0] | words[1] | words[2] | words[3];
    for (int r = 0; r < c->runs; r++) {
        int start = c->run_start[r], length = c->run_length[r];
        uint64_t mask = (1ULL << length) - 1, in_run = held >> start & mask;
        if (!(in_run & (in_run + 1))) continue; /* the types held are at the top already */
        for (int w = 0; w <= SEATS; w++) {
            uint64_t field = words[w] >> start & mask;
            if (field) words[w] = (words[w] & ~(mask << start)) | packed(c, field, in_run, length) << start;
        }
    }
    key[0] = words[0] | words[1] << 24 | words[2] << 48;
    key[1] = words[2] >> 16 | words[3] << 8 | words[SEATS] << 32 | (uint64_t)seat << 56;
    return (uint32_t)held;
}

/* How far the value of a position holding the card types `now` (`twice`: those of which both
 * copies) may lie from that of one holding `then` with the same key: played card for card by
 * rank, every trick goes to the same player, and each card's points to the same party, so the
 * value drops by at most the points the cards of `then` carry above their counterparts (the
 * result) and rises by at most those they carry below (`*up`). */
static int slack(const Ctx *c, uint32_t then, uint32_t now, uint32_t twice, int *up) {
    int down = 0;
    *up = 0;
    for (int r = 0; r < c->runs; r++) {
        uint32_t a = then & c->run_mask[r], b = now & c->run_mask[r];
        while (a != b) {
            int x = lowest(a), y = lowest(b), diff = (int)c->points[x] - (int)c->points[y];
            a &= a - 1, b &= b - 1;
            if (twice >> y & 1) diff *= 2;
            if (diff > 0)
                down += diff;
            else
                *up -= diff;
        }
    }
    return down;
}

/* The card of a position holding the types `now` that stands where `card` stood in one
 * holding `then` with the same key (-1 for none). */
static int mapped(const Ctx *c, int card, uint32_t then, uint32_t now) {
    if (card < 0 || then == now) return card;
    for (int r = 0; r < c->runs; r++) {
        uint32_t mask = c->run_mask[r];
        if (!(mask >> card & 1)) continue;
        uint32_t a = then & mask, b = now & mask;
        for (int k = popcount(a & ((1u << card) - 1)); k > 0; k--) b &= b - 1;
        return b ? lowest(b) : -1;
    }
    return card;
}

/* Moves `card` to the front of the moves, keeping the others' order (none when -1 or absent). */
static void first(int *moves, int count, int card) {
    for (int i = 0; i < count; i++)
        if (moves[i] == card) {
            memmove(moves + 1, moves, i * sizeof(int));
            moves[0] = card;
            return;
        }
}

/* A card cut off the search: it counts for the move ordering everywhere (history), and at a
 * trick start it is the lead tried first by this seat with as many cards in hand (killer). */
static void cut(Ctx *c, int n, uint64_t hand, int seat, int card, int rest) {
    c->history[card] += rest;
    if (n == 0) c->killer[popcount(hand)][seat] = (int8_t)(card + 1);
}

/* The cheapest card points among `cards`. */
static int cheapest(const Ctx *c, uint64_t cards) {
    int least = 1 << 10;
    while (cards) {
        int card = lowest(cards) >> 1;
        cards &= ~(3ULL << (2 * card));
        if (c->points[card] < least) least = c->points[card];
    }
    return least;
}

/* Inside a trick: when no card the players still to play may play beats the trick's best
 * card, the trick is its winner's, with at least the cheapest card each of them may play.
 * Then Re takes at least that much (winner of Re) or at most the rest without it (winner of
 * Kontra): the bound on the side of the winner's party, or -1 / FAR when the trick is open. */
static int decided(const Ctx *c, const uint64_t *hands, int seat, int n, int led, int wseat, int wcard, int pts,
                   int rest) {
    uint64_t hand = hands[seat];
    const uint64_t beaten = (hand & (hand - 1)) ? c->beaten_by[wcard] : c->beaten_by_last[wcard];
    int add = 0;
    for (int k = 0; k < SEATS - n; k++) {
        uint64_t h = hands[AFTER(seat, k)], legal = h & c->suit_bits[led];
        if (!legal) legal = h;
        if (legal & beaten) return c->re[wseat] ? -1 : FAR;
        add += cheapest(c, legal);
    }
    return c->re[wseat] ? pts + add : rest - add;
}

/* The table's bounds on a trick start holding the card types `held` (`twice`: those of which
 * both copies), narrowing `*lo` and `*hi`: every entry of its key gives its bounds, widened by
 * the slack between the two positions' points (worked out only where they could narrow).
 * Returns the card to try first: the best of the entry whose types held differ in the fewest
 * from these (the lowest types held among equals), mapped onto this position. */
static int look(const Ctx *c, const uint64_t *key, uint32_t held, uint32_t twice, int *lo, int *hi) {
    if (!c->table) return -1;
    int best = -1, fewest = CARDS + 1;
    uint32_t best_held = 0, mask = c->size - 1, i = slot_of(key, mask);
    for (int p = 0; p < PROBES; p++, i = (i + 1) & mask) {
        const Entry *e = &c->table[i];
        if (!e->left) break;
        if (!same(e, key)) continue;
        uint32_t then = held_of(e);
        int differ = popcount(then ^ held);
        if (differ < fewest || (differ == fewest && then < best_held))
            fewest = differ, best_held = then, best = e->best;
        if (e->lo <= *lo && e->hi >= *hi) continue; /* cannot narrow them, with any slack */
        int up = 0, down = differ ? slack(c, then, held, twice, &up) : 0;
        if (e->lo - down > *lo) *lo = e->lo - down;
        if (e->hi + up < *hi) *hi = e->hi + up;
    }
    return mapped(c, best, best_held, held);
}

static int node(Ctx *c, uint64_t *hands, int seat, int n, int led, int wseat, int wcard, int pts,
                uint64_t on_table, int rest, int alpha, int beta) {
    if (++c->nodes > c->limit) {
        c->stopped = 1;
        return STOPPED;
    }
    uint64_t hand = hands[seat], legal;
    int hint = -1, known_lo = 0, known_hi = FAR;
    uint64_t key[2];
    uint32_t held = 0, twice = 0;
    if (n == 0) {
        if (!hand) return 0;
        if (!(hand & (hand - 1))) return last_trick(c, hands, seat);
        if (rest <= alpha) return rest;
        if (beta <= 0) return 0;
        if (!c->plain) {
            held = table_key(c, hands, seat, key, &twice);
            known_hi = rest;
            hint = look(c, key, held, twice, &known_lo, &known_hi);
            if (known_lo >= beta) return known_lo;
            if (known_hi <= alpha) return known_hi;
            if (known_lo > alpha) alpha = known_lo;
            if (known_hi < beta) beta = known_hi;
        }
        legal = hand;
    } else {
        if (pts + rest <= alpha) return pts + rest;
        legal = hand & c->suit_bits[led];
        if (!legal) legal = hand;
        int most = (SEATS - n) * c->top_points; /* the most the cards still to come add to the trick */
        if (!c->plain && (c->re[wseat] ? pts + most >= beta : rest - most <= alpha)) {
            int bound = decided(c, hands, seat, n, led, wseat, wcard, pts, rest);
            if (c->re[wseat]) {
                if (bound >= beta) return bound;
            } else if (bound <= alpha) {
                return bound;
            }
        }
    }
    const uint8_t *beats = (hand & (hand - 1)) ? c->beats : c->beats_last;
    uint64_t others = hands[AFTER(seat, 1)] | hands[AFTER(seat, 2)] | hands[AFTER(seat, 3)] | on_table;
    int moves[CARDS], count = 0, prev = -1;
    for (uint64_t m = legal; m;) {
        int card = lowest(m) >> 1;
        m &= ~(3ULL << (2 * card));
        if (!c->plain && prev >= 0 && c->points[card] == c->points[prev] && c->suit[card] == c->suit[prev] &&
            c->equal_ok[card] && c->equal_ok[prev] && !(others & ((4ULL << (2 * card)) - (1ULL << (2 * prev)))))
            continue;
        moves[count++] = card;
        prev = card;
    }
    int mine = c->re[seat];
    if (!c->plain && count > 1) {
        int64_t keys[CARDS];
        int row = wcard * CARDS;
        /* no player of the other party plays after this card: the trick's last card, or its
         * third with the partner last */
        int last_word = n == 3 || (n == 2 && c->re[AFTER(seat, 1)] == mine);
        for (int i = 0; i < count; i++) {
            int card = moves[i];
            /* then the cards that take the trick (if it is the other party's) or that add to it
             * (if it is the party's) the most points first, and of them the sure winners last,
             * which win a trick of their own later */
            int last = last_word ? -c->points[card] + (c->beaten_by[card] & others ? 0 : SURE_LAST) : 0;
            if (n == 0)
                keys[i] = -c->history[card];
            else if (c->re[wseat] == mine)
                keys[i] = last_word ? last : -c->points[card];
            else if (beats[row + card])
                keys[i] = last_word ? -100 + last : -100 + card;
            else
                keys[i] = c->points[card];
        }
        for (int i = 1; i < count; i++) { /* stable: equal keys keep the game's order */
            int card = moves[i];
            int64_t k = keys[i];
            int j = i - 1;
            for (; j >= 0 && keys[j] > k; j--) moves[j + 1] = moves[j], keys[j + 1] = keys[j];
            moves[j + 1] = card, keys[j + 1] = k;
        }
        if (n == 0) {
            first(moves, count, c->killer[popcount(hand)][seat] - 1);
            first(moves, count, hint);
        }
    }
    int a0 = alpha, b0 = beta;
    int best = mine ? -FAR : FAR, best_card = -1;
    for (int i = 0; i < count; i++) {
        int card = moves[i], v;
        uint64_t high = 2ULL << (2 * card);
        hands[seat] = (hand & high) ? hand ^ high : hand ^ (high >> 1);
        int p = pts + c->points[card], nseat, ncard, nled;
        if (n == 0) {
            nseat = seat, ncard = card, nled = c->suit[card];
        } else {
            nled = led;
            if (beats[wcard * CARDS + card])
                nseat = seat, ncard = card;
            else
                nseat = wseat, ncard = wcard;
        }
        if (n == 3) {
            int gain = c->re[nseat] ? p : 0;
            v = node(c, hands, nseat, 0, 0, 0, 0, 0, 0, rest - c->points[card], alpha - gain, beta - gain);
            v += gain;
        } else {
            v = node(c, hands, AFTER(seat, 1), n + 1, nled, nseat, ncard, p, on_table | (1ULL << (2 * card)),
                     rest - c->points[card], alpha, beta);
        }
        if (c->stopped) {
            hands[seat] = hand;
            return STOPPED;
        }
        if (mine) {
            if (v > best) {
                best = v, best_card = card;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) {
                        cut(c, n, hand, seat, card, rest);
                        break;
                    }
                }
            }
        } else if (v < best) {
            best = v, best_card = card;
            if (v < beta) {
                beta = v;
                if (alpha >= beta) {
                    cut(c, n, hand, seat, card, rest);
                    break;
                }
            }
        }
    }
    hands[seat] = hand;
    if (n == 0 && !c->plain) {
        Entry entry;
        int lo = known_lo, hi = known_hi; /* as found: the positions below hold fewer cards */
        narrow(best, a0, b0, &lo, &hi);
        memcpy(entry.key, key, sizeof key);
        entry.lo = (uint8_t)lo;
        entry.hi = (uint8_t)hi;
        entry.best = (int8_t)best_card;
        entry.held[0] = (uint8_t)held, entry.held[1] = (uint8_t)(held >> 8), entry.held[2] = (uint8_t)(held >> 16);
        entry.left = (uint8_t)cards_left(hands);
        put(c, &entry);
    }
    return best;
}

int dk_version(void) { return DK_VERSION; }

void *dk_new(const uint8_t *points, const uint8_t *suit, const uint64_t *suit_bits, const uint8_t *beats,
             const uint8_t *beats_last, const uint8_t *equal_ok, const uint8_t *re, int plain, int64_t limit) {
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    memcpy(c->points, points, CARDS);
    for (int x = 0; x < CARDS; x++)
        if (points[x] > c->top_points) c->top_points = points[x];
    memcpy(c->suit, suit, CARDS);
    memcpy(c->equal_ok, equal_ok, CARDS);
    memcpy(c->re, re, SEATS);
    memcpy(c->suit_bits, suit_bits, sizeof c->suit_bits);
    memcpy(c->beats, beats, sizeof c->beats);
    memcpy(c->beats_last, beats_last, sizeof c->beats_last);
    c->plain = plain;
    c->limit = limit;
    for (int w = 0; w < CARDS; w++)
        for (int x = 0; x < CARDS; x++) {
            if (c->beats[w * CARDS + x]) c->beaten_by[w] |= 3ULL << (2 * x);
            if (c->beats_last[w * CARDS + x]) c->beaten_by_last[w] |= 3ULL << (2 * x);
        }
    for (int in_run = 0; in_run < 16; in_run++)
        for (int field = 0; field < 16; field++) {
            int out = 0, k = 0;
            for (int b = 0; b < 4; b++)
                if (in_run >> b & 1) out |= (field >> b & 1) << k++;
            c->pack[in_run][field] = (uint8_t)out;
        }
    for (int x = 0; x < CARDS;) {
        int y = x + 1;
        while (y < CARDS && alike_in_rank(c, y - 1, y)) y++;
        if (y - x > 1) {
            c->run_start[c->runs] = (uint8_t)x;
            c->run_mask[c->runs] = ((1u << (y - x)) - 1) << x;
            c->run_length[c->runs++] = (uint8_t)(y - x);
        }
        x = y;
    }
    return c;
}

void dk_free(void *ctx) {
    Ctx *c = ctx;
    if (!c) return;
    table_release(c->table, (size_t)c->size * sizeof(Entry));
    free(c);
}

/* The table's bounds on Re's card points from the tricks to come at a trick start, `rest` in
 * the hands, with no search, and the card that did best there (-1: none known): for the
 * special points' search (specials.c), which knows Re's result class from them where they
 * are narrow. */
int dk_known(const void *ctx, const uint64_t *hands, int seat, int rest, int *lo, int *hi) {
    const Ctx *c = ctx;
    *lo = 0, *hi = rest;
    if (c->plain) return -1;
    uint64_t key[2];
    uint32_t twice, held = table_key(c, hands, seat, key, &twice);
    return look(c, key, held, twice, lo, hi);
}

/* Lets the search go on to `limit` positions in all, as if it had never passed another limit;
 * returns the limit it had. */
int64_t dk_allow(void *ctx, int64_t limit) {
    Ctx *c = ctx;
    int64_t had = c->limit;
    c->limit = limit, c->stopped = 0;
    return had;
}

int64_t dk_nodes(const void *ctx) { return ((const Ctx *)ctx)->nodes; }

int64_t dk_stored(const void *ctx) { return ((const Ctx *)ctx)->used; }

/* One search from Python: the position as solver.py's `search` spells it out. Returns the
 * fail-soft value, or STOPPED once the node limit is passed (every later call too). */
int dk_search(void *ctx, const uint64_t *hands_in, int seat, int n, int led, int wseat, int wcard, int pts,
              uint64_t on_table, int rest, int alpha, int beta) {
    Ctx *c = ctx;
    if (c->stopped) return STOPPED;
    uint64_t hands[SEATS];
    memcpy(hands, hands_in, sizeof hands);
    return node(c, hands, seat, n, led, wseat, wcard, pts, on_table, rest, alpha, beta);
}
