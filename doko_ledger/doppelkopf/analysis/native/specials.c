/* The special points' search, compiled: alpha-beta over the lines of play from a position to
 * the game's end, valued as specials.py values them: Re's result class first (the game's value
 * for Re without special points, by Re's card points and whether each party took a trick),
 * then Re's net special points within it, `class * weight + net`. Fail-soft, for the
 * zero-window questions the threshold analysis asks (thresholds.py), with a transposition table
 * at each trick start kept across one game's questions.
 *
 * Nothing here knows a rule of the game. Who beats whom, the suits and the card points come in
 * as tables (position.py); the result class as a table by Re's card points and tricks; the
 * special points of a trick from Python (the rules core's `trick_specials`), asked once for
 * each trick the search meets and kept.
 *
 * Cards count as one as in the card points' search (the two copies of a card, and cards of
 * one suit with the same points next to each other in rank once every card between is in the
 * same hand or gone), but for the cards a special point can name by themselves (a fox, a
 * Karlchen: `equal_ok` from Python says which). No run of a suit is closed up in the table.
 *
 * What the tricks still to play can earn each party is bounded from the cards left, as the
 * rules core bounds it (`special_weights`): at most the weights of the cards left for that
 * party, plus one for each trick that can hold `rich` card points. Where that leaves the value
 * outside the window, the search stops.
 */
#include "bits.h"

#define PAST_ANY 0xffff /* an entry whose class no line from it can change: it holds for any past */
#define SMALLEST 4096u
#define LARGEST (1u << 22)
#define PROBES 8
#define UNKNOWN 127       /* a trick whose special points Python was not asked yet */
#define FAILED 100        /* what Python answers, at least, when it could not say */
#define MEMO (SEATS * CARDS * CARDS * CARDS * CARDS * 2)
#define LOWEST (-(1 << 29)) /* below every value: no bound */
#define HIGHEST (1 << 29)

typedef int (*TrickNet)(int leader, int c0, int c1, int c2, int c3, int last);

/* solver.c: the card points' table, and its search */
int dk_known(const void *cards, const uint64_t *hands, int seat, int rest, int *lo, int *hi);
int dk_search(void *cards, const uint64_t *hands, int seat, int n, int led, int wseat, int wcard, int pts,
              uint64_t on_table, int rest, int alpha, int beta);
int64_t dk_allow(void *cards, int64_t limit);
int64_t dk_nodes(const void *cards);

typedef struct {
    uint64_t key[2]; /* the hands as the card types each holds and those held twice, the seat */
    uint16_t past;   /* Re's card points so far and who took a trick (p | flags << 8), or PAST_ANY */
    int8_t best;     /* the card that did best, or -1 */
    uint8_t left;    /* cards left in all hands; 0: an empty slot */
    int32_t lo, hi;  /* bounds on the value less the net special points so far (and, for
                        PAST_ANY, less the class) */
} Entry;

typedef struct {
    uint8_t points[CARDS], suit[CARDS], equal_ok[CARDS], re[SEATS];
    uint64_t suit_bits[5];
    uint8_t beats[CARDS * CARDS], beats_last[CARDS * CARDS];
    int32_t cls[4][241];    /* the class times the weight, by flags (bit 0: Re took a trick, bit 1:
                               Kontra did) and Re's card points */
    uint8_t same_to[4][241]; /* the most card points with the same class as these */
    int32_t least[4][241], most[4][241]; /* the least and most class times the weight, by flags
                                            so far and Re's points, whoever takes a trick yet */
    int monotone;                        /* whether both rise with Re's points */
    uint64_t own[3], other[3]; /* the cards of weight above 0, 1, 2 for their holder's party,
                                  and for the other party */
    uint8_t richest[CARDS];    /* the card numbers, most points first */
    int rich;                  /* the card points from which a trick earns a special point */
    int poorest;               /* the fewest card points a card of such a trick can have */
    void *cards;             /* the card points' search of the deal (solver.c), or NULL */
    int upto;                /* the last trick whose special points count */
    TrickNet net;
    int8_t *memo;            /* the net special points of a trick, by leader, cards and last */
    int64_t limit, nodes;
    int stopped; /* 1: past the limit; 2: Python could not say a trick's special points */
    int64_t history[CARDS];
    Entry *table;
    uint32_t size, used;
} Ctx;

static void put(Ctx *c, const Entry *entry);

static int grow(Ctx *c) {
    uint32_t old_size = c->size, size = c->table ? c->size * 2 : SMALLEST;
    Entry *old = c->table, *table = table_alloc((size_t)size * sizeof(Entry));
    if (!table) return 0;
    c->table = table, c->size = size, c->used = 0;
    for (uint32_t i = 0; i < old_size; i++)
        if (old[i].left) put(c, &old[i]);
    table_release(old, (size_t)old_size * sizeof(Entry));
    return 1;
}

static inline uint32_t slot_of(const uint64_t *key, uint16_t past, uint32_t mask) {
    return (uint32_t)mix(key[0] ^ mix(key[1] ^ (uint64_t)past << 48)) & mask;
}

/* Stores an entry over one of its own key, else in an empty slot, else over the one nearest
 * the end of the game among those probed. */
static void put(Ctx *c, const Entry *entry) {
    if ((!c->table || c->used * 2 >= c->size) && c->size < LARGEST) grow(c);
    if (!c->table) return;
    uint32_t mask = c->size - 1, i = slot_of(entry->key, entry->past, mask);
    Entry *victim = NULL;
    for (int p = 0; p < PROBES; p++, i = (i + 1) & mask) {
        Entry *e = &c->table[i];
        if (!e->left) {
            *e = *entry;
            c->used++;
            return;
        }
        if (e->key[0] == entry->key[0] && e->key[1] == entry->key[1] && e->past == entry->past) {
            *e = *entry;
            return;
        }
        if (!victim || e->left < victim->left) victim = e;
    }
    *victim = *entry;
}

static Entry *find(const Ctx *c, const uint64_t *key, uint16_t past) {
    if (!c->table) return NULL;
    uint32_t mask = c->size - 1, i = slot_of(key, past, mask);
    for (int p = 0; p < PROBES; p++, i = (i + 1) & mask) {
        Entry *e = &c->table[i];
        if (!e->left) return NULL;
        if (e->key[0] == key[0] && e->key[1] == key[1] && e->past == past) return e;
    }
    return NULL;
}

static void table_key(const uint64_t *hands, int seat, uint64_t *key) {
    uint64_t words[SEATS], both = 0;
    for (int s = 0; s < SEATS; s++) {
        words[s] = gathered(hands[s] | hands[s] >> 1);
        both |= hands[s] & hands[s] >> 1;
    }
    key[0] = words[0] | words[1] << 24 | words[2] << 48;
    key[1] = words[2] >> 16 | words[3] << 8 | gathered(both) << 32 | (uint64_t)seat << 56;
}

/* Whether no line from here changes the class: Re's card points stay within one class for
 * every total from `p` to `p + rest`, whoever of the two parties takes a trick yet. */
static int class_fixed(const Ctx *c, int p, int flags, int rest) {
    int32_t now = c->cls[flags][p];
    for (int more = 0; more < 4; more++) {
        int f = flags | more;
        if (c->cls[f][p] != now || c->same_to[f][p] < p + rest) return 0;
    }
    return 1;
}

/* The first card points in [from, to] whose `bound` (non-decreasing) is at least `at`, or to + 1. */
static int first_at(const int32_t *bound, int from, int to, int32_t at) {
    while (from <= to) {
        int mid = (from + to) / 2;
        if (bound[mid] >= at)
            to = mid - 1;
        else
            from = mid + 1;
    }
    return from;
}

/* Whether Re reaches `at` card points from the tricks to come, by the card points' search: the
 * fail-soft answer, its positions counted as this search's and within what is left of its
 * limit; STOPPED past it. */
static int card_search(Ctx *c, const uint64_t *hands, int seat, int rest, int at) {
    int64_t before = dk_nodes(c->cards), room = c->limit - c->nodes;
    int64_t had = dk_allow(c->cards, before + room);
    int f = dk_search(c->cards, hands, seat, 0, 0, 0, 0, 0, 0, rest, at - 1, at);
    c->nodes += dk_nodes(c->cards) - before;
    dk_allow(c->cards, had);
    if (f == STOPPED) c->stopped = 1;
    return f;
}

/* The cards of `hands` as one hand's word: two bits where two copies are left. */
static inline uint64_t pooled(const uint64_t *hands, int count) {
    uint64_t all = 0;
    for (int s = 0; s < count; s++) all += (hands[s] & 0x555555555555ULL) + (hands[s] >> 1 & 0x555555555555ULL);
    return all | (all >> 1 & 0x555555555555ULL);
}

static inline int weighed(const uint64_t *bits, uint64_t cards) {
    return popcount(cards & bits[0]) + popcount(cards & bits[1]) + popcount(cards & bits[2]);
}

/* How many of the tricks still to play can hold `rich` card points: each takes one card of
 * each hand, of at least `poorest` points, and the k richest of each hand together hold at
 * least k times `rich` if k tricks can. */
static int rich_tricks(const Ctx *c, const uint64_t *hands) {
    int8_t points[SEATS][CARDS / 2];
    int count[SEATS];
    for (int s = 0; s < SEATS; s++) {
        count[s] = 0;
        for (int i = 0; i < CARDS && c->points[c->richest[i]] >= c->poorest; i++) {
            int card = c->richest[i];
            for (int copies = popcount(hands[s] & 3ULL << (2 * card)); copies; copies--)
                points[s][count[s]++] = (int8_t)c->points[card];
        }
    }
    int k = 0, sum = 0;
    for (;; k++) {
        for (int s = 0; s < SEATS; s++) {
            if (k == count[s]) return k;
            sum += points[s][k];
        }
        if (sum < c->rich * (k + 1)) return k;
    }
}

/* The most net special points the tricks still to play can earn Re (`*gain`) and Kontra
 * (`*loss`). */
static void still_earned(const Ctx *c, const uint64_t *hands, int32_t *gain, int32_t *loss) {
    uint64_t parties[2][SEATS] = {{0}}; /* the hands of Kontra, of Re */
    int held[2] = {0};
    for (int s = 0; s < SEATS; s++) parties[c->re[s]][held[c->re[s]]++] = hands[s];
    uint64_t kontra = pooled(parties[0], held[0]), re = pooled(parties[1], held[1]);
    int rich = rich_tricks(c, hands);
    *gain = weighed(c->own, re) + weighed(c->other, kontra) + rich;
    *loss = weighed(c->own, kontra) + weighed(c->other, re) + rich;
}

/* At a trick start: whether the classes Re's card points can still end in, with the net
 * special points so far (`e`) and what the tricks to come can earn, put the value outside
 * (alpha, beta), and then the bound in `*bound`. The card points' table bounds Re's points
 * from the tricks to come; where the window's class boundary lies within them, its search is
 * asked whether Re reaches it (it searches far fewer positions for a class than this search
 * does). `*hint`: the card the card points' search found best, or -1. */
static int class_cut(Ctx *c, const uint64_t *hands, int seat, int rest, int p, int flags, int32_t e,
                     int32_t alpha, int32_t beta, int32_t *bound, int *hint) {
    int lo = 0, hi = rest;
    *hint = c->cards ? dk_known(c->cards, hands, seat, rest, &lo, &hi) : -1;
    const int32_t *least = c->least[flags], *most = c->most[flags];
    int32_t gain, loss;
    still_earned(c, hands, &gain, &loss);
    int32_t below = e - loss, above = e + gain;
    if (least[p + lo] + below >= beta) return *bound = least[p + lo] + below, 1;
    if (most[p + hi] + above <= alpha) return *bound = most[p + hi] + above, 1;
    if (!c->cards || !c->monotone) return 0;
    if (least[p + hi] + below >= beta) { /* Re's reaching `at` points would put the value above the window */
        int at = first_at(least, p + lo, p + hi, beta - below) - p, f = card_search(c, hands, seat, rest, at);
        if (f == STOPPED) return 0;
        if (f >= at) return *bound = least[p + (f < rest ? f : rest)] + below, 1;
        hi = f;
    }
    if (most[p + lo] + above <= alpha) { /* Re's staying below `at` points would put it below */
        int at = first_at(most, p + lo, p + hi, alpha + 1 - above) - p, f = card_search(c, hands, seat, rest, at);
        if (f == STOPPED) return 0;
        if (f < at) return *bound = most[p + (f > 0 ? f : 0)] + above, 1;
    }
    return 0;
}

/* Re's net special points in a complete trick led by `leader` of the cards packed in `cards`
 * (five bits each, in the order played), from Python the first time. */
static int trick_net(Ctx *c, int leader, uint32_t cards, int last, int number) {
    if (number > c->upto) return 0;
    int c0 = cards & 31, c1 = cards >> 5 & 31, c2 = cards >> 10 & 31, c3 = cards >> 15 & 31;
    size_t at = ((((size_t)leader * CARDS + c0) * CARDS + c1) * CARDS + c2) * CARDS + c3;
    at = at * 2 + last;
    if (c->memo[at] == UNKNOWN) {
        int net = c->net(leader, c0, c1, c2, c3, last);
        if (net >= FAILED || net <= -FAILED) {
            c->stopped = 2;
            return 0;
        }
        c->memo[at] = (int8_t)net;
    }
    return c->memo[at];
}

/* The search from a position: `seat` to play the trick's card `n` (0: a trick start), the
 * trick's suit, best seat and card, its card points and cards (`on_table`, and five bits each
 * in the order played in `cards`), the points in the hands (`rest`), the trick's number, Re's card points taken
 * (`p`), who took a trick (`flags`) and Re's net special points so far (`e`). */
static int32_t node(Ctx *c, uint64_t *hands, int seat, int n, int led, int wseat, int wcard, int pts,
                    uint64_t on_table, uint32_t cards, int rest, int number, int p, int flags, int32_t e,
                    int32_t alpha, int32_t beta) {
    if (++c->nodes > c->limit) {
        c->stopped = 1;
        return STOPPED;
    }
    uint64_t hand = hands[seat], legal;
    uint64_t key[2];
    uint16_t past = 0;
    int32_t offset = 0, known_lo = LOWEST, known_hi = HIGHEST;
    int hint = -1;
    if (n == 0) {
        if (!hand) return c->cls[flags][p] + e;
        int32_t bound;
        if (class_cut(c, hands, seat, rest, p, flags, e, alpha, beta, &bound, &hint)) return bound;
        if (c->stopped) return STOPPED;
        table_key(hands, seat, key);
        if (class_fixed(c, p, flags, rest)) {
            past = PAST_ANY;
            offset = c->cls[flags][p] + e;
        } else {
            past = (uint16_t)(p | flags << 8);
            offset = e;
        }
        const Entry *found = find(c, key, past);
        if (found) {
            if (found->lo != LOWEST) known_lo = found->lo + offset;
            if (found->hi != HIGHEST) known_hi = found->hi + offset;
            if (found->best >= 0) hint = found->best;
            if (known_lo >= beta) return known_lo;
            if (known_hi <= alpha) return known_hi;
            if (known_lo > alpha) alpha = known_lo;
            if (known_hi < beta) beta = known_hi;
        }
        legal = hand;
    } else {
        legal = hand & c->suit_bits[led];
        if (!legal) legal = hand;
    }
    int last = !(hand & (hand - 1));
    const uint8_t *beats = last ? c->beats_last : c->beats;
    int mine = c->re[seat], moves[CARDS], count = 0, prev = -1;
    int64_t keys[CARDS];
    uint64_t others = hands[AFTER(seat, 1)] | hands[AFTER(seat, 2)] | hands[AFTER(seat, 3)] | on_table;
    for (uint64_t m = legal; m;) {
        int card = lowest(m) >> 1;
        m &= ~(3ULL << (2 * card));
        if (prev >= 0 && c->points[card] == c->points[prev] && c->suit[card] == c->suit[prev] && c->equal_ok[card] &&
            c->equal_ok[prev] && !(others & ((4ULL << (2 * card)) - (1ULL << (2 * prev)))))
            continue;
        prev = card;
        int64_t k;
        if (n == 0)
            k = card == hint ? INT64_MIN : -c->history[card];
        else if (c->re[wseat] == mine)
            k = -c->points[card]; /* the party's trick: the most points first */
        else if (beats[wcard * CARDS + card])
            k = -100 + card; /* the other party's: the strongest card that takes it first */
        else
            k = c->points[card]; /* else the cheapest */
        int j = count++;
        for (; j > 0 && keys[j - 1] > k; j--) moves[j] = moves[j - 1], keys[j] = keys[j - 1];
        moves[j] = card, keys[j] = k;
    }
    int32_t a0 = alpha, b0 = beta, best = mine ? LOWEST : HIGHEST;
    int best_card = -1;
    for (int i = 0; i < count; i++) {
        int card = moves[i];
        int32_t v;
        uint64_t high = 2ULL << (2 * card);
        hands[seat] = (hand & high) ? hand ^ high : hand ^ (high >> 1);
        int q = pts + c->points[card], nseat = wseat, ncard = wcard, nled = led;
        if (n == 0)
            nseat = seat, ncard = card, nled = c->suit[card];
        else if (beats[wcard * CARDS + card])
            nseat = seat, ncard = card;
        uint32_t now = cards | (uint32_t)card << (5 * n);
        if (n == 3) {
            int won = c->re[nseat];
            int32_t gained = trick_net(c, AFTER(seat, 1), now, last, number);
            v = node(c, hands, nseat, 0, 0, 0, 0, 0, 0, 0, rest - c->points[card], number + 1, p + (won ? q : 0),
                     flags | (won ? 1 : 2), e + gained, alpha, beta);
        } else {
            v = node(c, hands, AFTER(seat, 1), n + 1, nled, nseat, ncard, q, on_table | (1ULL << (2 * card)), now,
                     rest - c->points[card], number, p, flags, e, alpha, beta);
        }
        if (c->stopped) {
            hands[seat] = hand;
            return STOPPED;
        }
        if (mine ? v > best : v < best) {
            best = v, best_card = card;
            if (mine ? v > alpha : v < beta) {
                if (mine)
                    alpha = v;
                else
                    beta = v;
                if (alpha >= beta) {
                    c->history[card] += rest;
                    break;
                }
            }
        }
    }
    hands[seat] = hand;
    if (n == 0) {
        Entry entry;
        int lo = known_lo, hi = known_hi;
        narrow(best, a0, b0, &lo, &hi);
        memcpy(entry.key, key, sizeof key);
        entry.past = past;
        entry.lo = lo == LOWEST ? LOWEST : lo - offset;
        entry.hi = hi == HIGHEST ? HIGHEST : hi - offset;
        entry.best = (int8_t)best_card;
        entry.left = (uint8_t)cards_left(hands);
        put(c, &entry);
    }
    return best;
}

/* `own`, `other`: by card number, the most special points the card can earn in one trick for
 * its holder's party and for the other party (at most 3 each); `rich`: the card points from
 * which a trick earns one whatever its cards. */
void *dk_specials_new(const uint8_t *points, const uint8_t *suit, const uint64_t *suit_bits, const uint8_t *beats,
                      const uint8_t *beats_last, const uint8_t *equal_ok, const uint8_t *re, const int32_t *classes,
                      const uint8_t *own, const uint8_t *other, int rich, void *cards, int upto, TrickNet net, int64_t limit) {
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    c->memo = malloc(MEMO);
    if (!c->memo) {
        free(c);
        return NULL;
    }
    memset(c->memo, UNKNOWN, MEMO);
    memcpy(c->points, points, CARDS);
    memcpy(c->suit, suit, CARDS);
    memcpy(c->equal_ok, equal_ok, CARDS);
    memcpy(c->re, re, SEATS);
    memcpy(c->suit_bits, suit_bits, sizeof c->suit_bits);
    memcpy(c->beats, beats, sizeof c->beats);
    memcpy(c->beats_last, beats_last, sizeof c->beats_last);
    memcpy(c->cls, classes, sizeof c->cls);
    for (int f = 0; f < 4; f++) {
        int to = 240;
        for (int x = 240; x >= 0; x--) {
            if (x < 240 && c->cls[f][x] != c->cls[f][x + 1]) to = x;
            c->same_to[f][x] = (uint8_t)to;
        }
    }
    c->monotone = 1;
    for (int f = 0; f < 4; f++)
        for (int x = 0; x <= 240; x++) {
            int32_t least = c->cls[f][x], most = least;
            for (int more = 1; more < 4; more++) {
                if (c->cls[f | more][x] < least) least = c->cls[f | more][x];
                if (c->cls[f | more][x] > most) most = c->cls[f | more][x];
            }
            c->least[f][x] = least, c->most[f][x] = most;
            if (x && (c->least[f][x] < c->least[f][x - 1] || c->most[f][x] < c->most[f][x - 1])) c->monotone = 0;
        }
    int richest = 0;
    for (int card = 0; card < CARDS; card++) {
        for (int w = 0; w < 3; w++) {
            if (own[card] > w) c->own[w] |= 3ULL << (2 * card);
            if (other[card] > w) c->other[w] |= 3ULL << (2 * card);
        }
        if (points[card] > richest) richest = points[card];
        int i = card;
        for (; i > 0 && points[c->richest[i - 1]] < points[card]; i--) c->richest[i] = c->richest[i - 1];
        c->richest[i] = (uint8_t)card;
    }
    c->rich = rich;
    c->poorest = rich - 3 * richest;
    c->cards = cards;
    c->upto = upto;
    c->net = net;
    c->limit = limit;
    return c;
}

void dk_specials_free(void *ctx) {
    Ctx *c = ctx;
    if (!c) return;
    table_release(c->table, (size_t)c->size * sizeof(Entry));
    free(c->memo);
    free(c);
}

int64_t dk_specials_nodes(const void *ctx) { return ((const Ctx *)ctx)->nodes; }

/* Lets the search go on for `more` positions (those the card points' search is asked counted
 * too), after a limit it passed; not after Python failed to say a trick's special points. */
void dk_specials_allow(void *ctx, int64_t more) {
    Ctx *c = ctx;
    c->limit = c->nodes + more;
    if (c->stopped == 1) c->stopped = 0;
}

/* One search from Python, the position spelt out as for `node`: the fail-soft value; STOPPED
 * once the node limit is passed, STOPPED + 1 when Python could not say a trick's points (and
 * so every later call). */
int32_t dk_specials_search(void *ctx, const uint64_t *hands_in, int seat, int n, int led, int wseat, int wcard,
                           int pts, uint32_t cards, int rest, int number, int p, int flags, int32_t e, int32_t alpha,
                           int32_t beta) {
    Ctx *c = ctx;
    if (c->stopped) return c->stopped == 1 ? STOPPED : STOPPED + 1;
    uint64_t hands[SEATS], on_table = 0;
    memcpy(hands, hands_in, sizeof hands);
    for (int i = 0; i < n; i++) on_table |= 1ULL << (2 * (cards >> (5 * i) & 31));
    int32_t v = node(c, hands, seat, n, led, wseat, wcard, pts, on_table, cards, rest, number, p, flags, e, alpha, beta);
    return c->stopped == 2 ? STOPPED + 1 : v;
}
