/* The ceiling: a plain C loop doing pokerdraw32's work for a check/call bot.
 *
 * It plays the hands bench/simulate.py plays -- Hand(Rules(), stacks, n % players, rng=Rng(seed)),
 * the bot discarding the first `discard` of legal.hole_cards, else checking, else calling -- with the
 * same generator, deal, blinds, betting-round state, draw (R6.2 reshuffle), Parole offer, showdown and
 * pots as src/pokerdraw32/hand.py and the kernels (src/_core.pyx, src/pokerdraw32/_core_py/__init__.py), and
 * appends a compact event record per step, as a compiled engine with a compact log would.
 * bench/c_loop.py builds it and asserts the same stacks, event log and generator state.
 *
 * Scope: classic rules (Rules()), no-limit, everything a check/call bot reaches: blinds short of
 * chips (R4.5), all-in calls, side pots, uncalled chips (R9.2), rounds with no actions (R5.4), the
 * Parole offer (R8) and the R9.3 show/muck order.  Legal actions are computed at every decision,
 * raise bounds included (no-limit), as Hand.legal_actions does; the bot never bets, raises, folds or
 * splits, so those actions are not implemented.  Evaluator values: the engine's packed values
 * (_core_py._evaluate ported), tabulated here at start-up for all C(32,5) = 201,376 hands (uint32,
 * 787 KiB), indexed by the colex rank of the 5-card set; `table` mode dumps it for the driver to
 * compare with pokerdraw32.evaluate_mask.
 *
 *   hand check PLAYERS DISCARD SEED HANDS STACK CARRY -> "checksum events_checksum s0 s1 s2 s3"
 *   hand bench PLAYERS DISCARD SEED SECONDS REPEAT -> JSON {"rates": [...], "wall_rates": [...], ...}
 *   hand table                                     -> 201,376 uint32 LE values, itertools.combinations order
 *
 * As fast as plain C plays these hands (the ceiling of issue 25): the hand is one flat struct on the
 * caller's stack with a fixed event array inside (no allocation per hand or per event); no division on
 * the seat rotations; the shuffle draws its indices without a data-dependent branch, the generator's
 * state in registers; the showdown's table entries are fetched when the second round starts (the hands
 * are final then), and shown cards come sorted from the hand's card mask.
 *
 * C99, no dependencies: cc -O2 -std=c99 hand.c -o hand (GCC or Clang: it uses __builtin_ctz, __builtin_clzll
 * and __builtin_popcount, and clock_gettime for CPU time).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ generator (R11) */

typedef struct { uint64_t s0, s1, s2, s3; } rng_t;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void rng_seed(rng_t *r, uint64_t seed) {   /* Rng(seed): the first four SplitMix64 outputs */
    uint64_t x = seed;
    r->s0 = splitmix64(&x);
    r->s1 = splitmix64(&x);
    r->s2 = splitmix64(&x);
    r->s3 = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r) {       /* xoshiro256** 1.0 */
    uint64_t result = rotl(r->s1 * 5, 7) * 9;
    uint64_t t = r->s1 << 17;
    r->s2 ^= r->s0;
    r->s3 ^= r->s1;
    r->s1 ^= r->s2;
    r->s0 ^= r->s3;
    r->s2 ^= t;
    r->s3 = rotl(r->s3, 45);
    return result;
}

static inline int bit_length64(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* Rng.shuffled(mask): the codes of mask ascending, then Fisher-Yates from the top, j = Rng.below(i + 1)
 * for i = n-1 .. 1 (bitmask rejection: the top bit_length(i) bits of the next output, again while above
 * i).  Two loops: the draws first, without a branch that depends on the output (a rejected draw stores
 * its j, which the next draw for the same i overwrites, and i moves on only when accepted), then the
 * swaps.  The generator's state lives in locals; the shift 64 - bit_length(i) is clz(i). */
static int rng_shuffled(rng_t *r, uint32_t mask, uint8_t *out) {
    static const uint8_t ALL[32] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                    22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    int n = 0;
    if (mask == 0xFFFFFFFFu) {
        memcpy(out, ALL, 32);
        n = 32;
    } else {
        while (mask) {
            out[n++] = (uint8_t)__builtin_ctz(mask);
            mask &= mask - 1;
        }
    }
    uint64_t s0 = r->s0, s1 = r->s1, s2 = r->s2, s3 = r->s3;
    uint8_t js[32];
    uint64_t i = (uint64_t)(n - 1);
    while (i > 0) {
        uint64_t v = (rotl(s1 * 5, 7) * 9) >> __builtin_clzll(i);     /* xoshiro256** 1.0, inline */
        uint64_t t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = rotl(s3, 45);
        js[i] = (uint8_t)v;
        i -= v <= i;
    }
    r->s0 = s0; r->s1 = s1; r->s2 = s2; r->s3 = s3;
    for (int k = n - 1; k > 0; k--) {
        uint8_t tmp = out[k];
        out[k] = out[js[k]];
        out[js[k]] = tmp;
    }
    return n;
}

/* ------------------------------------------------------------------ evaluator (R2) */

#define NHANDS 201376
static uint32_t binom[33][6];
static uint32_t *hand_values;     /* colex rank of the 5-card set -> packed value, suit tiebreak on */

static const int STRAIGHT_BITS[5] = {0x8F, 0x1F, 0x3E, 0x7C, 0xF8};
static const int STRAIGHT_TOP[5] = {3, 4, 5, 6, 7};    /* R2.2: A-7-8-9-T tops at the ten */

static int bitcount4(unsigned x) { return __builtin_popcount(x); }

/* _core_py._evaluate(mask, True), line for line */
static uint32_t evaluate_slow(uint32_t mask) {
    int quad = -1, trip = -1, pair_hi = -1, pair_lo = -1;
    int singles[5], nsingles = 0, single_suit = 0, rank_bits = 0;
    for (int rank = 7; rank >= 0; rank--) {
        unsigned nibble = (mask >> (rank << 2)) & 15;
        if (!nibble) continue;
        rank_bits |= 1 << rank;
        int count = bitcount4(nibble);
        if (count == 1) {
            if (!nsingles) single_suit = bit_length64(nibble) - 1;
            singles[nsingles++] = rank;
        } else if (count == 2) {
            if (pair_hi < 0) pair_hi = rank; else pair_lo = rank;
        } else if (count == 3) {
            trip = rank;
        } else {
            quad = rank;
        }
    }
    int flush = -1;
    int low_suit = __builtin_ctz(mask) & 3;
    if ((mask & (0x11111111u << low_suit)) == mask) flush = low_suit;
    int top = -1;
    if (nsingles == 5)
        for (int i = 0; i < 5; i++)
            if (rank_bits == STRAIGHT_BITS[i]) top = STRAIGHT_TOP[i];
    uint32_t category, ranks;
    int suit;
    if (top >= 0) {
        ranks = (uint32_t)top << 16;
        if (flush >= 0) { category = 8; suit = flush; }
        else { category = 4; suit = bit_length64((mask >> (top << 2)) & 15) - 1; }
    } else if (quad >= 0) {
        category = 7; ranks = (uint32_t)quad << 16 | (uint32_t)singles[0] << 12; suit = 0;
    } else if (flush >= 0) {
        category = 6; suit = flush;
        ranks = (uint32_t)singles[0] << 16 | (uint32_t)singles[1] << 12 | (uint32_t)singles[2] << 8
              | (uint32_t)singles[3] << 4 | (uint32_t)singles[4];
    } else if (trip >= 0) {
        suit = 0;
        if (pair_hi >= 0) { category = 5; ranks = (uint32_t)trip << 16 | (uint32_t)pair_hi << 12; }
        else { category = 3; ranks = (uint32_t)trip << 16 | (uint32_t)singles[0] << 12 | (uint32_t)singles[1] << 8; }
    } else if (pair_lo >= 0) {
        category = 2; suit = single_suit;
        ranks = (uint32_t)pair_hi << 16 | (uint32_t)pair_lo << 12 | (uint32_t)singles[0] << 8;
    } else if (pair_hi >= 0) {
        category = 1; suit = single_suit;
        ranks = (uint32_t)pair_hi << 16 | (uint32_t)singles[0] << 12 | (uint32_t)singles[1] << 8
              | (uint32_t)singles[2] << 4;
    } else {
        category = 0; suit = single_suit;
        ranks = (uint32_t)singles[0] << 16 | (uint32_t)singles[1] << 12 | (uint32_t)singles[2] << 8
              | (uint32_t)singles[3] << 4 | (uint32_t)singles[4];
    }
    return category << 22 | ranks << 2 | (uint32_t)suit;
}

static inline uint32_t colex(uint32_t mask) {
    uint32_t idx = 0;
    for (int k = 1; k <= 5; k++) {
        idx += binom[__builtin_ctz(mask)][k];
        mask &= mask - 1;
    }
    return idx;
}

static void build_table(void) {
    for (int n = 0; n <= 32; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= 5; k++) binom[n][k] = n ? binom[n - 1][k - 1] + binom[n - 1][k] : 0;
    }
    hand_values = malloc(sizeof(uint32_t) * NHANDS);
    if (!hand_values) { perror("malloc"); exit(2); }
    for (int a = 0; a < 28; a++)
        for (int b = a + 1; b < 29; b++)
            for (int c = b + 1; c < 30; c++)
                for (int d = c + 1; d < 31; d++)
                    for (int e = d + 1; e < 32; e++) {
                        uint32_t m = 1u << a | 1u << b | 1u << c | 1u << d | 1u << e;
                        hand_values[colex(m)] = evaluate_slow(m);
                    }
}

static inline uint32_t evaluate_mask(uint32_t mask) { return hand_values[colex(mask)]; }

/* ------------------------------------------------------------------ the hand (R3-R9) */

enum { EV_POST_BLIND, EV_DEAL_HOLE, EV_FOLD, EV_CHECK, EV_CALL, EV_BET, EV_RAISE, EV_SPLIT, EV_DECLINE,
       EV_TIMEOUT, EV_RAISE_WITHDRAWN, EV_DISCARD, EV_RESHUFFLE, EV_DEAL_DRAW, EV_ROUND_END,
       EV_RETURN_UNCALLED, EV_SHOW, EV_MUCK, EV_AWARD, EV_HAND_END };   /* EventKind's order */

enum { K_FOLD = 1, K_CHECK = 2, K_CALL = 4, K_BET = 8, K_RAISE = 16, K_SPLIT = 32, K_DECLINE = 64,
       K_DISCARD = 128 };

enum { PH_DEAL, PH_FIRST, PH_DRAW, PH_SECOND, PH_COMPLETE };

typedef struct {          /* one step of the log: 16 bytes */
    uint8_t kind;
    int8_t seat;          /* -1: none */
    uint8_t ncards;
    uint8_t cards[5];
    int64_t amount;       /* -1: none */
} event_t;

typedef struct {
    int seat, kinds, call, min_to, max_to, max_discard;
    const uint8_t *hole;
    int nhole;
} legal_t;

#define MAX_EVENTS 128

typedef struct {
    int n, button, L, nblinds, blind_seats[3], blinds[3];
    int after_button, first_after_blinds;   /* the seats left of the button and of the last blind */
    uint32_t value_index[5];
    int nlive;                              /* seats not folded (the bot never folds: n) */                /* second round: each live hand's index in hand_values */
    int64_t stacks[5], start[5], bets[5], contrib[5];
    uint8_t folded[5], no_raise[5];
    uint8_t hole[5][5];
    int nhole[5];
    uint8_t stub[64];       /* stub[stub_pos .. stub_len) */
    int stub_pos, stub_len;
    uint32_t pile;          /* discard pile as a mask (the reshuffle lists it ascending anyway) */
    uint8_t own[4];
    int nown;
    int phase, actor;
    int64_t to_match, raise_size, full_level;
    int bet_count, reopen_serial;
    uint8_t acted[5];
    int acted_serial[5];
    int64_t last_level[5];
    int aggressor, raise_withdrawn;
    int offer_open, votes, voted;
    int draw_order[5], ndraw, draw_index;
    rng_t *rng;
    event_t ev[MAX_EVENTS];
    int nev;
} hand_t;

static const uint8_t SEATS_IN[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                     1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};   /* popcount, 5 bits */

static inline void log_ev(hand_t *h, int kind, int seat, int64_t amount, const uint8_t *cards, int ncards) {
    event_t *e = &h->ev[h->nev++];
    e->kind = (uint8_t)kind;
    e->seat = (int8_t)seat;
    e->ncards = (uint8_t)ncards;
    for (int i = 0; i < ncards; i++) e->cards[i] = cards[i];
    e->amount = amount;
}

static inline void put(hand_t *h, int seat, int64_t chips) {
    h->stacks[seat] -= chips;
    h->bets[seat] += chips;
    h->contrib[seat] += chips;
}

static inline int active(const hand_t *h, int seat) { return !h->folded[seat] && h->stacks[seat] > 0; }

static int64_t pot(const hand_t *h) {
    int64_t p = 0;
    for (int i = 0; i < h->n; i++) p += h->contrib[i];
    return p;
}

static int no_actions(const hand_t *h) {      /* R5.4 */
    int p = -1;
    for (int i = 0; i < h->n; i++)
        if (!h->folded[i] && h->stacks[i] > 0) {
            if (p >= 0) return 0;
            p = i;
        }
    if (p < 0) return 1;
    int64_t others = 0;
    for (int i = 0; i < h->n; i++)
        if (i != p && h->bets[i] > others) others = h->bets[i];
    return others <= h->bets[p];
}

static int needs_to_act(const hand_t *h, int seat) {
    if (h->folded[seat]) return 0;
    if (h->stacks[seat] == 0)   /* an all-in player only answers the Parole offer (R8.2) */
        return h->offer_open && !(h->voted >> seat & 1) && !h->no_raise[seat];
    return !h->acted[seat] || h->bets[seat] < h->to_match;
}

static void return_uncalled(hand_t *h) {       /* R9.2 */
    int top = 0;
    for (int i = 1; i < h->n; i++)
        if (h->contrib[i] > h->contrib[top]) top = i;
    int64_t second = -1;
    for (int i = 0; i < h->n; i++)
        if (i != top && h->contrib[i] > second) second = h->contrib[i];
    int64_t extra = h->contrib[top] - second;
    if (extra > 0) {
        h->stacks[top] += extra;
        h->contrib[top] -= extra;
        h->bets[top] = h->bets[top] - extra > 0 ? h->bets[top] - extra : 0;
        log_ev(h, EV_RETURN_UNCALLED, top, extra, NULL, 0);
    }
}

/* split_pots of the kernels (R9.1, R9.2, R9.4, R8.3); returns the number of pots */
typedef struct { int64_t amount; int eligible, winners, shared; } pot_t;

static int split_pots(int n, const int64_t *contrib, const int64_t *power, int live, int sharers, int first,
                      int64_t dead, int64_t *returned, pot_t *pots, int64_t *winnings) {
    int64_t chips[5] = {0};
    for (int i = 0; i < n; i++) { chips[i] = contrib[i]; returned[i] = 0; winnings[i] = 0; }
    int top = 0;
    for (int i = 1; i < n; i++)
        if (chips[i] > chips[top]) top = i;
    int64_t second = -1;
    for (int i = 0; i < n; i++)
        if (i != top && chips[i] > second) second = chips[i];
    if (chips[top] > second) { returned[top] = chips[top] - second; chips[top] = second; }
    int64_t levels[5];
    int nlevels = 0;
    for (int i = 0; i < n; i++) {          /* distinct live contributions above 0, ascending */
        if (!(live >> i & 1) || chips[i] <= 0) continue;
        int j = 0;
        while (j < nlevels && levels[j] < chips[i]) j++;
        if (j < nlevels && levels[j] == chips[i]) continue;
        memmove(&levels[j + 1], &levels[j], sizeof(int64_t) * (size_t)(nlevels - j));
        levels[j] = chips[i];
        nlevels++;
    }
    int npots = 0;
    if (!nlevels) {
        int64_t total = dead;
        for (int i = 0; i < n; i++) total += chips[i];
        if (total) { pots[0].amount = total; pots[0].eligible = live; npots = 1; }
    } else {
        int64_t below = 0;
        for (int l = 0; l < nlevels; l++) {
            int64_t level = levels[l], amount = 0;
            int eligible = 0;
            for (int i = 0; i < n; i++) {
                int64_t c = chips[i];
                amount += (c < level ? c : level) - (c < below ? c : below);
                if (live >> i & 1 && c >= level) eligible |= 1 << i;
            }
            pots[npots].amount = amount;
            pots[npots].eligible = eligible;
            npots++;
            below = level;
        }
        for (int i = 0; i < n; i++)
            if (chips[i] > below) pots[npots - 1].amount += chips[i] - below;
        pots[0].amount += dead;
    }
    for (int k = 0; k < npots; k++) {
        int eligible = pots[k].eligible, winners = 0, shared = 0;
        if ((eligible & (eligible - 1)) == 0) {
            winners = eligible;
        } else if ((eligible & ~sharers) == 0) {
            winners = eligible;
            shared = 1;
        } else {
            int64_t best = 0;
            int have = 0;
            for (int i = 0; i < n; i++) {
                if (!(eligible >> i & 1)) continue;
                if (!have || power[i] > best) { best = power[i]; winners = 1 << i; have = 1; }
                else if (power[i] == best) winners |= 1 << i;
            }
        }
        int count = SEATS_IN[winners];
        int64_t share = pots[k].amount / count, odd = pots[k].amount % count;
        for (int i = 0; i < n; i++)
            if (winners >> i & 1) winnings[i] += share;
        int seat = first;
        while (odd) {                      /* R9.4: odd chips from the first seat left of the button */
            if (winners >> seat & 1) { winnings[seat]++; odd--; }
            seat = seat + 1 < n ? seat + 1 : 0;
        }
        pots[k].winners = winners;
        pots[k].shared = shared;
    }
    return npots;
}

static void finish(hand_t *h, int showdown) {
    int n = h->n;
    h->actor = -1;
    return_uncalled(h);
    int live = 0;
    int64_t strengths[5];
    uint32_t masks[5];
    for (int s = 0; s < n; s++) {
        strengths[s] = -1;
        masks[s] = 0;
        if (!h->folded[s]) {
            live |= 1 << s;
            if (showdown) {
                const uint8_t *c = h->hole[s];   /* five cards: a live hand at the showdown holds five */
                masks[s] = 1u << c[0] | 1u << c[1] | 1u << c[2] | 1u << c[3] | 1u << c[4];
            }
        }
    }
    if (showdown)   /* the second round's start took each live hand's index in the table */
        for (int s = 0; s < n; s++)
            if (live >> s & 1) strengths[s] = hand_values[h->value_index[s]];
    int sharers = showdown && h->votes ? h->votes : 0;
    int64_t returned[5], winnings[5];
    pot_t pots[5];
    int npots = split_pots(n, h->contrib, strengths, live, sharers, h->after_button, 0, returned, pots, winnings);
    if (showdown) {
        /* R9.3: show in order; a player who cannot win a contested pot mucks (muck_losers on) */
        int contested[5], ncontested = 0;
        for (int k = 0; k < npots; k++)
            if (!pots[k].shared && (pots[k].eligible & (pots[k].eligible - 1))) contested[ncontested++] = pots[k].eligible;
        int start;
        if (h->phase == PH_SECOND && h->aggressor >= 0 && !h->folded[h->aggressor]) start = h->aggressor;
        else start = h->first_after_blinds;
        int64_t best_shown[5];                 /* the best hand shown so far in each contested pot, -1: none */
        for (int k = 0; k < ncontested; k++) best_shown[k] = -1;
        for (int i = 0, s = start; i < n; i++, s = s + 1 < n ? s + 1 : 0) {
            if (!(live >> s & 1)) continue;
            int mine = 0, can_win = 0;
            for (int k = 0; k < ncontested; k++)
                if (contested[k] >> s & 1) {
                    mine = 1;
                    can_win |= strengths[s] >= best_shown[k];   /* nobody shown in it beats s */
                }
            if (!mine) continue;
            if (can_win) {
                uint8_t cards[5];
                uint32_t m = masks[s];
                for (int a = 0; a < 5; a++) {      /* sorted, highest first: the mask's bits from the top */
                    int c = 31 - __builtin_clz(m);
                    cards[a] = (uint8_t)c;
                    m ^= 1u << c;
                }
                for (int k = 0; k < ncontested; k++)
                    if (contested[k] >> s & 1 && strengths[s] > best_shown[k]) best_shown[k] = strengths[s];
                log_ev(h, EV_SHOW, s, -1, cards, 5);
            } else {
                log_ev(h, EV_MUCK, s, -1, NULL, 0);
            }
        }
    }
    for (int s = 0; s < n; s++)
        if (returned[s]) {
            h->stacks[s] += returned[s];
            h->contrib[s] -= returned[s];
            log_ev(h, EV_RETURN_UNCALLED, s, returned[s], NULL, 0);
        }
    for (int k = 0; k < npots; k++) log_ev(h, EV_AWARD, -1, pots[k].amount, NULL, 0);
    for (int s = 0; s < n; s++) {
        h->stacks[s] += winnings[s];
        h->bets[s] = 0;
    }
    h->phase = PH_COMPLETE;
    log_ev(h, EV_HAND_END, -1, -1, NULL, 0);
}

static void start_round(hand_t *h, int phase);
static void start_draw(hand_t *h);

static void end_round(hand_t *h) {
    return_uncalled(h);
    log_ev(h, EV_ROUND_END, -1, pot(h), NULL, 0);
    if (h->phase == PH_FIRST) start_draw(h);
    else finish(h, 1);
}

static void advance(hand_t *h, int start, int inclusive) {
    if (h->nlive == 1) { finish(h, 0); return; }
    if (!no_actions(h) || h->offer_open) {
        int n = h->n, seat = start;
        if (!inclusive) seat = seat + 1 < n ? seat + 1 : 0;
        for (int i = inclusive ? 0 : 1; i <= n; i++, seat = seat + 1 < n ? seat + 1 : 0)
            if (needs_to_act(h, seat)) { h->actor = seat; return; }
    }
    h->actor = -1;
    end_round(h);
}

static void start_round(hand_t *h, int phase) {
    int n = h->n, first;
    h->phase = phase;
    for (int i = 0; i < n; i++) { h->acted[i] = 0; h->last_level[i] = 0; h->acted_serial[i] = 0; }
    h->reopen_serial = 0;
    h->aggressor = -1;
    h->raise_withdrawn = -1;
    if (phase == PH_FIRST) {   /* the largest blind is the first bet (R4.4) */
        h->to_match = h->full_level = h->raise_size = h->L;
        h->bet_count = 1;
        first = h->first_after_blinds;                          /* R5.2 */
    } else {
        for (int i = 0; i < n; i++) h->bets[i] = 0;
        h->to_match = h->full_level = 0;
        h->raise_size = h->L;
        h->bet_count = 0;
        int start = h->first_after_blinds;                      /* R7.1 */
        first = start;
        for (int i = 0, s = start; i < n; i++, s = s + 1 < n ? s + 1 : 0)
            if (active(h, s)) { first = s; break; }
    }
    if (phase == PH_SECOND)   /* the hands are final: fetch their values now, the showdown reads them */
        for (int i = 0; i < n; i++)
            if (!h->folded[i]) {
                const uint8_t *c = h->hole[i];
                h->value_index[i] = colex(1u << c[0] | 1u << c[1] | 1u << c[2] | 1u << c[3] | 1u << c[4]);
                __builtin_prefetch(&hand_values[h->value_index[i]]);
            }
    h->offer_open = phase == PH_SECOND && !no_actions(h);       /* R8.1, parole on */
    h->votes = h->voted = 0;
    h->actor = -1;
    advance(h, first, 1);
}

static void next_drawer(hand_t *h) {
    if (h->phase != PH_DRAW) return;
    if (++h->draw_index < h->ndraw) {
        h->actor = h->draw_order[h->draw_index];
    } else {
        h->actor = -1;
        start_round(h, PH_SECOND);
    }
}

static void start_draw(hand_t *h) {
    h->phase = PH_DRAW;
    h->ndraw = 0;
    for (int i = 0, s = h->after_button; i < h->n; i++, s = s + 1 < h->n ? s + 1 : 0) {
        h->bets[i] = 0;
        if (!h->folded[s]) h->draw_order[h->ndraw++] = s;      /* R6.1 */
    }
    h->draw_index = -1;
    h->nown = 0;
    next_drawer(h);
}

static void hand_init(hand_t *h, rng_t *rng, const int64_t *stacks, int n, int button) {
    h->n = n;
    h->button = button;
    h->rng = rng;
    h->nev = 0;
    h->pile = 0;
    h->nown = 0;
    uint8_t deck[32];
    rng_shuffled(rng, 0xFFFFFFFFu, deck);
    for (int i = 0; i < n; i++) {
        h->stacks[i] = h->start[i] = stacks[i];
        h->bets[i] = h->contrib[i] = 0;
        h->folded[i] = h->no_raise[i] = 0;
    }
    /* R4.2, R4.3: blinds clockwise from the button; classic: over blind at 4-5 players */
    if (n == 2) {
        h->nblinds = 2;
        h->blind_seats[0] = (button + 1) % 2;
        h->blind_seats[1] = button;
    } else {
        h->nblinds = n >= 4 ? 3 : 2;
        for (int i = 0, s = button + 1 < n ? button + 1 : 0; i < h->nblinds; i++, s = s + 1 < n ? s + 1 : 0)
            h->blind_seats[i] = s;
    }
    h->blinds[0] = 1; h->blinds[1] = 2; h->blinds[2] = 4;
    h->L = h->blinds[h->nblinds - 1];
    h->after_button = button + 1 < n ? button + 1 : 0;
    h->first_after_blinds = h->blind_seats[h->nblinds - 1] + 1 < n ? h->blind_seats[h->nblinds - 1] + 1 : 0;
    h->nlive = n;
    for (int i = 0; i < h->nblinds; i++) {
        int seat = h->blind_seats[i];
        int64_t paid = h->blinds[i] < h->stacks[seat] ? h->blinds[i] : h->stacks[seat];   /* R4.5 */
        put(h, seat, paid);
        log_ev(h, EV_POST_BLIND, seat, paid, NULL, 0);
    }
    /* R5.1: one card at a time from left of the button: deal-order k gets deck[k], deck[k+n], ... */
    for (int k = 0, seat = h->after_button; k < n; k++, seat = seat + 1 < n ? seat + 1 : 0) {
        for (int j = 0; j < 5; j++) h->hole[seat][j] = deck[k + j * n];
        h->nhole[seat] = 5;
        log_ev(h, EV_DEAL_HOLE, seat, -1, h->hole[seat], 5);
    }
    memcpy(h->stub, deck + 5 * n, (size_t)(32 - 5 * n));
    h->stub_pos = 0;
    h->stub_len = 32 - 5 * n;
    start_round(h, PH_FIRST);
}

static int answerable(const hand_t *h, int p) {   /* R5.5 */
    for (int i = 0; i < h->n; i++)
        if (i != p && !h->folded[i] && h->stacks[i] > h->to_match - h->bets[i]) return 1;
    return 0;
}

static void legal_actions(const hand_t *h, legal_t *la) {
    int p = h->actor;
    la->seat = p;
    la->hole = h->hole[p];
    la->nhole = h->nhole[p];
    la->call = 0;
    la->min_to = la->max_to = -1;
    la->max_discard = 0;
    if (h->phase == PH_DRAW) { la->kinds = K_DISCARD; la->max_discard = 4; return; }
    int64_t stack = h->stacks[p];
    if (stack == 0) { la->kinds = K_SPLIT | K_DECLINE; return; }
    int64_t owe = h->to_match - h->bets[p];
    if (owe > 0) {
        la->kinds = K_FOLD | K_CALL;
        la->call = (int)(owe < stack ? owe : stack);
    } else {
        la->kinds = K_FOLD | K_CHECK | (h->offer_open && !h->no_raise[p] ? K_SPLIT : 0);
    }
    /* raise bounds, no-limit (R3.4, R3.5, R5.5) */
    if (h->raise_withdrawn == p) return;
    if (h->phase == PH_SECOND && h->no_raise[p]) return;
    if (!answerable(h, p)) return;
    if (h->acted[p] && h->acted_serial[p] == h->reopen_serial && h->to_match - h->last_level[p] < h->raise_size)
        return;
    int64_t allin = h->bets[p] + stack;
    if (allin <= h->to_match) return;
    int64_t lo = h->to_match ? h->to_match + h->raise_size : h->L, hi = allin;
    la->min_to = (int)(lo < hi ? lo : hi);
    la->max_to = (int)hi;
    la->kinds |= h->to_match ? K_RAISE : K_BET;
}

static inline void withdraw_offer(hand_t *h) {
    if (h->offer_open) { h->offer_open = 0; h->votes = 0; }
}

static inline void mark_acted(hand_t *h, int p) {
    h->acted[p] = 1;
    h->last_level[p] = h->to_match;
    h->acted_serial[p] = h->reopen_serial;
}

static void act_check(hand_t *h, const legal_t *la) {
    int p = la->seat;
    withdraw_offer(h);
    mark_acted(h, p);
    log_ev(h, EV_CHECK, p, -1, NULL, 0);
    advance(h, p, 0);
}

static void act_call(hand_t *h, const legal_t *la) {
    int p = la->seat;
    put(h, p, la->call);
    mark_acted(h, p);
    log_ev(h, EV_CALL, p, la->call, NULL, 0);
    advance(h, p, 0);
}

static void act_discard(hand_t *h, const legal_t *la, const uint8_t *chosen, int k) {
    int p = la->seat;
    uint8_t cards[4];
    uint32_t thrown = 0;
    for (int j = 0; j < k; j++) {       /* chosen may point into the hand being changed */
        cards[j] = chosen[j];
        thrown |= 1u << chosen[j];
    }
    int nkept = 0, nhole = h->nhole[p];
    uint8_t *hole = h->hole[p];
    for (int i = 0; i < nhole; i++) {   /* the kept cards, in order, without a branch */
        uint8_t c = hole[i];
        hole[nkept] = c;
        nkept += !(thrown >> c & 1);
    }
    h->nhole[p] = nkept;
    memcpy(h->own, cards, (size_t)k);
    h->nown = k;
    log_ev(h, EV_DISCARD, p, k, cards, k);
    if (!k) { next_drawer(h); return; }
    /* R6.2: from the stub; when it runs short, the others' discards are shuffled into a new stub */
    uint8_t dealt[4];
    int have = h->stub_len - h->stub_pos;
    int take = have < k ? have : k;
    memcpy(dealt, h->stub + h->stub_pos, (size_t)take);
    h->stub_pos += take;
    if (take < k) {
        uint8_t fresh[32];
        int nf = rng_shuffled(h->rng, h->pile, fresh);
        log_ev(h, EV_RESHUFFLE, -1, nf, NULL, 0);
        memcpy(h->stub, fresh, (size_t)nf);
        h->stub_pos = 0;
        h->stub_len = nf;
        h->pile = 0;
        int rest = k - take;
        memcpy(dealt + take, h->stub, (size_t)rest);
        h->stub_pos = rest;
    }
    memcpy(h->hole[p] + nkept, dealt, (size_t)k);
    h->nhole[p] = nkept + k;
    log_ev(h, EV_DEAL_DRAW, p, -1, dealt, k);
    for (int i = 0; i < h->nown; i++) h->pile |= 1u << h->own[i];   /* own discards join only now */
    h->nown = 0;
    next_drawer(h);
}

/* The bench bot: discard the first `discard` hole cards, else check, else call. */
static void play(hand_t *h, int discard) {
    legal_t la;
    while (h->actor >= 0) {
        legal_actions(h, &la);
        if (la.kinds & K_DISCARD) act_discard(h, &la, la.hole, discard);
        else if (la.kinds & K_CHECK) act_check(h, &la);
        else act_call(h, &la);
    }
}

/* ------------------------------------------------------------------ checksums (as bench/c_loop.py) */

#define FNV_PRIME 0x100000001B3ULL
static inline uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * FNV_PRIME; }

static uint64_t events_hash(uint64_t x, const hand_t *h) {
    for (int i = 0; i < h->nev; i++) {
        const event_t *e = &h->ev[i];
        x = mix(x, e->kind);
        x = mix(x, (uint64_t)(int64_t)e->seat);
        x = mix(x, (uint64_t)e->amount);
        for (int j = 0; j < e->ncards; j++) x = mix(x, e->cards[j]);
    }
    return x;
}

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double wall_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int usage(void) {
    fprintf(stderr, "usage: hand check PLAYERS DISCARD SEED HANDS STACK CARRY | hand bench PLAYERS DISCARD SEED SECONDS "
                    "REPEAT | hand table\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    build_table();
    if (!strcmp(argv[1], "table")) {
        for (int a = 0; a < 28; a++)
            for (int b = a + 1; b < 29; b++)
                for (int c = b + 1; c < 30; c++)
                    for (int d = c + 1; d < 31; d++)
                        for (int e = d + 1; e < 32; e++) {
                            uint32_t v = evaluate_mask(1u << a | 1u << b | 1u << c | 1u << d | 1u << e);
                            uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
                            fwrite(le, 1, 4, stdout);
                        }
        return 0;
    }
    if (argc != 7 && argc != 8) return usage();
    int players = atoi(argv[2]), discard = atoi(argv[3]);
    uint64_t seed = strtoull(argv[4], NULL, 10);
    if (players < 2 || players > 5 || discard < 0 || discard > 4) return usage();
    rng_t rng;
    rng_seed(&rng, seed);
    hand_t h;   /* one flat struct on the stack, set up again for each hand */
    int64_t stacks[5];
    if (!strcmp(argv[1], "check") && argc == 8) {
        /* STACK chips each; CARRY 1: stacks carry over between hands and a broke seat buys in again */
        long hands = atol(argv[5]);
        int64_t stack = atoll(argv[6]);
        int carry = atoi(argv[7]);
        uint64_t sum = 0xCBF29CE484222325ULL, evsum = 0xCBF29CE484222325ULL;
        for (int i = 0; i < players; i++) stacks[i] = stack;
        for (long k = 0; k < hands; k++) {
            if (!carry) for (int i = 0; i < players; i++) stacks[i] = stack;
            hand_init(&h, &rng, stacks, players, (int)(k % players));
            play(&h, discard);
            for (int i = 0; i < players; i++) {
                sum = mix(sum, (uint64_t)h.stacks[i]);
                stacks[i] = h.stacks[i] > 0 ? h.stacks[i] : stack;
            }
            evsum = events_hash(evsum, &h);
        }
        printf("%llu %llu %llu %llu %llu %llu\n", (unsigned long long)sum, (unsigned long long)evsum,
               (unsigned long long)rng.s0, (unsigned long long)rng.s1, (unsigned long long)rng.s2,
               (unsigned long long)rng.s3);
        return 0;
    }
    if (!strcmp(argv[1], "bench") && argc == 7) {
        double seconds = atof(argv[5]);
        int repeat = atoi(argv[6]);
        if (repeat < 1 || repeat > 100) return usage();
        uint64_t sink = 0;
        printf("{\"rates\": [");
        double wall_rates[100];
        for (int r = 0; r < repeat; r++) {
            long n = 0;
            double c0 = cpu_now(), w0 = wall_now(), c1;
            do {   /* the bench loop: fresh stacks of 200, button n % players, one generator */
                for (int b = 0; b < 1000; b++, n++) {
                    for (int i = 0; i < players; i++) stacks[i] = 200;
                    hand_init(&h, &rng, stacks, players, (int)(n % players));
                    play(&h, discard);
                    sink += (uint64_t)h.stacks[0] + (uint64_t)h.nev + h.ev[h.nev - 2].amount;
                }
                c1 = cpu_now();
            } while (c1 - c0 < seconds);
            wall_rates[r] = n / (wall_now() - w0);
            printf("%s%.1f", r ? ", " : "", n / (c1 - c0));
        }
        printf("], \"wall_rates\": [");
        for (int r = 0; r < repeat; r++) printf("%s%.1f", r ? ", " : "", wall_rates[r]);
        printf("], \"sink\": %llu, \"event_bytes\": %d}\n", (unsigned long long)sink, (int)sizeof(event_t));
        return 0;
    }
    return usage();
}
