/* The rules of the native core (RULES R5-R19, §V): cards and melds, the R18 partition
 * enumeration, the two flows, the legal actions and the transitions of one deal.  A port
 * of the pure-Python reference (engine/state.py, flow.py, partition.py), each function
 * naming the one it follows; included once, by _native.c. */
#ifndef GAMEWEAVE_NATIVE_CORE_H
#define GAMEWEAVE_NATIVE_CORE_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t M;

enum { PH_TURN, PH_TAKE, PH_TURNED, PH_THROW, PH_FORCED, PH_OVER, PH_CLOSED };
enum { K_MELD, K_TURN, K_REFUSE, K_THROW, K_FORCE, K_TABLE };
enum { ST_PLAYING, ST_WON, ST_TABLAS };
#define FORCE_ANY 127
#define MAXM 8
#define WIN_COUNT 11
#define FULL ((M)0xFFFFFFFFFFULL)
#define ODD ((M)0x5555555555ULL)
#define PAIRS ((M)0x3333333333ULL)
#define ONES ((M)0x1111111111ULL)
#define TWOS ((M)0x2222222222ULL)
#define FOURS ((M)0x4444444444ULL)
#define BIT(c) ((M)1 << (c))

typedef struct { int rearranging, force_back, cap; } Rules;

typedef struct {
    Rules r;
    uint8_t deck[40];
    int opener;
    M hands[2];
    M melds[2][MAXM];
    int nmelds[2];
    M table[2];
    int count[2];
    M ext[2];
    int stock_pos, to_act, phase, card, live_from, refused, forced;
    M dead;
    int status, winner;
} GS;

typedef struct { uint64_t *a; int n, cap; } Acts;

static int acts_push(Acts *x, uint64_t v) {
    if (x->n == x->cap) {
        int cap = x->cap ? x->cap * 2 : 64;
        uint64_t *p = (uint64_t *)realloc(x->a, (size_t)cap * sizeof(uint64_t));
        if (!p) return -1;
        x->a = p;
        x->cap = cap;
    }
    x->a[x->n++] = v;
    return 0;
}

/* ------------------------------------------------------------------ cards and melds */
static M RANK_OTHERS[40], RANK_ABOVE[40];
static M MELD_OF[194];
static int SEQ_OFF[12];

static inline int low_card(M m) { return __builtin_ctzll(m); }
static inline int popc(M m) { return __builtin_popcountll(m); }

static M seq_mask(int start, int n) {
    M m = 0;
    for (int k = 0; k < n; k++) m |= BIT(start + 4 * k);
    return m;
}

/* the id of a meld in the uncapped meld table (melds.py: per rank its four sets of three,
 * missing suit 3..0, then the set of four; then sequences by suit, length, lowest rank) */
static int meld_id(M m) {
    int lo = low_card(m), n = popc(m), r = lo >> 2;
    if ((m >> (4 * r)) << (4 * r) == m && (m >> (4 * r)) < 16) {  /* all in one rank: a set */
        if (n == 4) return r * 5 + 4;
        int missing = 0;
        for (int s = 0; s < 4; s++) if (!(m >> (4 * r + s) & 1)) missing = s;
        return r * 5 + (3 - missing);
    }
    return 50 + (lo & 3) * 36 + SEQ_OFF[n] + r;
}

/* cards that extend meld m to another legal meld under sequence cap (R5, R6, R15) */
static M meld_ext(M m, int cap) {
    int lo = low_card(m), n = popc(m), r = lo >> 2;
    if ((m >> (4 * r)) < 16 && (m >> (4 * r)) << (4 * r) == m) return n == 3 ? (((M)15 << (4 * r)) & ~m) : 0;
    if (n + 1 > cap) return 0;
    int hi = 63 - __builtin_clzll(m);
    M e = 0;
    if (lo >= 4) e |= BIT(lo - 4);
    if (hi + 4 < 40) e |= BIT(hi + 4);
    return e;
}

static void init_tables(void) {
    for (int c = 0; c < 40; c++) {
        M rank = (M)15 << (4 * (c >> 2));
        RANK_OTHERS[c] = rank & ~BIT(c);
        RANK_ABOVE[c] = rank & ~((BIT(c) << 1) - 1);
    }
    SEQ_OFF[3] = 0;
    for (int n = 4; n <= 11; n++) SEQ_OFF[n] = SEQ_OFF[n - 1] + (11 - (n - 1));
    int i = 0;
    for (int r = 0; r < 10; r++) {
        static const int combos[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
        for (int k = 0; k < 4; k++)
            MELD_OF[i++] = BIT(4 * r + combos[k][0]) | BIT(4 * r + combos[k][1]) | BIT(4 * r + combos[k][2]);
        MELD_OF[i++] = (M)15 << (4 * r);
    }
    for (int s = 0; s < 4; s++)
        for (int n = 3; n <= 10; n++)
            for (int low = 0; low + n <= 10; low++) MELD_OF[i++] = seq_mask(4 * low + s, n);
}

static int in_some_meld(int c, M pool) {  /* flow._in_some_meld */
    M same = pool & RANK_OTHERS[c];
    if (same & (same - 1)) return 1;
    M l1 = c >= 4 ? BIT(c - 4) : 0, l2 = c >= 8 ? BIT(c - 8) : 0;
    M r1 = c < 36 ? BIT(c + 4) : 0, r2 = c < 32 ? BIT(c + 8) : 0;
    if (pool & l1) return (pool & l2) || (pool & r1);
    return (pool & r1) && (pool & r2);
}

static inline M rank_counts(M pool) {
    M a = (pool & ODD) + (pool >> 1 & ODD);
    return (a & PAIRS) + (a >> 2 & PAIRS);
}

static int has_meld(M pool) {  /* partition.has_meld */
    if (pool & pool >> 4 & pool >> 8) return 1;
    return ((rank_counts(pool) + ONES) & FOURS) != 0;
}

static M near_pairs(M pool) {  /* partition.near_pairs */
    M seq = (pool << 4 & pool << 8) | (pool << 4 & pool >> 4) | (pool >> 4 & pool >> 8);
    M two = ((rank_counts(pool) + TWOS) & FOURS) >> 2;
    return (seq | two * 15) & FULL & ~pool;
}

static int sets_of(M bit, M same, M *out, int n) {  /* partition._sets */
    M a = same & -same, rest = same ^ a, b = rest & -rest, d = rest ^ b;
    out[n++] = bit | a | b;
    if (d) {
        out[n++] = bit | a | d;
        out[n++] = bit | b | d;
        out[n++] = bit | same;
    }
    return n;
}

static int with_card(int c, M pool, int cap, M *out) {  /* partition._build_with_card */
    int n = 0;
    M same = pool & RANK_OTHERS[c];
    if (same & (same - 1)) n = sets_of(BIT(c), same, out, n);
    int lo = 0, hi = 0;
    for (int x = c - 4; x >= 0 && (pool >> x & 1); x -= 4) lo++;
    for (int x = c + 4; x < 40 && (pool >> x & 1); x += 4) hi++;
    if (lo + hi >= 2)
        for (int i = lo; i >= 0; i--)
            for (int j = 0; j <= hi; j++) {
                int len = i + j + 1;
                if (len >= 3 && len <= cap) out[n++] = seq_mask(c - 4 * i, len);
            }
    return n;
}

static int lowest_at(int c, M pool, int cap, M *out) {  /* partition._build_lowest_at */
    int n = 0;
    M same = pool & RANK_ABOVE[c];
    if (same & (same - 1)) n = sets_of(BIT(c), same, out, n);
    int hi = 0;
    for (int x = c + 4; x < 40 && (pool >> x & 1); x += 4) hi++;
    if (hi >= 2) {
        int top = hi + 1 < cap ? hi + 1 : cap;
        for (int len = 3; len <= top; len++) out[n++] = seq_mask(c, len);
    }
    return n;
}

/* ------------------------------------------------------------------ R18 partitions */
static uint64_t table_action(const M *chosen, int k) {  /* actions.table_action */
    if (k == 1) return ((uint64_t)(meld_id(chosen[0]) + 1) << 3) | K_TABLE;
    M order[MAXM];
    memcpy(order, chosen, sizeof(M) * (size_t)k);
    for (int i = 1; i < k; i++) {  /* by lowest card (disjoint melds: all different) */
        M v = order[i];
        int j = i - 1;
        while (j >= 0 && low_card(order[j]) > low_card(v)) { order[j + 1] = order[j]; j--; }
        order[j + 1] = v;
    }
    uint64_t payload = 0;
    for (int i = 0; i < k; i++) payload |= (uint64_t)(meld_id(order[i]) + 1) << (8 * i);
    return payload << 3 | K_TABLE;
}

typedef struct { int cap; Acts *out; M chosen[16]; int k; int err; } Enum;

static void extend(Enum *e, M rest, int floor) {
    if (acts_push(e->out, table_action(e->chosen, e->k)) < 0) { e->err = 1; return; }
    M h = rest >> floor << floor;
    if (!has_meld(h)) return;
    while (h) {
        M low = h & -h;
        h ^= low;
        int c = low_card(low);
        M ms[40];
        int n = lowest_at(c, rest, e->cap, ms);
        for (int i = 0; i < n; i++) {
            e->chosen[e->k++] = ms[i];
            extend(e, rest & ~ms[i], c + 1);
            e->k--;
        }
    }
}

static void cover(Enum *e, M req, M rest) {
    if (!req) { extend(e, rest, 0); return; }
    M low = req & -req;
    M ms[64];
    int n = with_card(low_card(low), (req ^ low) | rest, e->cap, ms);
    for (int i = 0; i < n; i++) {
        e->chosen[e->k++] = ms[i];
        cover(e, req & ~ms[i], rest & ~ms[i]);
        e->k--;
    }
}

static int can_cover(M req, M rest, int cap) {
    if (!req) return 1;
    M low = req & -req;
    M ms[64];
    int n = with_card(low_card(low), (req ^ low) | rest, cap, ms);
    for (int i = 0; i < n; i++)
        if (can_cover(req & ~ms[i], rest & ~ms[i], cap)) return 1;
    return 0;
}

static int partitionable(M mask, int cap) {
    if (!mask) return 1;
    M low = mask & -mask;
    M ms[64];
    int n = with_card(low_card(low), mask ^ low, cap, ms);
    for (int i = 0; i < n; i++)
        if (partitionable(mask & ~ms[i], cap)) return 1;
    return 0;
}

/* ------------------------------------------------------------------ flows (flow.py) */
static int meld_options(const GS *g, int seat, int card, Acts *out) {
    M bit = BIT(card), hand = g->hands[seat];
    int cap = g->r.cap;
    if (g->r.rearranging) {  /* RearrangeFlow.meld_options (R18a-c) */
        M table = g->table[seat];
        if (!in_some_meld(card, table | hand)) return 0;
        Enum e;
        e.cap = cap; e.out = out; e.k = 0; e.err = 0;
        cover(&e, table | bit, hand);
        return e.err ? -1 : 0;
    }
    /* SingleMeldFlow.meld_options (R12) */
    M near = RANK_OTHERS[card] | (card >= 4 ? BIT(card - 4) : 0) | (card < 36 ? BIT(card + 4) : 0);
    if (!(hand & near)) {
        if (!(g->ext[seat] & bit)) return 0;
        hand = 0;
    }
    if (g->ext[seat] & bit)
        for (int i = 0; i < g->nmelds[seat]; i++) {
            M m = g->melds[seat][i];
            if (meld_ext(m, cap) & bit && acts_push(out, (m | bit) << 3) < 0) return -1;
        }
    M same = hand & RANK_OTHERS[card];
    if (same && (same & (same - 1))) {
        M first = same & -same, rest = same ^ first;
        if (acts_push(out, (bit | first | (rest & -rest)) << 3) < 0) return -1;
        if (rest & (rest - 1) && acts_push(out, (bit | same) << 3) < 0) return -1;
    }
    int lo = 0, hi = 0;
    for (int c = card - 4; c >= 0 && (hand >> c & 1); c -= 4) lo++;
    for (int c = card + 4; c < 40 && (hand >> c & 1); c += 4) hi++;
    if (lo + hi >= 2)
        for (int i = lo; i >= 0; i--)
            for (int j = 0; j <= hi; j++) {
                int len = i + j + 1;
                if (len >= 3 && len <= cap && acts_push(out, seq_mask(card - 4 * i, len) << 3) < 0) return -1;
            }
    return 0;
}

static int can_meld(const GS *g, int seat, int card) {
    if (g->ext[seat] >> card & 1) return 1;
    M hand = g->hands[seat];
    if (g->r.rearranging) {
        M table = g->table[seat];
        if (!in_some_meld(card, table | hand)) return 0;
        if (in_some_meld(card, hand)) return 1;
        return can_cover(table | BIT(card), hand, g->r.cap);
    }
    Acts tmp = {0, 0, 0};
    int ok = meld_options(g, seat, card, &tmp) < 0 ? 1 : tmp.n > 0;
    free(tmp.a);
    return ok;
}

/* the forces of card onto target: meld numbers 1.. (R15), or FORCE_ANY (R18e); n of them */
static int force_values(const GS *g, int target, int card, int *vals) {
    M bit = BIT(card);
    if (g->r.rearranging) {
        if (g->ext[target] & bit) { vals[0] = FORCE_ANY; return 1; }
        M table = g->table[target];
        if (!in_some_meld(card, table)) return 0;
        if (partitionable(table | bit, g->r.cap)) { vals[0] = FORCE_ANY; return 1; }
        return 0;
    }
    if (!(g->ext[target] & bit)) return 0;
    int n = 0;
    for (int i = 0; i < g->nmelds[target]; i++)
        if (meld_ext(g->melds[target][i], g->r.cap) & bit) vals[n++] = i + 1;
    return n;
}

static M force_mask_r18(const GS *g, int target, M cards) {  /* RearrangeFlow.force_mask */
    M table = g->table[target], ext = g->ext[target];
    M out = cards & ext, rest = cards & near_pairs(table) & ~ext;
    while (rest) {
        M low = rest & -rest;
        rest ^= low;
        if (partitionable(table | low, g->r.cap)) out |= low;
    }
    return out;
}

static int can_force_back(const GS *g) {
    int vals[MAXM];
    return g->refused && g->r.force_back && force_values(g, g->live_from, g->card, vals) > 0;
}

/* ------------------------------------------------------------------ legal actions */
static int legal(const GS *g, Acts *out) {
    out->n = 0;
    int seat = g->to_act, vals[MAXM];
    switch (g->phase) {
    case PH_TURN:
        return acts_push(out, K_TURN);
    case PH_TAKE:
        if (meld_options(g, seat, g->card, out) < 0) return -1;
        if (g->refused && g->r.force_back && can_force_back(g) && acts_push(out, K_FORCE) < 0) return -1;
        return acts_push(out, K_TURN);
    case PH_TURNED: {
        if (meld_options(g, seat, g->card, out) < 0 || acts_push(out, K_REFUSE) < 0) return -1;
        int n = force_values(g, 1 - seat, g->card, vals);
        for (int i = 0; i < n; i++)
            if (acts_push(out, (uint64_t)vals[i] << 3 | K_REFUSE) < 0) return -1;
        return 0;
    }
    case PH_THROW: {
        M hand = g->hands[seat];
        int opp = 1 - seat;
        if (g->r.rearranging) {
            M forceable = force_mask_r18(g, opp, hand);
            while (hand) {
                M low = hand & -hand;
                hand ^= low;
                uint64_t a = (uint64_t)low_card(low) << 3 | K_THROW;
                if (acts_push(out, a) < 0) return -1;
                if (forceable & low && acts_push(out, a | (uint64_t)FORCE_ANY << 9) < 0) return -1;
            }
            return 0;
        }
        while (hand) {
            M low = hand & -hand;
            hand ^= low;
            int c = low_card(low);
            uint64_t a = (uint64_t)c << 3 | K_THROW;
            if (acts_push(out, a) < 0) return -1;
            if (!(g->ext[opp] & low)) continue;
            int n = force_values(g, opp, c, vals);
            for (int i = 0; i < n; i++)
                if (acts_push(out, a | (uint64_t)vals[i] << 9) < 0) return -1;
        }
        return 0;
    }
    case PH_FORCED:
        return meld_options(g, seat, g->forced, out);
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------ transitions */
static void end_deal(GS *g, int status, int winner) {
    g->status = status;
    g->winner = winner;
    g->phase = PH_OVER;
    g->to_act = -1;
    g->card = -1;
    g->live_from = -1;
    g->refused = 0;
}

static void set_melds(GS *g, int seat, const M *melds, int n) {
    M ext = 0, cards = 0;
    M order[MAXM];
    memcpy(order, melds, sizeof(M) * (size_t)n);
    for (int i = 1; i < n; i++) {  /* §VII order: by lowest card */
        M v = order[i];
        int j = i - 1;
        while (j >= 0 && low_card(order[j]) > low_card(v)) { order[j + 1] = order[j]; j--; }
        order[j + 1] = v;
    }
    for (int i = 0; i < n; i++) {
        g->melds[seat][i] = order[i];
        ext |= meld_ext(order[i], g->r.cap);
        cards |= order[i];
    }
    g->nmelds[seat] = n;
    g->ext[seat] = ext;
    g->table[seat] = cards;
    g->count[seat] = popc(cards);
}

static void force(GS *g, int target, int card, int fv) {  /* GameState._force */
    g->card = -1;
    g->live_from = -1;
    g->to_act = target;
    if (g->r.rearranging) {  /* R18e: the card waits for the target's meld */
        g->forced = card;
        g->phase = PH_FORCED;
        return;
    }
    M melds[MAXM];
    int n = g->nmelds[target];
    memcpy(melds, g->melds[target], sizeof(M) * (size_t)n);
    melds[fv - 1] |= BIT(card);
    set_melds(g, target, melds, n);
    if (g->count[target] >= WIN_COUNT) end_deal(g, ST_WON, target);
    else g->phase = PH_THROW;
}

static void apply(GS *g, uint64_t a) {  /* GameState.apply; a must be legal */
    int seat = g->to_act, k = (int)(a & 7);
    if (k == K_TURN) {
        if (g->card >= 0) g->dead |= BIT(g->card);
        g->refused = 0;
        if (g->stock_pos >= 40) { end_deal(g, ST_TABLAS, -1); return; }
        g->card = g->deck[g->stock_pos++];
        g->live_from = -1;
        g->phase = PH_TURNED;
    } else if (k == K_REFUSE || k == K_THROW) {
        int card, fv;
        if (k == K_THROW) {
            card = (int)(a >> 3 & 0x3F);
            g->hands[seat] ^= BIT(card);
            g->card = card;
            fv = (int)(a >> 9);
        } else {
            card = g->card;
            fv = (int)(a >> 3);
        }
        int opp = 1 - seat;
        if (fv) { g->refused = 0; force(g, opp, card, fv); return; }
        int refused = k == K_REFUSE;
        g->live_from = seat;
        g->to_act = opp;
        g->phase = PH_TAKE;
        g->refused = refused;
        if (g->stock_pos >= 40 && !can_meld(g, opp, card) &&
            !(refused && g->r.force_back && can_force_back(g))) {  /* R17 */
            g->dead |= BIT(card);
            end_deal(g, ST_TABLAS, -1);
        }
    } else if (k == K_FORCE) {  /* R19 */
        g->refused = 0;
        force(g, g->live_from, g->card, 1);
    } else {  /* MELD (R12), TABLE (R18) */
        int card;
        if (g->phase == PH_FORCED) { card = g->forced; g->forced = -1; }
        else card = g->card;
        M melds[MAXM], from_hand;
        int n;
        if (k == K_MELD) {
            M mask = a >> 3, rest = mask ^ BIT(card), used = rest & g->hands[seat];
            n = g->nmelds[seat];
            memcpy(melds, g->melds[seat], sizeof(M) * (size_t)n);
            if (used) melds[n++] = mask;
            else
                for (int i = 0; i < n; i++) if (melds[i] == rest) melds[i] = mask;
            from_hand = used;
        } else {
            uint64_t p = a >> 3;
            n = 0;
            M all = 0;
            while (p) { melds[n] = MELD_OF[(p & 0xFF) - 1]; all |= melds[n++]; p >>= 8; }
            from_hand = all & g->hands[seat];
        }
        set_melds(g, seat, melds, n);
        g->hands[seat] ^= from_hand;
        g->card = -1;
        g->live_from = -1;
        g->refused = 0;
        if (g->count[seat] >= WIN_COUNT) end_deal(g, ST_WON, seat);
        else g->phase = PH_THROW;
    }
}

static void deal_new(GS *g, const uint8_t *deck, int opener, Rules r) {  /* GameState._blank, R8 */
    memset(g, 0, sizeof(*g));
    g->r = r;
    memcpy(g->deck, deck, 40);
    g->opener = opener;
    M first = 0, second = 0;
    for (int i = 0; i < 20; i += 2) { first |= BIT(deck[i]); second |= BIT(deck[i + 1]); }
    g->hands[opener] = first;
    g->hands[1 - opener] = second;
    g->stock_pos = 20;
    g->to_act = opener;
    g->phase = PH_TURN;
    g->card = -1;
    g->live_from = -1;
    g->forced = -1;
    g->winner = -1;
    g->status = ST_PLAYING;
}

#endif
