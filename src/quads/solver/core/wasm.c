/*
 * The WebAssembly binding of the search core: a handful of exported
 * functions over plain integers, for src/quads/web/static/js/engine/kernel.js.
 *
 * Built by tools/build_wasm.py (clang --target=wasm32-wasi, reactor model,
 * with QK_EXTERNAL_CLOCK: the module imports its clock as env.now, in
 * seconds).  Arguments and results that do not fit an i32 go through the
 * scratch buffer whose address qk_scratch() returns: 64-bit cell words as two
 * 32-bit halves, results as arrays of i32.
 *
 * Besides the whole solve and analysis, the module offers the pieces of a
 * solve that the Python library's stages (quads/solver/search.py) are made
 * of, so that the page can run those stages itself: the root turns in groups
 * (qk_root), a budget (qk_begin) and the search of one node (qk_search), and
 * the canonical key of a position (qk_key, the opening books' key).
 */

#include "search.h"

#include <stdlib.h>

#define EXPORT(name) __attribute__((export_name(name)))

/* The scratch buffer: inputs and outputs of the calls below. */
static int32_t scratch[16 * QK_MAX_TURNS + 16];

typedef struct {
    QkRules rules;
    QkTable table;
    QkBudget budget;        /* the budget of the last call */
} Engine;

/* The shape sets of the rules: the ten lines, then the nine 2x2 squares
 * (rows 1-4, columns A-D, the diagonals A1-D4 and D1-A4, then the squares
 * by their corner A1, B1, C1, A2, ...), as in the Python library. */
static const uint16_t SHAPES[QK_MAX_SHAPES] = {
    0x000F, 0x00F0, 0x0F00, 0xF000,
    0x1111, 0x2222, 0x4444, 0x8888,
    0x8421, 0x1248,
    0x0033, 0x0066, 0x00CC, 0x0330, 0x0660, 0x0CC0, 0x3300, 0x6600, 0xCC00,
};

EXPORT("qk_scratch") int32_t *wasm_scratch(void) { return scratch; }

/* A new engine for the lines (SQUARES 0) or lines and squares (1), the trait
 * mask TRAITS and a table of 2^LOG2_ENTRIES entries; 0 on error (bad
 * arguments or out of memory).  The tuning is the Python library's. */
EXPORT("qk_engine_new") Engine *wasm_engine_new(int squares, int traits, int log2_entries)
{
    if (log2_entries < 2 || log2_entries > 27) return 0;
    Engine *e = malloc(sizeof *e);
    if (!e) return 0;
    if (qk_rules_init(&e->rules, SHAPES, squares ? 19 : 10, traits, 0, 0, 7, 10, 7) != QK_OK
        || qk_table_init(&e->table, (uint64_t)1 << log2_entries) != QK_OK) {
        free(e);
        return 0;
    }
    qk_budget_init(&e->budget, 0, 0, 0);
    return e;
}

EXPORT("qk_engine_free") void wasm_engine_free(Engine *e)
{
    if (!e) return;
    qk_table_free(&e->table);
    free(e);
}

/* Forget what the table learnt. */
EXPORT("qk_engine_clear") void wasm_engine_clear(Engine *e) { qk_table_clear(&e->table); }

/* Nodes searched by the last solve or analysis (a double: may exceed 2^31). */
EXPORT("qk_engine_nodes") double wasm_engine_nodes(Engine *e)
{
    return (double)qk_budget_nodes(&e->budget);
}

static uint64_t cells_of(uint32_t lo, uint32_t hi) { return (uint64_t)hi << 32 | lo; }

static void start(Engine *e, double nodes, double seconds)
{
    qk_budget_init(&e->budget, nodes > 0 ? (int64_t)nodes : 0, seconds, 0);
}

/* Solve a position (HAND -1: a hand-over first).  Writes into the scratch
 * buffer known, exact, score, best place, best give; returns 0 or a
 * QK_ERR_ code. */
EXPORT("qk_solve") int wasm_solve(Engine *e, int occ, uint32_t cells_lo, uint32_t cells_hi,
                                  int hand, double nodes, double seconds, int distance)
{
    QkSolution s;
    start(e, nodes, seconds);
    int rc = qk_solve(&e->rules, &e->table, &e->budget, (uint16_t)occ,
                      cells_of(cells_lo, cells_hi), hand, distance, &s);
    if (rc) return rc;
    scratch[0] = s.known;
    scratch[1] = s.exact;
    scratch[2] = s.score;
    scratch[3] = s.best.place;
    scratch[4] = s.best.give;
    return 0;
}

/* Analyse a position: writes place, give, known, score for each legal turn
 * into the scratch buffer; returns the number of turns or a QK_ERR_ code. */
EXPORT("qk_analyse") int wasm_analyse(Engine *e, int occ, uint32_t cells_lo, uint32_t cells_hi,
                                      int hand, double nodes, double seconds)
{
    QkTurn turns[QK_MAX_TURNS];
    start(e, nodes, seconds);
    int n = qk_analyse(&e->rules, &e->table, &e->budget, (uint16_t)occ,
                       cells_of(cells_lo, cells_hi), hand, turns);
    for (int i = 0; i < n; i++) {
        scratch[4 * i] = turns[i].place;
        scratch[4 * i + 1] = turns[i].give;
        scratch[4 * i + 2] = turns[i].known;
        scratch[4 * i + 3] = turns[i].score;
    }
    return n;
}

/* The pieces that would complete a winning shape somewhere on the board. */
EXPORT("qk_danger") int wasm_danger(Engine *e, int occ, uint32_t cells_lo, uint32_t cells_hi)
{
    return qk_danger(&e->rules, (uint16_t)occ, cells_of(cells_lo, cells_hi));
}

/* The cells where PIECE would complete a winning shape. */
EXPORT("qk_winning_cells") int wasm_winning_cells(Engine *e, int occ, uint32_t cells_lo,
                                                  uint32_t cells_hi, int piece)
{
    return qk_winning_cells(&e->rules, (uint16_t)occ, cells_of(cells_lo, cells_hi), piece);
}

/* The legal turns of a position in groups, as quads.solver.root.root_groups():
 * writes into the scratch buffer, for each turn in legal-turn order, place,
 * give (-1: none) and the index of its group; then for each group in search
 * order searched, score (when not searched), occ, cells low, cells high,
 * hand, supply, ply, key occupancy, key columns low, key columns high.
 * Returns the number of turns plus 65536 times the number of groups, or a
 * QK_ERR_ code. */
EXPORT("qk_root") int wasm_root(Engine *e, int occ, uint32_t cells_lo, uint32_t cells_hi,
                                int hand)
{
    QkTurn turns[QK_MAX_TURNS];
    int turn_group[QK_MAX_TURNS];
    QkGroup groups[QK_MAX_TURNS];
    int ngroups = 0;
    int n = qk_root_groups(&e->rules, (uint16_t)occ, cells_of(cells_lo, cells_hi), hand, turns,
                           turn_group, groups, &ngroups);
    if (n < 0) return n;
    int32_t *out = scratch;
    for (int i = 0; i < n; i++) {
        *out++ = turns[i].place;
        *out++ = turns[i].give;
        *out++ = turn_group[i];
    }
    for (int i = 0; i < ngroups; i++) {
        const QkGroup *g = &groups[i];
        *out++ = g->searched;
        *out++ = g->score;
        *out++ = g->occ;
        *out++ = (int32_t)(uint32_t)g->cells;
        *out++ = (int32_t)(uint32_t)(g->cells >> 32);
        *out++ = g->hand;
        *out++ = g->supply;
        *out++ = g->ply;
        *out++ = (int32_t)g->kocc;
        *out++ = (int32_t)(uint32_t)g->kcols;
        *out++ = (int32_t)(uint32_t)(g->kcols >> 32);
    }
    return n + 65536 * ngroups;
}

/* Start a budget of NODES nodes and SECONDS from now (0: none) for the
 * searches that follow (qk_search), counted by qk_engine_nodes(). */
EXPORT("qk_begin") void wasm_begin(Engine *e, double nodes, double seconds)
{
    start(e, nodes, seconds);
}

/* Search one node within the budget of the last qk_begin: the side to move
 * holds HAND (a safe piece) and must place it, PLY placements after the root,
 * window (ALPHA, BETA).  Returns 1 and writes the fail-soft score into the
 * scratch buffer, or 0 if the budget ran out (or -6 for an argument out of
 * range). */
EXPORT("qk_search") int wasm_search(Engine *e, int occ, uint32_t cells_lo, uint32_t cells_hi,
                                    int hand, int supply, int ply, int alpha, int beta)
{
    if (hand < 0 || hand > 15 || occ < 0 || occ >= 0xFFFF || supply < 0 || supply > 0xFFFF
        || ply < 0 || ply > 16)
        return QK_ERR_POSITION;
    int score;
    if (!qk_search(&e->rules, &e->table, &e->budget, (uint16_t)occ,
                   cells_of(cells_lo, cells_hi), hand, (uint16_t)supply, ply, alpha, beta,
                   &score))
        return 0;
    scratch[0] = score;
    return 1;
}

/* The canonical key of a position whose side to move holds HAND (the key of
 * the opening books): writes its occupancy, its columns' low and high halves
 * into the scratch buffer; returns 0, or -6 for a hand out of range. */
EXPORT("qk_key") int wasm_key(Engine *e, int occ, uint32_t cells_lo, uint32_t cells_hi, int hand)
{
    if (hand < 0 || hand > 15) return QK_ERR_POSITION;
    unsigned kocc;
    uint64_t kcols;
    qk_key(&e->rules, (uint16_t)occ, cells_of(cells_lo, cells_hi), hand, 1, &kocc, &kcols);
    scratch[0] = (int32_t)kocc;
    scratch[1] = (int32_t)(uint32_t)kcols;
    scratch[2] = (int32_t)(uint32_t)(kcols >> 32);
    return 0;
}
