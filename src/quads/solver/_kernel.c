/*
 * The CPython binding of the Quads solver's search core (core/search.c):
 * argument parsing, the Control and Engine objects, and the GIL.  The
 * search itself is plain C shared with the WebAssembly module (core/wasm.c).
 *
 * The same algorithm, step for step, is written in Python in _pure.py; both
 * must visit the same nodes in the same order and agree on every value.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/search.h"

/* -- Control ------------------------------------------------------------ */

typedef struct ControlObject {
    PyObject_HEAD
    QkBudget budget;
    struct ControlObject *parent;   /* kept alive while this control lives, or NULL */
} ControlObject;

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
    QkBudget *up = NULL;
    if (parent != Py_None) {
        Py_INCREF(parent);
        self->parent = (ControlObject *)parent;
        up = &self->parent->budget;
    }
    qk_budget_init(&self->budget, node_limit, seconds, up);
    return (PyObject *)self;
}

static void Control_dealloc(ControlObject *self)
{
    Py_XDECREF((PyObject *)self->parent);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Control_stop(ControlObject *self, PyObject *Py_UNUSED(ignored))
{
    qk_budget_stop(&self->budget);
    Py_RETURN_NONE;
}

static PyObject *Control_get_nodes(ControlObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(qk_budget_nodes(&self->budget));
}

static PyObject *Control_get_stopped(ControlObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(qk_budget_stopped(&self->budget));
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

/* -- Engine ------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    QkRules rules;
    QkTable table;
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

static int read_symmetries(PyObject *seq, uint8_t (*syms)[16], int *count)
{
    PyObject *fast = PySequence_Fast(seq, "symmetries");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > QK_MAX_SYMS) {
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
        for (int c = 0; c < 16; c++) syms[s][c] = (uint8_t)(perm[c] & 15);
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
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
    if (entries < 4 || (entries & (entries - 1))) {
        PyErr_SetString(PyExc_ValueError, "table_entries: expected a power of two, at least 4");
        return NULL;
    }
    uint16_t masks[QK_MAX_SHAPES];
    uint8_t perms[QK_MAX_SYMS][16];
    int nshapes, nsyms;
    if (read_mask_list(shapes, "shapes", masks, QK_MAX_SHAPES, &nshapes) < 0
        || read_symmetries(syms, perms, &nsyms) < 0)
        return NULL;
    for (int s = 0; s < nshapes; s++) {
        if (__builtin_popcount(masks[s]) != 4) {
            PyErr_SetString(PyExc_ValueError, "shapes: every shape has four cells");
            return NULL;
        }
    }
    EngineObject *self = (EngineObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (qk_rules_init(&self->rules, masks, nshapes, traits, (const uint8_t (*)[16])perms, nsyms,
                      tt_min, canon_min, order_min) != QK_OK) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "shapes: too many shapes through one cell");
        return NULL;
    }
    if (qk_table_init(&self->table, (uint64_t)entries) != QK_OK) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void Engine_dealloc(EngineObject *self)
{
    qk_table_free(&self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* -- several threads on one search -------------------------------------- */

/* A search of window (ALPHA, ALPHA + 2), the usual "win, draw or loss?", is
 * split into two null-window searches run at once: "at least ALPHA + 1?" and
 * "more than ALPHA + 1?".  A draw needs both proofs, and they are different
 * trees, so each thread proves one.  A thread whose proof is done and does not
 * decide the answer joins the other's search; threads on the same search share
 * its children out (qk_search_shared).  Any other window is one search that
 * every thread works on together. */

#define MAX_THREADS 64

typedef struct {
    int alpha, beta;
    QkBusy busy;
    int done, score;
} Job;

typedef struct {
    EngineObject *engine;
    QkBudget *parent;
    uint16_t occ, supply;
    uint64_t cells;
    int hand, ply;
    int njobs;
    Job jobs[2];
    pthread_mutex_t lock;
    QkBudget budgets[MAX_THREADS];
    int current[MAX_THREADS];   /* the job each thread is searching, or -1 */
    int nthreads;
    int finished, score;
    int threshold;              /* the split window's middle score (njobs == 2) */
} Shared;

typedef struct {
    Shared *shared;
    int index;
} Worker;

static int chain_stopped(const QkBudget *b)
{
    for (; b; b = b->parent) {
        if (qk_budget_stopped(b)) return 1;
    }
    return 0;
}

/* With the lock held: whether the jobs done so far decide the score. */
static int decided(Shared *sh, int *score)
{
    if (sh->njobs == 1) {
        *score = sh->jobs[0].score;
        return sh->jobs[0].done;
    }
    const Job *low = &sh->jobs[0], *high = &sh->jobs[1];
    if (low->done && low->score <= low->alpha) { *score = low->score; return 1; }
    if (high->done && high->score >= high->beta) { *score = high->score; return 1; }
    if (low->done && high->done) { *score = sh->threshold; return 1; }
    return 0;
}

static void stop_job(Shared *sh, int job)
{
    for (int i = 0; i < sh->nthreads; i++) {
        if (sh->current[i] >= 0 && (job < 0 || sh->current[i] == job))
            qk_budget_stop(&sh->budgets[i]);
    }
}

static void *shared_worker(void *arg)
{
    Worker *w = (Worker *)arg;
    Shared *sh = w->shared;
    int me = w->index;
    pthread_mutex_lock(&sh->lock);
    while (!sh->finished && !chain_stopped(sh->parent)) {
        int job = me % sh->njobs;
        if (sh->jobs[job].done) {
            if (sh->njobs < 2) break;
            job = 1 - job;  /* join the other proof */
            if (sh->jobs[job].done) break;
        }
        Job *j = &sh->jobs[job];
        qk_budget_init(&sh->budgets[me], 0, 0.0, sh->parent);
        sh->current[me] = job;
        pthread_mutex_unlock(&sh->lock);
        int v = 0;
        int ok = qk_search_shared(&sh->engine->rules, &sh->engine->table, &sh->budgets[me],
                                  &j->busy, sh->occ, sh->cells, sh->hand, sh->supply, sh->ply,
                                  j->alpha, j->beta, &v);
        pthread_mutex_lock(&sh->lock);
        sh->current[me] = -1;
        if (ok && !j->done) {
            j->done = 1;
            j->score = v;
            stop_job(sh, job);
            int score;
            if (decided(sh, &score)) {
                sh->finished = 1;
                sh->score = score;
                stop_job(sh, -1);
            }
        }
    }
    pthread_mutex_unlock(&sh->lock);
    return NULL;
}

/* Search with NTHREADS threads (the calling one among them); 1 and the score,
 * or 0 if the budget ran out first.  Runs with fewer threads (at least the
 * calling one) when the system will not start more. */
static int search_threads(EngineObject *self, QkBudget *budget, int nthreads, uint16_t occ,
                          uint64_t cells, int hand, uint16_t supply, int ply, int alpha,
                          int beta, int *score)
{
    Shared *sh = (Shared *)calloc(1, sizeof(Shared));
    if (!sh || pthread_mutex_init(&sh->lock, NULL) != 0) {
        free(sh);
        return qk_search(&self->rules, &self->table, budget, occ, cells, hand, supply, ply,
                         alpha, beta, score);
    }
    sh->engine = self;
    sh->parent = budget;
    sh->occ = occ, sh->supply = supply, sh->cells = cells, sh->hand = hand, sh->ply = ply;
    if (beta - alpha == 2) {
        sh->njobs = 2;
        sh->threshold = alpha + 1;
        sh->jobs[0].alpha = alpha, sh->jobs[0].beta = alpha + 1;
        sh->jobs[1].alpha = alpha + 1, sh->jobs[1].beta = beta;
    } else {
        sh->njobs = 1;
        sh->jobs[0].alpha = alpha, sh->jobs[0].beta = beta;
    }
    for (int i = 0; i < MAX_THREADS; i++) sh->current[i] = -1;
    sh->nthreads = nthreads;
    Worker workers[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    int started = 0;
    for (int i = 1; i < nthreads; i++) {
        workers[i] = (Worker){sh, i};
        if (pthread_create(&ids[i], NULL, shared_worker, &workers[i]) != 0) break;
        started = i;
    }
    workers[0] = (Worker){sh, 0};
    shared_worker(&workers[0]);
    for (int i = 1; i <= started; i++) pthread_join(ids[i], NULL);
    int finished = sh->finished;
    *score = sh->score;
    pthread_mutex_destroy(&sh->lock);
    free(sh);
    return finished;
}

static PyObject *Engine_search(EngineObject *self, PyObject *args)
{
    PyObject *ctl;
    unsigned long long cells;
    unsigned int occ, supply;
    int hand, ply, alpha, beta, threads = 1;
    if (!PyArg_ParseTuple(args, "O!IKiIiii|i", &ControlType, &ctl, &occ, &cells, &hand, &supply,
                          &ply, &alpha, &beta, &threads))
        return NULL;
    if (occ > 0xFFFF || supply > 0xFFFF || hand < 0 || hand > 15 || ply < 0 || ply > 16
        || alpha >= beta || threads < 1 || threads > MAX_THREADS) {
        PyErr_SetString(PyExc_ValueError, "search: argument out of range");
        return NULL;
    }
    int v = 0, done;
    QkBudget *budget = &((ControlObject *)ctl)->budget;
    Py_INCREF(ctl);
    Py_BEGIN_ALLOW_THREADS
    if (threads > 1)
        done = search_threads(self, budget, threads, (uint16_t)occ, cells, hand,
                              (uint16_t)supply, ply, alpha, beta, &v);
    else
        done = qk_search(&self->rules, &self->table, budget, (uint16_t)occ, cells, hand,
                         (uint16_t)supply, ply, alpha, beta, &v);
    Py_END_ALLOW_THREADS
    Py_DECREF(ctl);
    if (!done) Py_RETURN_NONE;
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
    QkMove moves[QK_MAX_TURNS];
    int n = qk_moves(&self->rules, (uint16_t)occ, cells, hand, (uint16_t)supply, moves);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = Py_BuildValue("(iiii)", (int)moves[i].cell, (int)moves[i].piece,
                                       (int)moves[i].key, (int)moves[i].mobility);
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
    unsigned kocc;
    uint64_t kcols;
    qk_key(&self->rules, (uint16_t)occ, cells, hand, canon, &kocc, &kcols);
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
    return PyLong_FromUnsignedLongLong(qk_table_bytes(&self->table));
}

static PyMethodDef Engine_methods[] = {
    {"search", (PyCFunction)Engine_search, METH_VARARGS,
     "search(control, occupied, cells, hand, supply, ply, alpha, beta, threads=1) -> score or None"},
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
    if (PyType_Ready(&ControlType) < 0 || PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&ControlType);
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Control", (PyObject *)&ControlType) < 0
        || PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0
        || PyModule_AddIntConstant(m, "WIN", QK_WIN) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
