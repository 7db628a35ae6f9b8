/* The research layer's per-step work in C (issue 21): the dense action ids with the R18
 * sub-steps, the public-history planes and the information-state encoding of one deal.
 * A port of the pure-Python reference, which stays the definition:
 *   research/ids.py       (first_id, table_ids, the id layout: 473 ids)
 *   research/deal.py      (Deal.legal_actions, Deal.apply, Deal._force_targets)
 *   research/history.py   (note: the twelve history planes, R21)
 *   research/observer.py  (_bits / SeatEncoder.encode: 783 floats, docs/RESEARCH.md)
 * Included once, by _native.c, after _native_core.h and the Mersenne Twister.
 * tests/test_research_vector.py proves the batched environments built on it equal to the
 * Python ones array by array in every profile. */
#ifndef GAMEWEAVE_NATIVE_RESEARCH_H
#define GAMEWEAVE_NATIVE_RESEARCH_H

enum { A_TURN = 0, A_REFUSE = 1, A_REFUSE_FORCE = 2, A_FORCE_BACK = 3, A_DONE = 4, A_THROW = 5,
       A_THROW_FORCE = 45, A_MELD = 85, A_ONTO = 279, NUM_ACTIONS = 473 };
#define OBS_SIZE 303
#define INFO_SIZE 783
#define SC_AT 280
#define HIST_MAX 12288 /* bytes of the public history's text (the random bot's view key) */

/* one research deal: the engine state and what research/deal.py keeps beside it */
typedef struct {
    GS g;
    int capped;            /* the profile caps sequences (R6): the observation's `capped` */
    M pub[12];             /* history planes: pub[6 * seat + plane] (history.note) */
    int last_refuse;       /* the last public event is a refuse that forced nothing */
    int npend, pend[MAXM]; /* meld ids of an R18 table being built (Deal.pending_table) */
    int pf_card, pf_n;     /* a force whose target is chosen (Deal.pending_force), card -1: none */
    int pf_key[MAXM];
    uint64_t pf_act[MAXM];
    Acts legal;            /* the engine's legal actions, valid while legal_ok */
    int legal_ok;
    int hlen;              /* the public history as text: ";".join(f"{seat}{action}") */
    char hist[HIST_MAX];
} RD;

static void rd_new(RD *d, const uint8_t *deck, int opener, Rules r, int capped) {  /* Deal + play_chance */
    deal_new(&d->g, deck, opener, r);
    d->capped = capped;
    memset(d->pub, 0, sizeof(d->pub));
    d->last_refuse = 0;
    d->npend = 0;
    d->pf_card = -1;
    d->pf_n = 0;
    d->legal_ok = 0;
    d->hlen = 0;
}

static int rd_engine_legal(RD *d) {  /* Deal.engine_legal: 0, or -1 out of memory */
    if (d->legal_ok) return 0;
    if (legal(&d->g, &d->legal) < 0) return -1;
    d->legal_ok = 1;
    return 0;
}

/* the decimal digits of v at s (no terminator); their count (str(int) of a non-negative int) */
static int put_u64(char *s, uint64_t v) {
    char tmp[24];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    for (int k = 0; k < n; k++) s[k] = tmp[n - 1 - k];
    return n;
}

static int put_int(char *s, long long v) {  /* str() of any int */
    if (v >= 0) return put_u64(s, (uint64_t)v);
    s[0] = '-';
    return 1 + put_u64(s + 1, (uint64_t)(-v));
}

/* history.note of apply_public's event, then the engine's apply; the text of the event
 * is appended to the history (view_key's last field).  0, or -1 if the text is full. */
static int rd_engine(RD *d, uint64_t a) {  /* Deal._engine */
    GS *g = &d->g;
    int seat = g->to_act, k = (int)(a & 7), base = 6 * seat, centre = g->card, force = 0;
    M before = g->hands[seat];
    if (d->hlen + 24 >= HIST_MAX) return -1;
    char *h = d->hist + d->hlen;
    int n = 0;
    if (d->hlen) h[n++] = ';';
    h[n++] = (char)('0' + seat);
    n += put_u64(h + n, a);
    d->hlen += n;
    if (k == K_TURN) {
        int card = g->stock_pos < 40 ? g->deck[g->stock_pos] : -1;
        if (card >= 0) d->pub[base] |= BIT(card);
        if (centre >= 0) d->pub[base + 3] |= BIT(centre);
    } else if (k == K_THROW) {
        int card = (int)(a >> 3 & 0x3F);
        force = (int)(a >> 9);
        d->pub[base + 2] |= BIT(card);
        if (force) d->pub[base + 5] |= BIT(card);
    } else if (k == K_REFUSE) {
        force = (int)(a >> 3);
        d->pub[base + 1] |= BIT(centre);
        if (force) d->pub[base + 5] |= BIT(centre);
    } else if (k == K_FORCE) {
        force = 1;
        d->pub[base + 5] |= BIT(centre);
    }
    apply(g, a);
    if (k == K_MELD || k == K_TABLE) d->pub[base + 4] |= before & ~g->hands[seat];
    d->last_refuse = k == K_REFUSE && !force;
    d->legal_ok = 0;
    d->npend = 0;
    d->pf_card = -1;
    d->pf_n = 0;
    return 0;
}

/* the meld ids of a meld/table action, ascending (ids.table_ids); their count */
static int table_ids_of(uint64_t a, int *ids) {
    if ((a & 7) == K_MELD) { ids[0] = meld_id(a >> 3); return 1; }
    int n = 0;
    for (uint64_t p = a >> 3; p; p >>= 8) {
        int v = (int)(p & 0xFF) - 1, j = n++;
        while (j > 0 && ids[j - 1] > v) { ids[j] = ids[j - 1]; j--; }
        ids[j] = v;
    }
    return n;
}

static int first_id(uint64_t a) {  /* ids.first_id */
    int k = (int)(a & 7), ids[MAXM];
    switch (k) {
    case K_TURN: return A_TURN;
    case K_MELD: case K_TABLE: table_ids_of(a, ids); return A_MELD + ids[0];
    case K_REFUSE: return a >> 3 ? A_REFUSE_FORCE : A_REFUSE;
    case K_THROW: return (a >> 9 ? A_THROW_FORCE : A_THROW) + (int)(a >> 3 & 0x3F);
    default: return A_FORCE_BACK;
    }
}

/* the dense legal ids of the seat to act, ascending (Deal.legal_actions); their count,
 * or -1 out of memory.  out holds NUM_ACTIONS ints. */
static int rd_legal_ids(RD *d, int *out) {
    if (d->g.phase == PH_OVER) return 0;
    uint64_t seen[8] = {0};
    if (d->pf_card >= 0) {
        for (int i = 0; i < d->pf_n; i++) { int v = A_ONTO + d->pf_key[i]; seen[v >> 6] |= 1ULL << (v & 63); }
    } else {
        if (rd_engine_legal(d) < 0) return -1;
        int k = d->npend, ids[MAXM];
        for (int i = 0; i < d->legal.n; i++) {
            uint64_t a = d->legal.a[i];
            int v;
            if (!k) v = first_id(a);
            else {
                int kind = (int)(a & 7);
                if (kind != K_MELD && kind != K_TABLE) continue;
                int n = table_ids_of(a, ids);
                if (n < k || memcmp(ids, d->pend, sizeof(int) * (size_t)k)) continue;
                v = n == k ? A_DONE : A_MELD + ids[k];
            }
            seen[v >> 6] |= 1ULL << (v & 63);
        }
    }
    int n = 0;
    for (int w = 0; w < 8; w++)
        for (uint64_t b = seen[w]; b; b &= b - 1) out[n++] = 64 * w + __builtin_ctzll(b);
    return n;
}

/* Deal._force_targets: the engine forces of the let-go card, keyed by the target meld's id
 * (-1 under R18e, whose force names no meld); their count */
static int rd_force_targets(RD *d, int kind, int card, int *keys, uint64_t *acts) {
    const GS *g = &d->g;
    int opp = 1 - g->to_act, n = 0;
    for (int i = 0; i < d->legal.n && n < MAXM; i++) {
        uint64_t a = d->legal.a[i];
        if ((int)(a & 7) != kind) continue;
        int f = kind == K_THROW ? (int)(a >> 9) : (int)(a >> 3);
        if (!f || (kind == K_THROW && (int)(a >> 3 & 0x3F) != card)) continue;
        keys[n] = f <= g->nmelds[opp] ? meld_id(g->melds[opp][f - 1]) : -1;
        acts[n++] = a;
    }
    return n;
}

/* Deal.apply of a dense id that rd_legal_ids gave (chance is drawn at once: the stock was
 * shuffled at the deal, so a turn turns its top card).  0, or -1 (memory, history text). */
static int rd_apply_id(RD *d, int aid) {
    GS *g = &d->g;
    if (A_THROW <= aid && aid < A_THROW_FORCE) return rd_engine(d, (uint64_t)(aid - A_THROW) << 3 | K_THROW);
    if (aid == A_TURN) return rd_engine(d, K_TURN);
    if (aid == A_REFUSE) return rd_engine(d, K_REFUSE);
    if (aid == A_FORCE_BACK) return rd_engine(d, K_FORCE);
    if (A_MELD <= aid && aid < A_ONTO) {
        int m = aid - A_MELD;
        if (!g->r.rearranging) return rd_engine(d, MELD_OF[m] << 3 | K_MELD);
        d->pend[d->npend++] = m;
        return 0;
    }
    if (aid == A_DONE) {
        M chosen[MAXM];
        for (int i = 0; i < d->npend; i++) chosen[i] = MELD_OF[d->pend[i]];
        return rd_engine(d, table_action(chosen, d->npend));
    }
    if (aid >= A_ONTO) {
        for (int i = 0; i < d->pf_n; i++)
            if (A_ONTO + d->pf_key[i] == aid) return rd_engine(d, d->pf_act[i]);
        return -1;
    }
    /* A_REFUSE_FORCE or a throw that forces (R15) */
    if (rd_engine_legal(d) < 0) return -1;
    int card = aid == A_REFUSE_FORCE ? g->card : aid - A_THROW_FORCE;
    int keys[MAXM];
    uint64_t acts[MAXM];
    int n = rd_force_targets(d, aid == A_REFUSE_FORCE ? K_REFUSE : K_THROW, card, keys, acts);
    if (n == 1) return rd_engine(d, acts[0]);
    d->pf_card = card;
    d->pf_n = n;
    memcpy(d->pf_key, keys, sizeof(int) * (size_t)n);
    memcpy(d->pf_act, acts, sizeof(uint64_t) * (size_t)n);
    return 0;
}

static inline void set_planes(float *out, int at, M m) {
    for (; m; m &= m - 1) out[at + __builtin_ctzll(m)] = 1.0f;
}

/* SeatEncoder(seat).encode: the seat's information state (INFO_SIZE floats; OBS_SIZE with
 * info 0), from the seat's view fields only (R21): its own hand, both tables, the dead
 * cards, the centre and forced card, its own pending step, counts, the public planes. */
static void rd_encode(const RD *d, int seat, int info, float *out) {
    const GS *g = &d->g;
    int opp = 1 - seat;
    float *sc = out + SC_AT;
    memset(out, 0, sizeof(float) * (size_t)(info ? INFO_SIZE : OBS_SIZE));
    set_planes(out, 0, g->hands[seat]);
    set_planes(out, 40, g->table[seat]);
    set_planes(out, 80, g->table[opp]);
    set_planes(out, 120, g->dead);
    sc[1 + g->phase] = 1.0f;
    if (g->card >= 0) {
        out[160 + g->card] = 1.0f;
        sc[g->live_from == opp ? 9 : g->live_from == seat ? 10 : 11] = 1.0f;
    }
    if (g->forced >= 0) out[200 + g->forced] = 1.0f;
    if (g->to_act == seat) {
        if (d->npend) {
            for (int i = 0; i < d->npend; i++) set_planes(out, 240, MELD_OF[d->pend[i]]);
            sc[7] = 1.0f;
        } else if (d->pf_card >= 0) {
            out[240 + d->pf_card] = 1.0f;
            sc[8] = 1.0f;
        }
        sc[0] = 1.0f;
    }
    if (g->phase == PH_TAKE && d->last_refuse) sc[12] = 1.0f;
    sc[13] = (float)((double)(40 - g->stock_pos) / 20.0);
    sc[14] = (float)((double)popc(g->hands[seat]) / 10.0);
    sc[15] = (float)((double)popc(g->hands[opp]) / 10.0);  /* its size only */
    sc[16] = (float)((double)g->count[seat] / 11.0);
    sc[17] = (float)((double)g->count[opp] / 11.0);
    sc[18] = (float)(g->opener == seat);
    sc[20] = (float)g->r.rearranging;
    sc[21] = (float)g->r.force_back;
    sc[22] = (float)d->capped;
    if (info)
        for (int p = 0; p < 6; p++) {
            set_planes(out, OBS_SIZE + 40 * p, d->pub[6 * seat + p]);
            set_planes(out, OBS_SIZE + 240 + 40 * p, d->pub[6 * opp + p]);
        }
}

/* random.Random.random() of CPython: 53 bits from two 32-bit words */
static double mt_random(MT *m) {
    uint32_t a = mt_next(m) >> 5, b = mt_next(m) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random.shuffle of the 40 cards 0..39 (the whole deal at once, Deal.play_chance) */
static void mt_shuffle_deck(MT *m, uint8_t *deck) {
    for (int i = 0; i < 40; i++) deck[i] = (uint8_t)i;
    for (int i = 39; i > 0; i--) {
        int j = mt_below(m, i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

#endif
