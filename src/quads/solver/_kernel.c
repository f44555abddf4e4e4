/*
 * The compiled search kernel of the Quads solver.
 *
 * One node of the search is "the side to move holds piece HAND and must place
 * it".  The caller guarantees that HAND cannot win at once (the search hands
 * over only safe pieces), so a node never ends the game by itself.
 *
 * The board is kept as bitboards plus, for every shape, the trait values that
 * all of its pieces share ("common": low nibble = bits all 1, high nibble =
 * bits all 0, counted traits only).  A shape holding three pieces makes every
 * piece that shares one of its common values dangerous on its empty cell; the
 * per-cell union of those sets is kept in dcell[], so the danger of a board is
 * the OR of dcell[] and the safe pieces are the supply minus the danger.
 *
 * Scores count placements from the root of a search call (ply 0 = the node
 * the caller passes): a win whose last placement is number P scores WIN - P, a
 * loss scores -(WIN - P), a draw 0.  The transposition table stores scores
 * relative to the node they belong to.
 *
 * The same algorithm, step for step, is written in Python in _pure.py; both
 * must visit the same nodes in the same order and agree on every value.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIN 100
#define MAX_SHAPES 19
#define MAX_SYMS 32
#define FLUSH_EVERY 4096
#define BUCKET 4

enum { FLAG_NONE = 0, FLAG_LOWER = 1, FLAG_UPPER = 2, FLAG_EXACT = 3 };

/* -- small bit helpers -------------------------------------------------- */

static uint8_t POP8[256];


static inline int pop16(unsigned x) { return POP8[x & 0xFF] + POP8[(x >> 8) & 0xFF]; }
static inline int ctz16(unsigned x) { return __builtin_ctz(x); }

/* -- rules -------------------------------------------------------------- */

typedef struct {
    int nshapes;
    uint16_t shape[MAX_SHAPES];
    int ncs[16];
    uint8_t cs[16][8];      /* the shapes through each cell */
    uint32_t csm[16];       /* the same, as a mask over shapes */
    uint8_t pm[16];         /* piece -> the common bits it keeps */
    uint16_t dt[256];       /* common bits of a 3-piece shape -> dangerous pieces */
    uint16_t t2[256][16];   /* t2[common][q]: dangerous pieces once piece q joins the shape */
    uint8_t init_common;
    int traits;
    int dedupe;             /* some trait is not counted: pieces fall into classes */
    int nsyms;
    uint16_t perm_lo[MAX_SYMS][256];
    uint16_t perm_hi[MAX_SYMS][256];
    int tt_min;             /* probe the table at nodes with at least this many empty cells */
    int canon_min;          /* use the full canonical key from this many empty cells */
    int order_min;          /* order moves by the opponent's choice from this many empty cells */
} Rules;

/* -- board -------------------------------------------------------------- */

typedef struct {
    uint16_t dcell[16];
    uint8_t common[20];
    uint32_t s2, s3, s4;    /* shapes with exactly 2, 3 and 4 empty cells */
    uint16_t occ;
    uint16_t bits[4];
} Board;

static void board_empty(const Rules *R, Board *b)
{
    memset(b, 0, sizeof *b);
    for (int s = 0; s < R->nshapes; s++) b->common[s] = R->init_common;
    b->s4 = (uint32_t)((1u << R->nshapes) - 1);
}

static inline void place(const Rules *R, const Board *src, Board *dst, int c, int p)
{
    *dst = *src;
    unsigned bit = 1u << c;
    dst->occ = (uint16_t)(src->occ | bit);
    if (p & 1) dst->bits[0] |= (uint16_t)bit;
    if (p & 2) dst->bits[1] |= (uint16_t)bit;
    if (p & 4) dst->bits[2] |= (uint16_t)bit;
    if (p & 8) dst->bits[3] |= (uint16_t)bit;
    dst->dcell[c] = 0;
    uint8_t pm = R->pm[p];
    for (int i = 0; i < R->ncs[c]; i++) dst->common[R->cs[c][i]] &= pm;
    uint32_t m = R->csm[c];
    uint32_t to1 = m & src->s2, to2 = m & src->s3, to3 = m & src->s4;
    dst->s2 = (src->s2 & ~m) | to2;
    dst->s3 = (src->s3 & ~m) | to3;
    dst->s4 = src->s4 & ~m;
    unsigned free_cells = ~(unsigned)dst->occ;
    while (to1) {
        int s = __builtin_ctz(to1);
        to1 &= to1 - 1;
        dst->dcell[ctz16(R->shape[s] & free_cells)] |= R->dt[dst->common[s]];
    }
}


/* -- keys --------------------------------------------------------------- */

static inline unsigned perm16(const Rules *R, int s, unsigned m)
{
    return (unsigned)R->perm_lo[s][m & 0xFF] | R->perm_hi[s][(m >> 8) & 0xFF];
}

static inline uint64_t pack_sorted(unsigned a, unsigned b, unsigned c, unsigned d)
{
    unsigned t;
#define SWAP_IF(x, y) if (x > y) { t = x; x = y; y = t; }
    SWAP_IF(a, b) SWAP_IF(c, d) SWAP_IF(a, c) SWAP_IF(b, d) SWAP_IF(b, c)
#undef SWAP_IF
    return (uint64_t)a << 48 | (uint64_t)b << 32 | (uint64_t)c << 16 | d;
}

/* The key of (board, hand): occupancy and the four trait columns after
 * XOR with the hand (so the hand reads as piece 0) and with uncounted
 * traits cleared, columns sorted; with canon, the least such key over the
 * board symmetries. */
static void make_key(const Rules *R, const Board *b, int hand, int canon,
                     unsigned *kocc, uint64_t *kcols)
{
    unsigned occ = b->occ;
    unsigned col[4];
    for (int t = 0; t < 4; t++) {
        if (!(R->traits >> t & 1)) col[t] = 0;
        else col[t] = b->bits[t] ^ ((hand >> t & 1) ? occ : 0);
    }
    if (!canon || R->nsyms == 1) {
        *kocc = occ;
        *kcols = pack_sorted(col[0], col[1], col[2], col[3]);
        return;
    }
    unsigned best_occ = 0x10000;
    uint64_t best_cols = 0;
    for (int s = 0; s < R->nsyms; s++) {
        unsigned o = perm16(R, s, occ);
        if (o > best_occ) continue;
        uint64_t k = pack_sorted(perm16(R, s, col[0]), perm16(R, s, col[1]),
                                 perm16(R, s, col[2]), perm16(R, s, col[3]));
        if (o < best_occ || k < best_cols) { best_occ = o; best_cols = k; }
    }
    *kocc = best_occ;
    *kcols = best_cols;
}

static inline uint64_t key_hash(unsigned occ, uint64_t cols)
{
    uint64_t h = cols * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)occ * 0xC2B2AE3D27D4EB4FULL);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

/* -- transposition table ------------------------------------------------ */

/* An entry is two words: data = occ | (score+128) << 16 | flag << 24 |
 * empties << 26, and check = cols ^ data.  A reader accepts an entry only
 * when both words agree with the key, so a torn write (two threads storing
 * at once) reads as a miss. */

typedef struct { uint64_t w[2 * BUCKET]; } Bucket;

typedef struct {
    Bucket *buckets;
    uint64_t mask;          /* number of buckets - 1 */
    void *raw;
} Table;

static inline uint64_t load64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void store64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

static inline int tt_probe(const Bucket *bk, unsigned occ, uint64_t cols, int *flag, int *score)
{
    for (int i = 0; i < BUCKET; i++) {
        uint64_t data = load64(&bk->w[2 * i + 1]);
        uint64_t check = load64(&bk->w[2 * i]);
        if ((data & 0xFFFF) == occ && ((data >> 24) & 3) && (check ^ data) == cols) {
            *flag = (int)((data >> 24) & 3);
            *score = (int)((data >> 16) & 0xFF) - 128;
            return 1;
        }
    }
    return 0;
}

static inline void tt_store(Bucket *bk, unsigned occ, uint64_t cols, int flag, int score, int empties)
{
    int victim = -1, victim_empties = 99;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t data = load64(&bk->w[2 * i + 1]);
        uint64_t check = load64(&bk->w[2 * i]);
        if (!((data >> 24) & 3)) {
            if (victim_empties > -1) { victim = i; victim_empties = -1; }
            continue;
        }
        if ((data & 0xFFFF) == occ && (check ^ data) == cols) { victim = i; break; }
        int e = (int)((data >> 26) & 31);
        if (e < victim_empties) { victim = i; victim_empties = e; }
    }
    uint64_t data = (uint64_t)occ | (uint64_t)(score + 128) << 16 | (uint64_t)flag << 24
                    | (uint64_t)empties << 26;
    store64(&bk->w[2 * victim + 1], data);
    store64(&bk->w[2 * victim], cols ^ data);
}

/* -- budget ------------------------------------------------------------- */

typedef struct ControlObject {
    PyObject_HEAD
    int64_t nodes;          /* flushed node count, all threads */
    int64_t node_limit;     /* 0: none */
    double deadline;        /* monotonic seconds; 0: none */
    int stop;               /* set by stop() or when a limit is hit */
    struct ControlObject *parent;  /* counts and limits passed on to it, or NULL */
} ControlObject;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    const Rules *R;
    Table *T;
    ControlObject *ctl;
    int64_t pending;
    int aborted;
} Ctx;

/* Add the pending nodes to the control and its ancestors; 1 if the search must stop. */
static int control_add(ControlObject *c, int64_t pending)
{
    int stop = 0;
    double t = -1.0;
    for (; c; c = c->parent) {
        int64_t total = __atomic_add_fetch(&c->nodes, pending, __ATOMIC_RELAXED);
        if (__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
            stop = 1;
            continue;
        }
        if (c->deadline > 0 && t < 0) t = now();
        if ((c->node_limit > 0 && total >= c->node_limit) || (c->deadline > 0 && t >= c->deadline)) {
            __atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
            stop = 1;
        }
    }
    return stop;
}

static int flush(Ctx *x)
{
    int stop = control_add(x->ctl, x->pending);
    x->pending = 0;
    return stop;
}

/* -- move generation ---------------------------------------------------- */

/* The danger of the board with each cell's own dcell[] left out. */
static inline void danger_except(const Board *B, unsigned *dex)
{
    unsigned pre[17], suf = 0;
    pre[0] = 0;
    for (int i = 0; i < 16; i++) pre[i + 1] = pre[i] | B->dcell[i];
    for (int i = 15; i >= 0; i--) {
        dex[i] = pre[i] | suf;
        suf |= B->dcell[i];
    }
}

/* The danger after piece p goes to empty cell d, given dex_d = danger_except()[d]. */

/* The danger after piece p goes to empty cell d, given dex_d = danger_except()[d]. */
static inline unsigned danger_after(const Rules *R, const Board *B, unsigned dex_d, int d, int p)
{
    unsigned dg = dex_d;
    uint8_t pm = R->pm[p];
    uint32_t m = R->csm[d] & B->s2;
    while (m) {
        int s = __builtin_ctz(m);
        m &= m - 1;
        dg |= R->dt[B->common[s] & pm];
    }
    return dg;
}

typedef struct {
    Board b;
    unsigned safe;
    int count;
    int c;
} Child;

#define MOVE_CELL(m) ((int)((m) >> 4 & 15))
#define MOVE_PIECE(m) ((int)((m) & 15))
#define MOVE_KEY(m) ((int)((m) >> 16))

/* Score every move (c, q) of the side to move: place HAND on c, hand over a
 * safe q (one piece per class when traits are left out).  Its key is the
 * number of (placement, safe hand-over) pairs the opponent would then have
 * (0 when q is the last piece); mob[] gets the number of the opponent's
 * placements that keep a safe piece.  Moves are sorted by key, ties in
 * generation order (cells, then pieces, ascending); boards[c] receives the
 * board after each placement.  Returns the number of moves; with stop_on_win
 * it returns -1 as soon as a move leaves the opponent no placement that keeps
 * a safe piece (a win two placements later). */
static int score_moves(const Rules *R, const Board *B, int hand, unsigned supply, int dedupe,
                       int stop_on_win, Board *boards, uint32_t *moves, uint8_t *mobs)
{
    unsigned dex[16];
    danger_except(B, dex);
    uint16_t supq[16];
    for (int q = 0; q < 16; q++) supq[q] = (uint16_t)(supply & ~(1u << q));
    int n = 0;
    unsigned free_cells = ~(unsigned)B->occ & 0xFFFF;
    while (free_cells) {
        int c = ctz16(free_cells);
        free_cells &= free_cells - 1;
        unsigned safe = supply & ~danger_after(R, B, dex[c], c, hand);
        if (!safe) continue;
        Board *nb = &boards[c];
        place(R, B, nb, c, hand);
        unsigned dex2[16];
        danger_except(nb, dex2);
        uint16_t tot[16], mob[16];
        for (int q = 0; q < 16; q++) { tot[q] = 0; mob[q] = 0; }
        unsigned f2 = ~(unsigned)nb->occ & 0xFFFF;
        while (f2) {
            int d = ctz16(f2);
            f2 &= f2 - 1;
            uint16_t acc[16];
            for (int q = 0; q < 16; q++) acc[q] = (uint16_t)dex2[d];
            uint32_t m = R->csm[d] & nb->s2;
            while (m) {
                int sh = __builtin_ctz(m);
                m &= m - 1;
                const uint16_t *row = R->t2[nb->common[sh]];
                for (int q = 0; q < 16; q++) acc[q] |= row[q];
            }
            for (int q = 0; q < 16; q++) {
                uint16_t sf = (uint16_t)(supq[q] & ~acc[q]);
                uint16_t v = (uint16_t)(sf - ((sf >> 1) & 0x5555));
                v = (uint16_t)((v & 0x3333) + ((v >> 2) & 0x3333));
                v = (uint16_t)((v + (v >> 4)) & 0x0F0F);
                v = (uint16_t)((v + (v >> 8)) & 0x1F);
                tot[q] = (uint16_t)(tot[q] + v);
                mob[q] = (uint16_t)(mob[q] + (sf != 0));
            }
        }
        unsigned seen = 0;
        while (safe) {
            int q = ctz16(safe);
            safe &= safe - 1;
            if (dedupe) {
                unsigned cls = 1u << (q & R->traits);
                if (seen & cls) continue;
                seen |= cls;
            }
            unsigned key = 0;
            if (supq[q]) {
                if (!mob[q] && stop_on_win) return -1;
                key = tot[q];
            }
            uint32_t mv = key << 16 | (unsigned)n << 8 | (unsigned)c << 4 | (unsigned)q;
            int j = n;
            while (j > 0 && moves[j - 1] > mv) {
                moves[j] = moves[j - 1];
                if (mobs) mobs[j] = mobs[j - 1];
                j--;
            }
            moves[j] = mv;
            if (mobs) mobs[j] = (uint8_t)(supq[q] ? mob[q] : 16);
            n++;
        }
    }
    return n;
}

/* -- search ------------------------------------------------------------- */

static int search(Ctx *x, const Board *B, int hand, unsigned supply, int ply, int alpha, int beta)
{
    if (++x->pending >= FLUSH_EVERY && flush(x)) {
        x->aborted = 1;
        return 0;
    }
    if (!supply) return 0;  /* the last piece, which cannot win: a draw */
    const Rules *R = x->R;
    int empties = 16 - pop16(B->occ);
    int lo = -(WIN - ply - 2);
    int hi = empties >= 3 ? WIN - ply - 3 : 0;
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    int alpha0 = alpha;

    int probe = empties >= R->tt_min;
    unsigned kocc = 0;
    uint64_t kcols = 0;
    Bucket *bk = NULL;
    if (probe) {
        make_key(R, B, hand, empties >= R->canon_min, &kocc, &kcols);
        bk = &x->T->buckets[key_hash(kocc, kcols) & x->T->mask];
        int flag, v;
        if (tt_probe(bk, kocc, kcols, &flag, &v)) {
            if (v > 0) v -= ply; else if (v < 0) v += ply;
            if (flag == FLAG_EXACT) return v;
            if (flag == FLAG_LOWER) {
                if (v >= beta) return v;
                if (v > alpha) alpha = v;
            } else {
                if (v <= alpha) return v;
                if (v < beta) beta = v;
            }
        }
    }

    int best = lo;
    if (empties >= R->order_min || empties == 3) {
        /* Moves that leave the opponent the fewest choices first.  With three
         * empty cells every child is decided by its mobility alone: the
         * opponent keeps the last piece safe (a draw) or cannot (we win). */
        Board boards[16];
        uint32_t moves[256];
        int n = score_moves(R, B, hand, supply, R->dedupe, 1, boards, moves, NULL);
        if (n < 0) {
            best = hi;
            goto done;
        }
        if (empties == 3) {
            if (n) best = 0;
            goto done;
        }
        for (int i = 0; i < n; i++) {
            int c = MOVE_CELL(moves[i]), q = MOVE_PIECE(moves[i]);
            int v = -search(x, &boards[c], q, supply & ~(1u << q), ply + 1, -beta, -alpha);
            if (x->aborted) return 0;
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) goto done;
                }
            }
        }
        goto done;
    }

    /* Near the end: placements with the fewest safe pieces first. */
    unsigned dex[16];
    danger_except(B, dex);
    Child ch[16];
    int order[16];
    int n = 0;
    unsigned free_cells = ~(unsigned)B->occ & 0xFFFF;
    while (free_cells) {
        int c = ctz16(free_cells);
        free_cells &= free_cells - 1;
        unsigned safe = supply & ~danger_after(R, B, dex[c], c, hand);
        if (!safe) continue;  /* every hand-over would lose at once */
        Child *k = &ch[n];
        k->c = c;
        k->safe = safe;
        k->count = pop16(safe);
        int j = n;
        while (j > 0 && ch[order[j - 1]].count > k->count) { order[j] = order[j - 1]; j--; }
        order[j] = n;
        n++;
    }
    if (empties <= 2) {
        /* the opponent places the last piece, which cannot win */
        if (n) best = 0;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        Child *k = &ch[order[i]];
        place(R, B, &k->b, k->c, hand);
        unsigned safe = k->safe, seen = 0;
        while (safe) {
            int q = ctz16(safe);
            safe &= safe - 1;
            if (R->dedupe) {
                unsigned cls = 1u << (q & R->traits);
                if (seen & cls) continue;
                seen |= cls;
            }
            int v = -search(x, &k->b, q, supply & ~(1u << q), ply + 1, -beta, -alpha);
            if (x->aborted) return 0;
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) goto done;
                }
            }
        }
    }
done:
    if (probe) {
        int flag = best <= alpha0 ? FLAG_UPPER : best >= beta ? FLAG_LOWER : FLAG_EXACT;
        int rel = best > 0 ? best + ply : best < 0 ? best - ply : 0;
        tt_store(bk, kocc, kcols, flag, rel, empties);
    }
    return best;
}

/* -- Python: Control ---------------------------------------------------- */

static PyObject *Control_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"node_limit", "seconds", "parent", NULL};
    long long node_limit = 0;
    double seconds = 0.0;
    PyObject *parent = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|LdO", kwlist, &node_limit, &seconds, &parent))
        return NULL;
    if (parent != Py_None && !PyObject_TypeCheck(parent, type)) {
        PyErr_SetString(PyExc_TypeError, "parent: expected a Control or None");
        return NULL;
    }
    ControlObject *self = (ControlObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (parent != Py_None) {
        Py_INCREF(parent);
        self->parent = (ControlObject *)parent;
    }
    self->nodes = 0;
    self->node_limit = node_limit > 0 ? node_limit : 0;
    self->deadline = seconds > 0 ? now() + seconds : 0.0;
    self->stop = 0;
    return (PyObject *)self;
}

static void Control_dealloc(ControlObject *self)
{
    Py_XDECREF((PyObject *)self->parent);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Control_stop(ControlObject *self, PyObject *Py_UNUSED(ignored))
{
    __atomic_store_n(&self->stop, 1, __ATOMIC_RELAXED);
    Py_RETURN_NONE;
}

static PyObject *Control_get_nodes(ControlObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(__atomic_load_n(&self->nodes, __ATOMIC_RELAXED));
}

static PyObject *Control_get_stopped(ControlObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(__atomic_load_n(&self->stop, __ATOMIC_RELAXED));
}

static PyMethodDef Control_methods[] = {
    {"stop", (PyCFunction)Control_stop, METH_NOARGS, "Make every search using this control stop."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Control_getset[] = {
    {"nodes", (getter)Control_get_nodes, NULL, "Nodes searched so far (updated in batches).", NULL},
    {"stopped", (getter)Control_get_stopped, NULL, "Whether a limit was hit or stop() called.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ControlType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "quads.solver._kernel.Control",
    .tp_basicsize = sizeof(ControlObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Node and time budget shared by searches, and their node count.",
    .tp_new = Control_new,
    .tp_dealloc = (destructor)Control_dealloc,
    .tp_methods = Control_methods,
    .tp_getset = Control_getset,
};

/* -- Python: Engine ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Rules rules;
    Table table;
} EngineObject;

static int read_mask_list(PyObject *seq, const char *what, uint16_t *out, int max, int *count)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected 1 to %d items", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < 0 || v > 0xFFFF) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: item out of range", what);
            return -1;
        }
        out[i] = (uint16_t)v;
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

static int read_symmetries(PyObject *seq, Rules *R)
{
    PyObject *fast = PySequence_Fast(seq, "symmetries");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > MAX_SYMS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "symmetries: expected 1 to 32 permutations");
        return -1;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        uint16_t perm[16];
        int len;
        if (read_mask_list(PySequence_Fast_GET_ITEM(fast, s), "permutation", perm, 16, &len) < 0
            || len != 16) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "permutation: need 16 cells");
            return -1;
        }
        for (int v = 0; v < 256; v++) {
            unsigned lo = 0, hi = 0;
            for (int c = 0; c < 8; c++) {
                if (v >> c & 1) {
                    lo |= 1u << (perm[c] & 15);
                    hi |= 1u << (perm[c + 8] & 15);
                }
            }
            R->perm_lo[s][v] = (uint16_t)lo;
            R->perm_hi[s][v] = (uint16_t)hi;
        }
    }
    R->nsyms = (int)n;
    Py_DECREF(fast);
    return 0;
}

static void rules_derive(Rules *R, int traits)
{
    R->traits = traits;
    R->dedupe = traits != 15;
    R->init_common = (uint8_t)(traits | traits << 4);
    for (int p = 0; p < 16; p++) R->pm[p] = (uint8_t)((p & traits) | ((~p & traits) << 4));
    for (int cm = 0; cm < 256; cm++) {
        unsigned d = 0;
        for (int p = 0; p < 16; p++) {
            if (cm & R->pm[p]) d |= 1u << p;
        }
        R->dt[cm] = (uint16_t)d;
    }
    for (int cm = 0; cm < 256; cm++) {
        for (int q = 0; q < 16; q++) R->t2[cm][q] = R->dt[cm & R->pm[q]];
    }
    memset(R->ncs, 0, sizeof R->ncs);
    for (int s = 0; s < R->nshapes; s++) {
        for (int c = 0; c < 16; c++) {
            if (R->shape[s] >> c & 1) {
                R->cs[c][R->ncs[c]++] = (uint8_t)s;
                R->csm[c] |= 1u << s;
            }
        }
    }
}

static PyObject *Engine_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"shapes", "traits", "symmetries", "table_entries", "tt_min",
                             "canon_min", "order_min", NULL};
    PyObject *shapes, *syms;
    int traits, tt_min = 6, canon_min = 10, order_min = 6;
    long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiOL|iii", kwlist, &shapes, &traits, &syms,
                                     &entries, &tt_min, &canon_min, &order_min))
        return NULL;
    if (traits < 1 || traits > 15) {
        PyErr_SetString(PyExc_ValueError, "traits: expected a mask 1-15");
        return NULL;
    }
    if (entries < BUCKET || (entries & (entries - 1))) {
        PyErr_SetString(PyExc_ValueError, "table_entries: expected a power of two, at least 4");
        return NULL;
    }
    EngineObject *self = (EngineObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    Rules *R = &self->rules;
    memset(R, 0, sizeof *R);
    int nshapes;
    if (read_mask_list(shapes, "shapes", R->shape, MAX_SHAPES, &nshapes) < 0
        || read_symmetries(syms, R) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    for (int s = 0; s < nshapes; s++) {
        if (pop16(R->shape[s]) != 4) {
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "shapes: every shape has four cells");
            return NULL;
        }
    }
    R->nshapes = nshapes;
    R->tt_min = tt_min;
    R->canon_min = canon_min;
    R->order_min = order_min;
    rules_derive(R, traits);
    for (int c = 0; c < 16; c++) {
        if (R->ncs[c] > 8) {
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "shapes: too many shapes through one cell");
            return NULL;
        }
    }
    size_t nbuckets = (size_t)entries / BUCKET;
    size_t bytes = nbuckets * sizeof(Bucket) + 64;
    void *raw = calloc(1, bytes);
    if (!raw) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->table.raw = raw;
    self->table.buckets = (Bucket *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    self->table.mask = nbuckets - 1;
    return (PyObject *)self;
}

static void Engine_dealloc(EngineObject *self)
{
    free(self->table.raw);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int board_from_args(const Rules *R, unsigned long long cells, unsigned occ, Board *b)
{
    board_empty(R, b);
    for (int c = 0; c < 16; c++) {
        if (occ >> c & 1) {
            Board next;
            place(R, b, &next, c, (int)(cells >> (4 * c) & 15));
            *b = next;
        }
    }
    return 0;
}

static PyObject *Engine_search(EngineObject *self, PyObject *args)
{
    PyObject *ctl;
    unsigned long long cells;
    unsigned int occ, supply;
    int hand, ply, alpha, beta;
    if (!PyArg_ParseTuple(args, "O!IKiIiii", &ControlType, &ctl, &occ, &cells, &hand, &supply,
                          &ply, &alpha, &beta))
        return NULL;
    if (occ > 0xFFFF || supply > 0xFFFF || hand < 0 || hand > 15 || ply < 0 || ply > 16
        || alpha >= beta) {
        PyErr_SetString(PyExc_ValueError, "search: argument out of range");
        return NULL;
    }
    Board b;
    board_from_args(&self->rules, cells, occ, &b);
    Ctx x = {&self->rules, &self->table, (ControlObject *)ctl, 0, 0};
    int v;
    Py_INCREF(ctl);
    Py_BEGIN_ALLOW_THREADS
    v = search(&x, &b, hand, supply, ply, alpha, beta);
    if (!x.aborted) control_add(x.ctl, x.pending);
    Py_END_ALLOW_THREADS
    Py_DECREF(ctl);
    if (x.aborted) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *Engine_moves(EngineObject *self, PyObject *args)
{
    unsigned long long cells;
    unsigned int occ, supply;
    int hand;
    if (!PyArg_ParseTuple(args, "IKiI", &occ, &cells, &hand, &supply)) return NULL;
    if (occ > 0xFFFF || supply > 0xFFFF || hand < 0 || hand > 15) {
        PyErr_SetString(PyExc_ValueError, "moves: argument out of range");
        return NULL;
    }
    Board b;
    board_from_args(&self->rules, cells, occ, &b);
    Board boards[16];
    uint32_t moves[256];
    uint8_t mobs[256];
    int n = score_moves(&self->rules, &b, hand, supply, 0, 0, boards, moves, mobs);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = Py_BuildValue("(iiii)", MOVE_CELL(moves[i]), MOVE_PIECE(moves[i]),
                                       MOVE_KEY(moves[i]), (int)mobs[i]);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *Engine_key(EngineObject *self, PyObject *args)
{
    unsigned long long cells;
    unsigned int occ;
    int hand, canon;
    if (!PyArg_ParseTuple(args, "IKip", &occ, &cells, &hand, &canon)) return NULL;
    if (occ > 0xFFFF || hand < 0 || hand > 15) {
        PyErr_SetString(PyExc_ValueError, "key: argument out of range");
        return NULL;
    }
    Board b;
    board_from_args(&self->rules, cells, occ, &b);
    unsigned kocc;
    uint64_t kcols;
    make_key(&self->rules, &b, hand, canon, &kocc, &kcols);
    PyObject *hi = PyLong_FromUnsignedLong(kocc);
    PyObject *lo = PyLong_FromUnsignedLongLong(kcols);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *result = NULL;
    if (hi && lo && shift) {
        PyObject *shifted = PyNumber_Lshift(hi, shift);
        if (shifted) {
            result = PyNumber_Or(shifted, lo);
            Py_DECREF(shifted);
        }
    }
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    return result;
}

static PyObject *Engine_get_table_bytes(EngineObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong((unsigned long long)(self->table.mask + 1) * sizeof(Bucket));
}

static PyMethodDef Engine_methods[] = {
    {"search", (PyCFunction)Engine_search, METH_VARARGS,
     "search(control, occupied, cells, hand, supply, ply, alpha, beta) -> score or None"},
    {"moves", (PyCFunction)Engine_moves, METH_VARARGS,
     "moves(occupied, cells, hand, supply) -> [(cell, piece, key, mobility)] in search order"},
    {"key", (PyCFunction)Engine_key, METH_VARARGS,
     "key(occupied, cells, hand, canonical) -> the table key of a position"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"table_bytes", (getter)Engine_get_table_bytes, NULL, "Size of the table in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "quads.solver._kernel.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The rules of one solve and its transposition table.",
    .tp_new = Engine_new,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

/* -- module ------------------------------------------------------------- */

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "quads.solver._kernel",
    .m_doc = "Compiled search kernel of the Quads solver (see _pure.py for the same in Python).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    for (int i = 0; i < 256; i++) POP8[i] = (uint8_t)__builtin_popcount((unsigned)i);
    if (PyType_Ready(&ControlType) < 0 || PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&ControlType);
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Control", (PyObject *)&ControlType) < 0
        || PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0
        || PyModule_AddIntConstant(m, "WIN", WIN) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
