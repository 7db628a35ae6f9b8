/* The native core of the Conquian engine (issue 21): the rules of every profile (RULES
 * R8-R19, §V) in C, for random playouts and legal-action generation.
 *
 * A port of the pure-Python reference (state.py, flow.py, partition.py), which stays the
 * definition: the same action ints (actions.py's codec: payload << 3 | kind), the same
 * legal-action lists in the same order, the same transitions.  tests/test_native.py
 * proves it step by step on random deals of every profile and with perft.
 *
 * Python API (wrapped by gameweave.engine.native):
 *   NativeState(deck, opener, rearranging, force_back, cap)  one deal, R8
 *     .legal_actions() -> list[int]   .apply(action) (checked: ValueError if not legal)
 *     .snapshot() -> tuple            .clone()   .is_over   .to_act   .winner
 *     .rollout(max_steps) -> (actions, actors)   the searches' default playout policy
 *   from_fields(...) -> NativeState   a state in the middle of a deal (native.from_state)
 *   VecGames(...)                     many research deals stepped in one call (_native_vec.h:
 *     dense ids with the R18 sub-steps, encodings, the built-in opponents, auto-reset)
 *   playouts(decks, key, rearranging, force_back, cap) -> int
 *     every deck played once, deck i opened by seat i & 1, uniform legal actions drawn
 *     with CPython's own Mersenne Twister seeded as random.Random(seed) seeds it (key:
 *     the 32-bit words of abs(seed)) and random.choice's rule, so the same seed plays
 *     the same deals as gameweave.bench.playout_rep; returns the transitions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native_core.h"

/* ------------------------------------------------------------------ CPython's MT19937 */
typedef struct { uint32_t mt[624]; int i; } MT;

static void mt_init(MT *m, uint32_t s) {
    m->mt[0] = s;
    for (int i = 1; i < 624; i++) m->mt[i] = 1812433253U * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) + (uint32_t)i;
    m->i = 624;
}

static void mt_init_by_array(MT *m, const uint32_t *key, int len) {  /* _randommodule.c */
    mt_init(m, 19650218U);
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++; j++;
        if (i >= 624) { m->mt[0] = m->mt[623]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) { m->mt[0] = m->mt[623]; i = 1; }
    }
    m->mt[0] = 0x80000000U;
}

static uint32_t mt_next(MT *m) {
    if (m->i >= 624) {
        for (int k = 0; k < 624; k++) {
            uint32_t y = (m->mt[k] & 0x80000000U) | (m->mt[(k + 1) % 624] & 0x7fffffffU);
            m->mt[k] = m->mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        m->i = 0;
    }
    uint32_t y = m->mt[m->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

static int mt_below(MT *m, int n) {  /* random.Random._randbelow_with_getrandbits(n), n < 2**31 */
    int k = 0;
    while ((n >> k) != 0) k++;
    uint32_t r;
    do { r = mt_next(m) >> (32 - k); } while ((int)r >= n);
    return (int)r;
}

#include "_native_research.h"
#include "_native_rbot.h"

/* ------------------------------------------------------------------ the searches' playouts */
/* bots/playout.py's rollout_action, the searches' default policy: meld when possible (the
 * option whose result holds most cards, the first of them), else turn / refuse; throw the
 * hand card of lowest score 3*pair + 2*adjacent + 1*gap + 6*extends-opponent, ties to the
 * higher card.  Deterministic. */
static M meld_cards_of(uint64_t a) {
    if ((a & 7) == K_MELD) return a >> 3;
    M all = 0;
    for (uint64_t p = a >> 3; p; p >>= 8) all |= MELD_OF[(p & 0xFF) - 1];
    return all;
}

static int rollout_meld(const GS *g, int seat, int card, Acts *tmp, uint64_t *out) {  /* 1 found, 0 none, -1 memory */
    tmp->n = 0;
    if (meld_options(g, seat, card, tmp) < 0) return -1;
    if (!tmp->n) return 0;
    uint64_t best = tmp->a[0];
    int bn = popc(meld_cards_of(best));
    for (int i = 1; i < tmp->n; i++) {
        int n = popc(meld_cards_of(tmp->a[i]));
        if (n > bn) { best = tmp->a[i]; bn = n; }
    }
    *out = best;
    return 1;
}

static int rollout_choose(const GS *g, Acts *tmp, uint64_t *a) {
    int seat = g->to_act, got;
    switch (g->phase) {
    case PH_THROW: {
        M hand = g->hands[seat], oext = g->ext[1 - seat], h = hand;
        int best = -1, bs = 99;
        while (h) {
            M low = h & -h;
            h ^= low;
            int c = low_card(low), sc = 0;
            M adj = (c >= 4 ? BIT(c - 4) : 0) | (c + 4 < 40 ? BIT(c + 4) : 0);
            M gap = (c >= 8 ? BIT(c - 8) : 0) | (c + 8 < 40 ? BIT(c + 8) : 0);
            if (hand & RANK_OTHERS[c]) sc += 3;
            if (hand & adj) sc += 2;
            if (hand & gap) sc += 1;
            if (oext & low) sc += 6;
            if (sc <= bs) { bs = sc; best = c; }
        }
        *a = (uint64_t)best << 3 | K_THROW;
        return 0;
    }
    case PH_FORCED:
        got = rollout_meld(g, seat, g->forced, tmp, a);
        return got < 0 ? -1 : (got ? 0 : -2);
    case PH_TAKE:
    case PH_TURNED:
        got = rollout_meld(g, seat, g->card, tmp, a);
        if (got < 0) return -1;
        if (!got) *a = g->phase == PH_TAKE ? K_TURN : K_REFUSE;
        return 0;
    default:
        *a = K_TURN;
        return 0;
    }
}

/* ------------------------------------------------------------------ Python objects */
typedef struct { PyObject_HEAD GS g; } NativeState;
static PyTypeObject NativeStateType;

static int parse_deck(PyObject *seq, uint8_t *deck) {
    PyObject *fast = PySequence_Fast(seq, "deck must be a sequence of 40 card ints");
    if (!fast) return -1;
    M seen = 0;
    int ok = PySequence_Fast_GET_SIZE(fast) == 40;
    for (Py_ssize_t i = 0; ok && i < 40; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c < 0 || c >= 40 || (seen >> c & 1)) ok = 0;
        else { seen |= BIT(c); deck[i] = (uint8_t)c; }
    }
    Py_DECREF(fast);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "deck must hold each card 0..39 once");
        return -1;
    }
    return 0;
}

static int parse_rules(int rearranging, int force_back, int cap, Rules *r) {
    if (cap < 3 || cap > 10) { PyErr_SetString(PyExc_ValueError, "cap must be 3..10"); return -1; }
    r->rearranging = rearranging != 0;
    r->force_back = force_back != 0;
    r->cap = cap;
    return 0;
}

static int NS_init(NativeState *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"deck", "opener", "rearranging", "force_back", "cap", NULL};
    PyObject *deck_obj;
    int opener, rearranging, force_back, cap;
    uint8_t deck[40];
    Rules r;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oippi", names, &deck_obj, &opener, &rearranging, &force_back, &cap))
        return -1;
    if (opener != 0 && opener != 1) { PyErr_SetString(PyExc_ValueError, "opener must be 0 or 1"); return -1; }
    if (parse_deck(deck_obj, deck) < 0 || parse_rules(rearranging, force_back, cap, &r) < 0) return -1;
    deal_new(&self->g, deck, opener, r);
    return 0;
}

static PyObject *acts_to_list(Acts *x) {
    PyObject *out = PyList_New(x->n);
    if (!out) return NULL;
    for (int i = 0; i < x->n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(x->a[i]);
        if (!v) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *NS_legal_actions(NativeState *self, PyObject *unused) {
    Acts x = {0, 0, 0};
    if (legal(&self->g, &x) < 0) { free(x.a); return PyErr_NoMemory(); }
    PyObject *out = acts_to_list(&x);
    free(x.a);
    return out;
}

static PyObject *NS_apply(NativeState *self, PyObject *arg) {
    unsigned long long a = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    Acts x = {0, 0, 0};
    if (legal(&self->g, &x) < 0) { free(x.a); return PyErr_NoMemory(); }
    int found = 0;
    for (int i = 0; i < x.n && !found; i++) found = x.a[i] == a;
    free(x.a);
    if (!found) { PyErr_Format(PyExc_ValueError, "action %llu is not legal now", a); return NULL; }
    apply(&self->g, a);
    Py_RETURN_NONE;
}

static PyObject *melds_tuple(const GS *g, int s) {
    PyObject *t = PyTuple_New(g->nmelds[s]);
    if (!t) return NULL;
    for (int i = 0; i < g->nmelds[s]; i++) PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLongLong(g->melds[s][i]));
    return t;
}

static PyObject *NS_snapshot(NativeState *self, PyObject *unused) {
    const GS *g = &self->g;
    static const char *status[] = {"playing", "won", "tablas"};
    return Py_BuildValue("(KK)(NN)(KK)(ii)(KK)iiiiiiiKsi",
                         g->hands[0], g->hands[1], melds_tuple(g, 0), melds_tuple(g, 1), g->table[0], g->table[1],
                         g->count[0], g->count[1], g->ext[0], g->ext[1], g->stock_pos, g->to_act, g->phase, g->card,
                         g->live_from, g->refused, g->forced, g->dead, status[g->status], g->winner);
}

static PyObject *NS_clone(NativeState *self, PyObject *unused) {
    NativeState *c = PyObject_New(NativeState, &NativeStateType);
    if (!c) return NULL;
    c->g = self->g;
    return (PyObject *)c;
}

static PyObject *NS_rollout(NativeState *self, PyObject *arg) {
    long max_steps = PyLong_AsLong(arg);
    if (max_steps == -1 && PyErr_Occurred()) return NULL;
    Acts tmp = {0, 0, 0}, played = {0, 0, 0}, actors = {0, 0, 0};
    long n = 0;
    int err = 0;
    while (self->g.phase != PH_OVER && n < max_steps) {
        uint64_t a;
        if ((err = rollout_choose(&self->g, &tmp, &a)) < 0) break;
        if (acts_push(&played, a) < 0 || acts_push(&actors, (uint64_t)self->g.to_act) < 0) { err = -1; break; }
        apply(&self->g, a);
        n++;
    }
    free(tmp.a);
    PyObject *out = NULL;
    if (err == -1) PyErr_NoMemory();
    else if (err == -2) PyErr_SetString(PyExc_RuntimeError, "a forced card with no meld");
    else {
        PyObject *pa = acts_to_list(&played), *ps = pa ? acts_to_list(&actors) : NULL;
        out = ps ? PyTuple_Pack(2, pa, ps) : NULL;
        Py_XDECREF(pa);
        Py_XDECREF(ps);
    }
    free(played.a);
    free(actors.a);
    return out;
}

static PyObject *NS_is_over(NativeState *self, void *x) { return PyBool_FromLong(self->g.phase == PH_OVER); }
static PyObject *NS_to_act(NativeState *self, void *x) { return PyLong_FromLong(self->g.to_act); }
static PyObject *NS_winner(NativeState *self, void *x) { return PyLong_FromLong(self->g.winner); }

static PyMethodDef NS_methods[] = {
    {"legal_actions", (PyCFunction)NS_legal_actions, METH_NOARGS, "Every legal action int now, in the engine's order."},
    {"apply", (PyCFunction)NS_apply, METH_O, "Apply a legal action int (ValueError if it is not legal now)."},
    {"snapshot", (PyCFunction)NS_snapshot, METH_NOARGS, "Every field of the state, as a tuple (for comparisons)."},
    {"clone", (PyCFunction)NS_clone, METH_NOARGS, "An independent copy."},
    {"rollout", (PyCFunction)NS_rollout, METH_O,
     "rollout(max_steps) -> (actions, actors): play on with the searches' default playout policy "
     "(bots/playout.py rollout_action) for both seats until over or max_steps actions."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef NS_getset[] = {
    {"is_over", (getter)NS_is_over, NULL, "True once the deal is won or tablas.", NULL},
    {"to_act", (getter)NS_to_act, NULL, "Seat index to act, -1 once over.", NULL},
    {"winner", (getter)NS_winner, NULL, "Seat index of the winner, or -1.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject NativeStateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gameweave.engine._native.NativeState",
    .tp_basicsize = sizeof(NativeState),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One deal of Conquian in the native core (see the module docstring).",
    .tp_methods = NS_methods,
    .tp_getset = NS_getset,
    .tp_init = (initproc)NS_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *py_playouts(PyObject *mod, PyObject *args) {
    PyObject *decks_obj, *key_obj;
    int rearranging, force_back, cap;
    Rules r;
    if (!PyArg_ParseTuple(args, "OOppi", &decks_obj, &key_obj, &rearranging, &force_back, &cap)) return NULL;
    if (parse_rules(rearranging, force_back, cap, &r) < 0) return NULL;
    /* key: the 32-bit words random.Random(seed) seeds with (abs(seed), low word first) */
    PyObject *kf = PySequence_Fast(key_obj, "key must be a sequence of 32-bit ints");
    if (!kf) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(kf);
    uint32_t key[64];
    if (len < 1 || len > 64) { Py_DECREF(kf); PyErr_SetString(PyExc_ValueError, "key must hold 1..64 words"); return NULL; }
    for (Py_ssize_t i = 0; i < len; i++) key[i] = (uint32_t)PyLong_AsUnsignedLongMask(PySequence_Fast_GET_ITEM(kf, i));
    Py_DECREF(kf);
    if (PyErr_Occurred()) return NULL;
    MT mt;
    mt_init_by_array(&mt, key, (int)len);
    PyObject *fast = PySequence_Fast(decks_obj, "decks must be a sequence of decks");
    if (!fast) return NULL;
    Py_ssize_t nd = PySequence_Fast_GET_SIZE(fast);
    uint8_t *decks = (uint8_t *)malloc((size_t)(nd ? nd : 1) * 40);
    if (!decks) { Py_DECREF(fast); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < nd; i++)
        if (parse_deck(PySequence_Fast_GET_ITEM(fast, i), decks + 40 * i) < 0) { Py_DECREF(fast); free(decks); return NULL; }
    Py_DECREF(fast);
    long long transitions = 0;
    int err = 0;
    Acts x = {0, 0, 0};
    Py_BEGIN_ALLOW_THREADS
    GS g;
    for (Py_ssize_t i = 0; i < nd && !err; i++) {
        deal_new(&g, decks + 40 * i, (int)(i & 1), r);
        while (g.phase != PH_OVER) {
            if (legal(&g, &x) < 0) { err = 1; break; }
            apply(&g, x.a[mt_below(&mt, x.n)]);
            transitions++;
        }
    }
    Py_END_ALLOW_THREADS
    free(x.a);
    free(decks);
    if (err) return PyErr_NoMemory();
    return PyLong_FromLongLong(transitions);
}

static PyObject *py_from_fields(PyObject *mod, PyObject *args) {
    PyObject *deck_obj, *melds_obj[2];
    int opener, rearranging, force_back, cap;
    unsigned long long h0, h1, dead;
    int stock_pos, to_act, phase, card, live_from, refused, forced, status, winner;
    Rules r;
    if (!PyArg_ParseTuple(args, "OippiKKOOiiiiiiiKii", &deck_obj, &opener, &rearranging, &force_back, &cap, &h0, &h1,
                          &melds_obj[0], &melds_obj[1], &stock_pos, &to_act, &phase, &card, &live_from, &refused,
                          &forced, &dead, &status, &winner))
        return NULL;
    NativeState *self = PyObject_New(NativeState, &NativeStateType);
    if (!self) return NULL;
    GS *g = &self->g;
    uint8_t deck[40];
    if (opener < 0 || opener > 1 || parse_deck(deck_obj, deck) < 0 || parse_rules(rearranging, force_back, cap, &r) < 0 ||
        stock_pos < 20 || stock_pos > 40 || phase < PH_TURN || phase > PH_CLOSED || status < 0 || status > 2) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fields out of range");
        Py_DECREF(self);
        return NULL;
    }
    deal_new(g, deck, opener, r);
    g->hands[0] = h0;
    g->hands[1] = h1;
    for (int s = 0; s < 2; s++) {
        PyObject *fast = PySequence_Fast(melds_obj[s], "melds must be sequences of masks");
        if (!fast) { Py_DECREF(self); return NULL; }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        M melds[MAXM];
        for (Py_ssize_t i = 0; i < n && i < MAXM; i++) melds[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        Py_DECREF(fast);
        if (n > MAXM || PyErr_Occurred()) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many melds");
            Py_DECREF(self);
            return NULL;
        }
        set_melds(g, s, melds, (int)n);
    }
    /* a state the rules can reach (and the fixed buffers hold): hands of at most ten,
     * tables of at most eleven in at most four melds, every card in one place */
    M seen = 0;
    int bad = 0;
    const M parts[6] = {g->hands[0], g->hands[1], g->table[0], g->table[1], dead, 0};
    for (int i = 0; i < 5; i++) {
        if (parts[i] & ~FULL || parts[i] & seen) bad = 1;
        seen |= parts[i];
    }
    for (int s = 0; s < 2; s++) {
        M in_melds = 0;
        for (int i = 0; i < g->nmelds[s]; i++) {
            if (g->melds[s][i] & in_melds || popc(g->melds[s][i]) < 3) bad = 1;
            in_melds |= g->melds[s][i];
        }
        if (popc(g->hands[s]) > 10 || g->count[s] > 11 || g->nmelds[s] > 4) bad = 1;
    }
    if (bad || to_act < -1 || to_act > 1 || card < -1 || card > 39 || forced < -1 || forced > 39) {
        PyErr_SetString(PyExc_ValueError, "not a state of a deal: cards out of place or out of range");
        Py_DECREF(self);
        return NULL;
    }
    g->stock_pos = stock_pos;
    g->to_act = to_act;
    g->phase = phase;
    g->card = card;
    g->live_from = live_from;
    g->refused = refused != 0;
    g->forced = forced;
    g->dead = dead;
    g->status = status;
    g->winner = winner;
    return (PyObject *)self;
}

#include "_native_vec.h"

static PyMethodDef module_methods[] = {
    {"from_fields", py_from_fields, METH_VARARGS,
     "from_fields(deck, opener, rearranging, force_back, cap, hand0, hand1, melds0, melds1, stock_pos, to_act, "
     "phase, card, live_from, refused, forced, dead, status, winner) -> NativeState (a state in the middle of a deal)."},
    {"playouts", py_playouts, METH_VARARGS,
     "playouts(decks, key, rearranging, force_back, cap) -> transitions: every deck played once "
     "(deck i opened by seat i & 1) with uniform legal actions drawn as random.Random(seed).choice would."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "gameweave.engine._native",
    "The native core of the Conquian engine (see gameweave.engine.native).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    init_tables();
    if (PyType_Ready(&NativeStateType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    if (PyType_Ready(&VecGamesType) < 0) return NULL;
    Py_INCREF(&NativeStateType);
    if (PyModule_AddObject(m, "NativeState", (PyObject *)&NativeStateType) < 0) {
        Py_DECREF(&NativeStateType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&VecGamesType);
    if (PyModule_AddObject(m, "VecGames", (PyObject *)&VecGamesType) < 0) {
        Py_DECREF(&VecGamesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
