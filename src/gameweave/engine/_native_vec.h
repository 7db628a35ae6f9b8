/* Many research deals stepped in one call (issue 21): the Python type VecGames behind
 * gameweave.research.vector's native path.  It writes straight into the caller's arrays
 * (any C-contiguous buffer: numpy arrays, bytearrays), so the engine needs no numpy.
 *
 * VecGames(n, rearranging, force_back, cap, capped, mode, seat, opener, stake, opponent, raise_illegal)
 *   mode 0: the single-agent game of research/gym.py (the agent at `seat` against the
 *     built-in opponent: 0 = "uniform", a uniform dense id drawn by the game's generator
 *     (random()); 1 = the gameweave `random` bot, _native_rbot.h), as ConquianEnv steps it;
 *   mode 1: self-play (ConquianSelfPlayVectorEnv: the caller plays both seats).
 *   .seed(i, key)            game i's generator = random.Random(seed) (key: its 32-bit words)
 *   .reset(obs, mask, to_act) deal every game anew and write its rows
 *   .step(actions, obs, mask, rewards, terms, codes, to_act)   one id per game; next-step
 *     auto-reset; codes: 0 going on, 1 won, 2 tablas, 3 an illegal id ended it (mode 0)
 *   .observe(obs, mask, to_act)   .load(i, state, pending, pf_card, pf_keys, pf_acts, pub, last_refuse, hist)
 *   .reset1(i, obs, mask)  .step1(i, action, obs, mask) -> (reward, code)   one game, no auto-reset
 *   .new1(i)  .observe1(i, seat, obs, mask)  .play1(i, action)   one self-play game (the AEC environment)
 * Shapes (N games): obs float32 (N, 783); mask int8 (N, 473); rewards float64 (N,) in mode
 * 0, (N, 2) in mode 1; terms bool (N,); codes int8 (N,); actions, to_act int64 (N,)
 * (to_act may be None in mode 0).  Included once, by _native.c. */
#ifndef GAMEWEAVE_NATIVE_VEC_H
#define GAMEWEAVE_NATIVE_VEC_H

typedef struct {
    PyObject_HEAD
    int n, mode, seat, opener, opponent, raise_illegal, capped;
    double stake;
    Rules r;
    RD *d;
    MT *rng;
    MT *rng0;  /* per game: its generator as reset1 / new1 found it (the single envs' `deal` replays from it) */
    uint64_t *bot_seed;
    uint8_t *autoreset;
    int64_t *to_act;
    uint32_t *keys;  /* per game, KEY_WORDS: the seed words of a random-bot draw that waits */
    int *klen, *pend;
    uint8_t *kind;
    int ids[NUM_ACTIONS];
} VecGames;

static void VG_dealloc(VecGames *v) {
    if (v->d)
        for (int i = 0; i < v->n; i++) free(v->d[i].legal.a);
    free(v->d); free(v->rng); free(v->rng0); free(v->bot_seed); free(v->autoreset); free(v->to_act);
    free(v->keys); free(v->klen); free(v->pend); free(v->kind);
    Py_TYPE(v)->tp_free((PyObject *)v);
}

static int VG_init(VecGames *v, PyObject *args, PyObject *kw) {
    int rearranging, force_back, cap;
    if (!PyArg_ParseTuple(args, "ippipiiidip", &v->n, &rearranging, &force_back, &cap, &v->capped, &v->mode,
                          &v->seat, &v->opener, &v->stake, &v->opponent, &v->raise_illegal))
        return -1;
    if (parse_rules(rearranging, force_back, cap, &v->r) < 0) return -1;
    if (v->n < 1 || v->mode < 0 || v->mode > 1 || v->seat < 0 || v->seat > 1 || v->opener < 0 || v->opener > 1 ||
        v->opponent < 0 || v->opponent > 1) {
        PyErr_SetString(PyExc_ValueError, "VecGames: an argument is out of range");
        return -1;
    }
    v->d = (RD *)calloc((size_t)v->n, sizeof(RD));
    v->rng = (MT *)calloc((size_t)v->n, sizeof(MT));
    v->rng0 = (MT *)calloc((size_t)v->n, sizeof(MT));
    v->bot_seed = (uint64_t *)calloc((size_t)v->n, sizeof(uint64_t));
    v->autoreset = (uint8_t *)calloc((size_t)v->n, 1);
    v->to_act = (int64_t *)calloc((size_t)v->n, sizeof(int64_t));
    v->keys = (uint32_t *)malloc((size_t)v->n * KEY_WORDS * sizeof(uint32_t));
    v->klen = (int *)calloc((size_t)v->n, sizeof(int));
    v->pend = (int *)calloc((size_t)v->n, sizeof(int));
    v->kind = (uint8_t *)calloc((size_t)v->n, 1);
    if (!v->d || !v->rng || !v->rng0 || !v->bot_seed || !v->autoreset || !v->to_act || !v->keys || !v->klen || !v->pend || !v->kind) {
        PyErr_NoMemory();
        return -1;
    }
    uint32_t zero = 0;
    for (int i = 0; i < v->n; i++) mt_init_by_array(&v->rng[i], &zero, 1);
    return 0;
}

/* ConquianEnv._opponent_plays: the opponent acts until the agent is to act or it is over */
static int vg_opponent(VecGames *v, RD *d, int i) {
    int opp = 1 - v->seat;
    while (d->g.phase != PH_OVER && d->g.to_act == opp) {
        if (v->opponent == 0) {
            int n = rd_legal_ids(d, v->ids);
            if (n <= 0 || rd_apply_id(d, v->ids[(int)(mt_random(&v->rng[i]) * n)]) < 0) return -1;
        } else {
            int k = random_bot_pick(d, v->bot_seed[i]);
            if (k < 0 || rd_engine(d, d->legal.a[k]) < 0) return -1;
        }
    }
    return 0;
}

static void vg_deal(VecGames *v, int i) {  /* ConquianEnv.reset without a seed / _new_deal, before the opponent */
    MT *m = &v->rng[i];
    uint8_t deck[40];
    if (v->mode == 0) {  /* bot_seed = rng.getrandbits(62): the low word, then the top 30 bits */
        uint64_t lo = mt_next(m), hi = mt_next(m) >> 2;
        v->bot_seed[i] = lo | hi << 32;
    }
    mt_shuffle_deck(m, deck);
    rd_new(&v->d[i], deck, v->opener, v->r, v->capped);
}

static int vg_new_deal(VecGames *v, int i) {
    vg_deal(v, i);
    return v->mode == 0 ? vg_opponent(v, &v->d[i], i) : 0;
}

/* vg_opponent, stopping where the random bot must draw among two or more actions: 0 the
 * agent is to act or it is over, 1 a draw waits (its seed words in keys, klen), -1 error.
 * The batch's draws are then made LANES at a time (vg_settle). */
static int vg_opponent_until(VecGames *v, int i) {
    RD *d = &v->d[i];
    int opp = 1 - v->seat;
    while (d->g.phase != PH_OVER && d->g.to_act == opp) {
        if (v->opponent == 0) {
            int n = rd_legal_ids(d, v->ids);
            if (n <= 0 || rd_apply_id(d, v->ids[(int)(mt_random(&v->rng[i]) * n)]) < 0) return -1;
            continue;
        }
        if (rd_engine_legal(d) < 0) return -1;
        if (d->legal.n == 1) {
            if (rd_engine(d, d->legal.a[0]) < 0) return -1;
            continue;
        }
        int w = random_bot_key(d, v->bot_seed[i], v->keys + (size_t)i * KEY_WORDS);
        if (w < 0) return -1;
        v->klen[i] = w;
        return 1;
    }
    return 0;
}

/* make the waiting draws of the games pend[0..np), play each on, until none waits */
static int vg_settle(VecGames *v, int *pend, int np) {
    while (np > 0) {
        int next = 0, q = 0;  /* next <= q: the list is rewritten in place */
        while (q < np) {
            int grp[LANES], ng = 0, got[LANES], st;
            while (q < np && ng < LANES) {
                int i = pend[q++];
                if (v->klen[i] <= 624) { grp[ng++] = i; continue; }
                RD *d = &v->d[i];  /* a long key: one at a time */
                int k = mt_seeded_below(v->keys + (size_t)i * KEY_WORDS, v->klen[i], d->legal.n);
                if (rd_engine(d, d->legal.a[k]) < 0 || (st = vg_opponent_until(v, i)) < 0) return -1;
                if (st) pend[next++] = i;
            }
            if (!ng) continue;
            uint32_t *ks[LANES];
            int ls[LANES], ns[LANES];
            for (int l = 0; l < LANES; l++) {
                int i = grp[l < ng ? l : 0];
                ks[l] = v->keys + (size_t)i * KEY_WORDS;
                ls[l] = v->klen[i];
                ns[l] = v->d[i].legal.n;
            }
            mt_seeded_below_lanes(ks, ls, ns, got);
            for (int l = 0; l < ng; l++) {
                int i = grp[l];
                if (rd_engine(&v->d[i], v->d[i].legal.a[got[l]]) < 0 || (st = vg_opponent_until(v, i)) < 0) return -1;
                if (st) pend[next++] = i;
            }
        }
        np = next;
    }
    return 0;
}

/* game i's rows: the observing seat's encoding into obs_row (INFO_SIZE floats), its legal
 * ids into mask_row (NUM_ACTIONS), the seat into *seat_out if given (self-play: the seat
 * to act, or the last one once over) */
static int vg_write_row(VecGames *v, int i, float *obs_row, int8_t *row, int64_t *seat_out) {
    RD *d = &v->d[i];
    int seat = v->seat;
    if (v->mode == 1) {
        if (d->g.phase != PH_OVER) v->to_act[i] = d->g.to_act;
        seat = (int)v->to_act[i];
    }
    if (seat_out) *seat_out = seat;
    rd_encode(d, seat, 1, obs_row);
    memset(row, 0, NUM_ACTIONS);
    if (d->g.phase == PH_OVER || d->g.to_act != seat) return 0;
    int n = rd_legal_ids(d, v->ids);
    if (n < 0) return -1;
    for (int k = 0; k < n; k++) row[v->ids[k]] = 1;
    return 0;
}

/* vg_write_row for row i of (n, ...) arrays obs, mask and to_act (may be NULL) */
static int vg_write(VecGames *v, int i, float *obs, int8_t *mask, int64_t *to_act) {
    return vg_write_row(v, i, obs + (size_t)i * INFO_SIZE, mask + (size_t)i * NUM_ACTIONS, to_act ? to_act + i : NULL);
}

static int get_buf(PyObject *o, Py_buffer *b, Py_ssize_t count, Py_ssize_t itemsize, int writable, const char *what) {
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    if (b->len != count * itemsize || b->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: a C-contiguous buffer of %zd items of %zd bytes is needed", what, count,
                     itemsize);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

#define NBUF 7
typedef struct { Py_buffer b[NBUF]; int got[NBUF]; } Bufs;

static void release(Bufs *bs) {
    for (int k = 0; k < NBUF; k++)
        if (bs->got[k]) PyBuffer_Release(&bs->b[k]);
}

/* the buffers obs, mask, to_act (to_act may be None in mode 0) into slots 0, 1, 2 */
static int get_rows(VecGames *v, Bufs *bs, PyObject *obs, PyObject *mask, PyObject *to_act) {
    memset(bs->got, 0, sizeof(bs->got));
    if (get_buf(obs, &bs->b[0], (Py_ssize_t)v->n * INFO_SIZE, 4, 1, "obs") < 0) return -1;
    bs->got[0] = 1;
    if (get_buf(mask, &bs->b[1], (Py_ssize_t)v->n * NUM_ACTIONS, 1, 1, "mask") < 0) return -1;
    bs->got[1] = 1;
    if (to_act == Py_None && v->mode == 0) return 0;
    if (get_buf(to_act, &bs->b[2], v->n, 8, 1, "to_act") < 0) return -1;
    bs->got[2] = 1;
    return 0;
}

static PyObject *vg_fail(Bufs *bs) {
    release(bs);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_MemoryError, "the native research core ran out of memory");
    return NULL;
}

static PyObject *VG_reset(VecGames *v, PyObject *args) {
    PyObject *o, *m, *t;
    Bufs bs;
    memset(bs.got, 0, sizeof(bs.got));
    if (!PyArg_ParseTuple(args, "OOO", &o, &m, &t) || get_rows(v, &bs, o, m, t) < 0) return vg_fail(&bs);
    int64_t *ta = bs.got[2] ? (int64_t *)bs.b[2].buf : NULL;
    int np = 0, st = 0;
    for (int i = 0; i < v->n && st >= 0; i++) {
        v->autoreset[i] = 0;
        v->to_act[i] = 0;
        vg_deal(v, i);
        if (v->mode == 0 && (st = vg_opponent_until(v, i)) > 0) v->pend[np++] = i;
    }
    if (st < 0 || vg_settle(v, v->pend, np) < 0) return vg_fail(&bs);
    for (int i = 0; i < v->n; i++)
        if (vg_write(v, i, (float *)bs.b[0].buf, (int8_t *)bs.b[1].buf, ta) < 0) return vg_fail(&bs);
    release(&bs);
    Py_RETURN_NONE;
}

static PyObject *VG_observe(VecGames *v, PyObject *args) {
    PyObject *o, *m, *t;
    Bufs bs;
    memset(bs.got, 0, sizeof(bs.got));
    if (!PyArg_ParseTuple(args, "OOO", &o, &m, &t) || get_rows(v, &bs, o, m, t) < 0) return vg_fail(&bs);
    int64_t *ta = bs.got[2] ? (int64_t *)bs.b[2].buf : NULL;
    for (int i = 0; i < v->n; i++)
        if (vg_write(v, i, (float *)bs.b[0].buf, (int8_t *)bs.b[1].buf, ta) < 0) return vg_fail(&bs);
    release(&bs);
    Py_RETURN_NONE;
}

/* one game's step up to the opponent's play (see the file's comment): 0, 1 an illegal id
 * to raise for, -1 memory.  kind[i]: 0 a new deal (auto-reset), 1 an illegal id ended it
 * (rw, term, code set), 2 the agent's id applied (vg_step_end reads the result). */
static int vg_step_start(VecGames *v, int i, int64_t a, double *rw, uint8_t *term, int8_t *code) {
    RD *d = &v->d[i];
    int mover = d->g.to_act;
    v->kind[i] = 0;
    if (v->autoreset[i]) { vg_deal(v, i); return 0; }
    int n = rd_legal_ids(d, v->ids), ok = 0;
    if (n < 0) return -1;
    if (d->g.phase != PH_OVER && (v->mode == 1 || mover == v->seat))
        for (int k = 0; k < n && !ok; k++) ok = v->ids[k] == a;
    if (!ok) {
        if (v->mode == 1 || v->raise_illegal) return 1;
        rw[0] = -v->stake;  /* ConquianEnv's illegal_action="lose" */
        *term = 1;
        *code = 3;
        v->kind[i] = 1;
        return 0;
    }
    v->kind[i] = 2;
    return rd_apply_id(d, (int)a) < 0 ? -1 : 0;
}

static void vg_step_end(VecGames *v, int i, double *rw, uint8_t *term, int8_t *code) {
    RD *d = &v->d[i];
    if (v->kind[i] != 2 || d->g.phase != PH_OVER) return;
    *term = 1;
    *code = d->g.status == ST_WON ? 1 : 2;
    int w = d->g.winner;
    if (v->mode == 0) rw[0] = w < 0 ? 0.0 : w == v->seat ? v->stake : -v->stake;
    else if (w >= 0) { rw[w] = v->stake; rw[1 - w] = -v->stake; }
}

/* one game's whole step (the single environment's step1) */
static int vg_step_one(VecGames *v, int i, int64_t a, double *rw, uint8_t *term, int8_t *code) {
    int got = vg_step_start(v, i, a, rw, term, code);
    if (got) return got;
    if (v->mode == 0 && v->kind[i] != 1 && vg_opponent(v, &v->d[i], i) < 0) return -1;
    vg_step_end(v, i, rw, term, code);
    return 0;
}

static PyObject *VG_step(VecGames *v, PyObject *args) {
    PyObject *act, *o, *m, *rw, *tm, *cd, *t;
    Bufs bs;
    memset(bs.got, 0, sizeof(bs.got));
    if (!PyArg_ParseTuple(args, "OOOOOOO", &act, &o, &m, &rw, &tm, &cd, &t) || get_rows(v, &bs, o, m, t) < 0)
        return vg_fail(&bs);
    int per = v->mode == 0 ? 1 : 2;
    if (get_buf(act, &bs.b[3], v->n, 8, 0, "actions") < 0) return vg_fail(&bs);
    bs.got[3] = 1;
    if (get_buf(rw, &bs.b[4], (Py_ssize_t)v->n * per, 8, 1, "rewards") < 0) return vg_fail(&bs);
    bs.got[4] = 1;
    if (get_buf(tm, &bs.b[5], v->n, 1, 1, "terms") < 0) return vg_fail(&bs);
    bs.got[5] = 1;
    if (get_buf(cd, &bs.b[6], v->n, 1, 1, "codes") < 0) return vg_fail(&bs);
    bs.got[6] = 1;
    const int64_t *acts = (const int64_t *)bs.b[3].buf;
    double *rews = (double *)bs.b[4].buf;
    uint8_t *terms = (uint8_t *)bs.b[5].buf;
    int8_t *codes = (int8_t *)bs.b[6].buf;
    int64_t *ta = bs.got[2] ? (int64_t *)bs.b[2].buf : NULL;
    memset(rews, 0, sizeof(double) * (size_t)(v->n * per));
    memset(terms, 0, (size_t)v->n);
    memset(codes, 0, (size_t)v->n);
    int np = 0;
    for (int i = 0; i < v->n; i++) {
        int got = vg_step_start(v, i, acts[i], rews + per * i, terms + i, codes + i), st = 0;
        if (got == 1) {  /* the games before it have stepped, their opponents too */
            if (vg_settle(v, v->pend, np) < 0) return vg_fail(&bs);
            release(&bs);
            PyErr_Format(PyExc_ValueError, "action id %lld is not legal now (game %d)", (long long)acts[i], i);
            return NULL;
        }
        if (got < 0 || (v->mode == 0 && v->kind[i] != 1 && (st = vg_opponent_until(v, i)) < 0)) return vg_fail(&bs);
        if (st) v->pend[np++] = i;
    }
    if (vg_settle(v, v->pend, np) < 0) return vg_fail(&bs);
    for (int i = 0; i < v->n; i++) {
        vg_step_end(v, i, rews + per * i, terms + i, codes + i);
        if (vg_write(v, i, (float *)bs.b[0].buf, (int8_t *)bs.b[1].buf, ta) < 0) return vg_fail(&bs);
    }
    for (int i = 0; i < v->n; i++) v->autoreset[i] = terms[i];
    release(&bs);
    Py_RETURN_NONE;
}

static PyObject *VG_seed(VecGames *v, PyObject *args) {
    int i;
    PyObject *key_obj;
    if (!PyArg_ParseTuple(args, "iO", &i, &key_obj)) return NULL;
    if (i < 0 || i >= v->n) { PyErr_SetString(PyExc_IndexError, "no such game"); return NULL; }
    PyObject *kf = PySequence_Fast(key_obj, "key must be a sequence of 32-bit ints");
    if (!kf) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(kf);
    uint32_t key[64];
    if (len < 1 || len > 64) { Py_DECREF(kf); PyErr_SetString(PyExc_ValueError, "key must hold 1..64 words"); return NULL; }
    for (Py_ssize_t k = 0; k < len; k++) key[k] = (uint32_t)PyLong_AsUnsignedLongMask(PySequence_Fast_GET_ITEM(kf, k));
    Py_DECREF(kf);
    if (PyErr_Occurred()) return NULL;
    mt_init_by_array(&v->rng[i], key, (int)len);
    Py_RETURN_NONE;
}

static PyObject *VG_load(VecGames *v, PyObject *args) {  /* a research Deal laid on game i (tests) */
    int i, pf_card, last_refuse;
    PyObject *st, *pend, *keys, *acts, *pub;
    const char *hist;
    Py_ssize_t hlen;
    if (!PyArg_ParseTuple(args, "iO!OiOOOis#", &i, &NativeStateType, &st, &pend, &pf_card, &keys, &acts, &pub,
                          &last_refuse, &hist, &hlen))
        return NULL;
    if (i < 0 || i >= v->n || hlen >= HIST_MAX) { PyErr_SetString(PyExc_ValueError, "no such game, or history too long"); return NULL; }
    RD *d = &v->d[i];
    rd_new(d, ((NativeState *)st)->g.deck, v->opener, v->r, v->capped);
    d->g = ((NativeState *)st)->g;
    PyObject *seqs[4] = {pend, keys, acts, pub};
    Py_ssize_t lens[4];
    for (int k = 0; k < 4; k++) {
        lens[k] = PySequence_Length(seqs[k]);
        if (lens[k] < 0) return NULL;
    }
    if (lens[0] > MAXM || lens[1] > MAXM || lens[1] != lens[2] || lens[3] != 12) {
        PyErr_SetString(PyExc_ValueError, "load: bad pending step or history planes");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < 12 + lens[0] + 2 * lens[1]; k++) {
        PyObject *src = k < 12 ? pub : k < 12 + lens[0] ? pend : k < 12 + lens[0] + lens[1] ? keys : acts;
        Py_ssize_t at = k < 12 ? k : k < 12 + lens[0] ? k - 12 : k < 12 + lens[0] + lens[1] ? k - 12 - lens[0]
                                                                                      : k - 12 - lens[0] - lens[1];
        PyObject *x = PySequence_GetItem(src, at);
        if (!x) return NULL;
        long long val = PyLong_AsLongLong(x);
        Py_DECREF(x);
        if (val == -1 && PyErr_Occurred()) return NULL;
        if (k < 12) d->pub[k] = (M)val;
        else if (src == pend) d->pend[at] = (int)val;
        else if (src == keys) d->pf_key[at] = (int)val;
        else d->pf_act[at] = (uint64_t)val;
    }
    d->npend = (int)lens[0];
    d->pf_card = pf_card;
    d->pf_n = (int)lens[1];
    d->last_refuse = last_refuse != 0;
    memcpy(d->hist, hist, (size_t)hlen);
    d->hlen = (int)hlen;
    v->autoreset[i] = 0;
    Py_RETURN_NONE;
}

/* the single environment's calls (research/gym.py with native=True): one game, its rows
 * written into obs (783,) float32 and mask (473,) int8; no auto-reset (the caller resets) */
static int vg_one_rows(VecGames *v, int i, PyObject *o, PyObject *m, Py_buffer *bo, Py_buffer *bm) {
    if (i < 0 || i >= v->n || v->mode != 0) { PyErr_SetString(PyExc_ValueError, "no such game, or self-play"); return -1; }
    if (get_buf(o, bo, INFO_SIZE, 4, 1, "obs") < 0) return -1;
    if (get_buf(m, bm, NUM_ACTIONS, 1, 1, "mask") < 0) { PyBuffer_Release(bo); return -1; }
    return 0;
}

static int vg_write_one(VecGames *v, int i, Py_buffer *bo, Py_buffer *bm) {
    int got = vg_write_row(v, i, (float *)bo->buf, (int8_t *)bm->buf, NULL);
    PyBuffer_Release(bo);
    PyBuffer_Release(bm);
    if (got < 0) PyErr_NoMemory();
    return got;
}

static PyObject *VG_reset1(VecGames *v, PyObject *args) {  /* reset1(i, obs, mask): ConquianEnv.reset */
    int i;
    PyObject *o, *m;
    Py_buffer bo, bm;
    if (!PyArg_ParseTuple(args, "iOO", &i, &o, &m) || vg_one_rows(v, i, o, m, &bo, &bm) < 0) return NULL;
    v->autoreset[i] = 0;
    v->rng0[i] = v->rng[i];
    if (vg_new_deal(v, i) < 0) { PyBuffer_Release(&bo); PyBuffer_Release(&bm); return PyErr_NoMemory(); }
    if (vg_write_one(v, i, &bo, &bm) < 0) return NULL;
    Py_RETURN_NONE;
}

/* step1(i, action, obs, mask) -> (reward, code): ConquianEnv.step; code as step's codes */
static PyObject *VG_step1(VecGames *v, PyObject *args) {
    int i;
    long long a;
    PyObject *o, *m;
    Py_buffer bo, bm;
    if (!PyArg_ParseTuple(args, "iLOO", &i, &a, &o, &m) || vg_one_rows(v, i, o, m, &bo, &bm) < 0) return NULL;
    double rw = 0.0;
    uint8_t term = 0;
    int8_t code = 0;
    v->autoreset[i] = 0;
    int got = vg_step_one(v, i, a, &rw, &term, &code);
    if (got) {
        PyBuffer_Release(&bo);
        PyBuffer_Release(&bm);
        if (got > 0) PyErr_Format(PyExc_ValueError, "action id %lld is not legal now", a);
        else PyErr_NoMemory();
        return NULL;
    }
    if (vg_write_one(v, i, &bo, &bm) < 0) return NULL;
    return Py_BuildValue("(di)", rw, (int)code);
}

/* the AEC environment's calls (research/pettingzoo.py with native=True), mode 1, one game */
static int vg_game(VecGames *v, int i) {
    if (i >= 0 && i < v->n && v->mode == 1) return 0;
    PyErr_SetString(PyExc_ValueError, "no such game, or not self-play");
    return -1;
}

static PyObject *VG_new1(VecGames *v, PyObject *args) {  /* new1(i) -> seat to act: a new deal */
    int i;
    if (!PyArg_ParseTuple(args, "i", &i) || vg_game(v, i) < 0) return NULL;
    v->autoreset[i] = 0;
    v->rng0[i] = v->rng[i];
    if (vg_new_deal(v, i) < 0) return PyErr_NoMemory();
    return PyLong_FromLong(v->d[i].g.to_act);
}

/* observe1(i, seat, obs, mask): that seat's rows (its legal ids if it is to act, else 0) */
static PyObject *VG_observe1(VecGames *v, PyObject *args) {
    int i, seat;
    PyObject *o, *m;
    Py_buffer bo, bm;
    if (!PyArg_ParseTuple(args, "iiOO", &i, &seat, &o, &m) || vg_game(v, i) < 0) return NULL;
    if (seat < 0 || seat > 1) { PyErr_SetString(PyExc_ValueError, "seat must be 0 or 1"); return NULL; }
    if (get_buf(o, &bo, INFO_SIZE, 4, 1, "obs") < 0) return NULL;
    if (get_buf(m, &bm, NUM_ACTIONS, 1, 1, "mask") < 0) { PyBuffer_Release(&bo); return NULL; }
    RD *d = &v->d[i];
    rd_encode(d, seat, 1, (float *)bo.buf);
    int8_t *row = (int8_t *)bm.buf;
    memset(row, 0, NUM_ACTIONS);
    int n = d->g.phase != PH_OVER && d->g.to_act == seat ? rd_legal_ids(d, v->ids) : 0;
    for (int k = 0; k < n; k++) row[v->ids[k]] = 1;
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bm);
    if (n < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* play1(i, action) -> (code, to_act, winner): the seat to act plays a dense id; code 0 on,
 * 1 won, 2 tablas, 3 the id is not legal now (nothing changed) */
static PyObject *VG_play1(VecGames *v, PyObject *args) {
    int i;
    long long a;
    if (!PyArg_ParseTuple(args, "iL", &i, &a) || vg_game(v, i) < 0) return NULL;
    RD *d = &v->d[i];
    int n = d->g.phase == PH_OVER ? 0 : rd_legal_ids(d, v->ids), ok = 0;
    if (n < 0) return PyErr_NoMemory();
    for (int k = 0; k < n && !ok; k++) ok = v->ids[k] == a;
    if (!ok) return Py_BuildValue("(iii)", 3, d->g.to_act, d->g.winner);
    if (rd_apply_id(d, (int)a) < 0) return PyErr_NoMemory();
    int code = d->g.phase != PH_OVER ? 0 : d->g.status == ST_WON ? 1 : 2;
    return Py_BuildValue("(iii)", code, d->g.to_act, d->g.winner);
}

/* rng_state(i, at_reset) -> 625 ints: game i's generator as random.Random.getstate()[1]
 * holds it (624 words, then the position), now or (at_reset true) as reset1 / new1 last found it */
static PyObject *VG_rng_state(VecGames *v, PyObject *args) {
    int i, at_reset;
    if (!PyArg_ParseTuple(args, "ip", &i, &at_reset)) return NULL;
    if (i < 0 || i >= v->n) { PyErr_SetString(PyExc_ValueError, "no such game"); return NULL; }
    const MT *m = at_reset ? &v->rng0[i] : &v->rng[i];
    PyObject *t = PyTuple_New(625);
    if (!t) return NULL;
    for (int k = 0; k < 625; k++) {
        PyObject *x = PyLong_FromUnsignedLong(k < 624 ? m->mt[k] : (unsigned long)m->i);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}

static PyMethodDef VG_methods[] = {
    {"rng_state", (PyCFunction)VG_rng_state, METH_VARARGS,
     "rng_state(i, at_reset) -> 625 ints: game i's generator (random.Random.getstate()[1]), now or at its last reset1 / new1."},
    {"new1", (PyCFunction)VG_new1, METH_VARARGS, "new1(i) -> to_act: a new deal in game i (self-play, the AEC environment)."},
    {"observe1", (PyCFunction)VG_observe1, METH_VARARGS, "observe1(i, seat, obs, mask): that seat's rows of game i."},
    {"play1", (PyCFunction)VG_play1, METH_VARARGS,
     "play1(i, action) -> (code, to_act, winner): the seat to act in game i plays a dense id."},
    {"reset1", (PyCFunction)VG_reset1, METH_VARARGS, "reset1(i, obs, mask): deal game i anew (the single environment)."},
    {"step1", (PyCFunction)VG_step1, METH_VARARGS,
     "step1(i, action, obs, mask) -> (reward, code): one step of game i (the single environment)."},
    {"seed", (PyCFunction)VG_seed, METH_VARARGS, "seed(i, key): game i's generator is random.Random(seed) (key: its words)."},
    {"reset", (PyCFunction)VG_reset, METH_VARARGS, "reset(obs, mask, to_act): deal every game anew and write its rows."},
    {"step", (PyCFunction)VG_step, METH_VARARGS,
     "step(actions, obs, mask, rewards, terms, codes, to_act): one id per game, next-step auto-reset."},
    {"observe", (PyCFunction)VG_observe, METH_VARARGS, "observe(obs, mask, to_act): write every game's rows now."},
    {"load", (PyCFunction)VG_load, METH_VARARGS,
     "load(i, state, pending, pf_card, pf_keys, pf_acts, pub, last_refuse, hist): lay a research deal on game i."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject VecGamesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gameweave.engine._native.VecGames",
    .tp_basicsize = sizeof(VecGames),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Many research deals stepped in one call (see _native_vec.h).",
    .tp_methods = VG_methods,
    .tp_init = (initproc)VG_init,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)VG_dealloc,
};

#endif
