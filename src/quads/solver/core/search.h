/*
 * The search core of the Quads solver: plain C (C99 and the GCC/Clang
 * builtins), no Python.  The CPython extension (../_kernel.c) and the
 * WebAssembly module (wasm.c) are two thin bindings over this one core.
 *
 * Positions are bitboards: OCC is the mask of occupied cells (cell 0 is
 * bit 0), CELLS holds the piece on cell c in bits 4c..4c+3 (empty cells
 * read 0), HAND is the piece the side to move must place (or -1 when it
 * must hand one over first), SUPPLY the mask of pieces on neither the
 * board nor in hand.
 *
 * Scores count placements from the root of a search: a win whose last
 * placement is number P scores QK_WIN - P, a loss -(QK_WIN - P), a draw 0.
 *
 * Usage: fill a QkRules with qk_rules_init(), a QkTable with
 * qk_table_init(), a QkBudget with qk_budget_init(), then call
 * qk_search() (one node, as the Python root drives it) or qk_solve() /
 * qk_analyse() (a whole position).  Nothing here keeps global state except
 * a constant popcount table filled on first use.
 */

#ifndef QUADS_SOLVER_CORE_SEARCH_H
#define QUADS_SOLVER_CORE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#define QK_WIN 100
#define QK_MAX_SHAPES 19
#define QK_MAX_SYMS 32
#define QK_MAX_TURNS 256

/* Error codes of the functions that can fail (0 is success). */
enum {
    QK_OK = 0,
    QK_ERR_TRAITS = -1,     /* traits: not a mask 1-15 */
    QK_ERR_SHAPES = -2,     /* shapes: not 1-19 masks of four cells, at most 8 through a cell */
    QK_ERR_SYMS = -3,       /* symmetries: not 1-32 permutations of 16 cells */
    QK_ERR_ENTRIES = -4,    /* table entries: not a power of two, at least 4 */
    QK_ERR_MEMORY = -5,     /* out of memory */
    QK_ERR_POSITION = -6,   /* a position argument out of range */
};

/* -- rules: the shape set and the counted traits, with derived tables --- */

typedef struct {
    int nshapes;
    uint16_t shape[QK_MAX_SHAPES];
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
    uint16_t perm_lo[QK_MAX_SYMS][256];
    uint16_t perm_hi[QK_MAX_SYMS][256];
    int tt_min;             /* probe the table at nodes with at least this many empty cells */
    int canon_min;          /* use the full canonical key from this many empty cells */
    int order_min;          /* order moves by the opponent's choice from this many empty cells */
} QkRules;

/* Fill R for the NSHAPES cell masks SHAPES and the trait mask TRAITS.
 * SYMS holds NSYMS cell permutations (perm[cell] = image of cell) that map
 * the shape set onto itself, identity first; with NSYMS == 0 they are
 * computed (qk_board_symmetries).  TT_MIN, CANON_MIN and ORDER_MIN tune the
 * search (see QkRules).  Returns QK_OK or a QK_ERR_ code. */
int qk_rules_init(QkRules *R, const uint16_t *shapes, int nshapes, int traits,
                  const uint8_t (*syms)[16], int nsyms, int tt_min, int canon_min, int order_min);

/* Every permutation of rows and columns (with or without transposing the
 * board) that maps the NSHAPES masks SHAPES onto themselves, identity
 * first, in the order of the Python library's board_symmetries(); writes at
 * most QK_MAX_SYMS into OUT and returns how many there are. */
int qk_board_symmetries(const uint16_t *shapes, int nshapes, uint8_t (*out)[16]);

/* -- transposition table ----------------------------------------------- */

typedef struct { uint64_t w[8]; } QkBucket;   /* four entries of two words */

typedef struct {
    QkBucket *buckets;
    uint64_t mask;          /* number of buckets - 1 */
    void *raw;              /* the allocation (buckets are 64-byte aligned inside it) */
    size_t mapped;          /* its size when mapped (mmap) rather than allocated */
} QkTable;

/* Allocate a cleared table of ENTRIES entries (16 bytes each; a power of
 * two, at least 4).  Returns QK_OK, QK_ERR_ENTRIES or QK_ERR_MEMORY. */
int qk_table_init(QkTable *T, uint64_t entries);
/* Forget every entry. */
void qk_table_clear(QkTable *T);
/* Free the table's memory (T may then be initialised again). */
void qk_table_free(QkTable *T);
/* The table's size in bytes. */
uint64_t qk_table_bytes(const QkTable *T);

/* -- budget: nodes, time and a stop flag, shared along a parent chain --- */

typedef struct QkBudget {
    int64_t nodes;          /* flushed node count (updated in batches, atomically) */
    int64_t node_limit;     /* 0: none */
    double deadline;        /* monotonic seconds (qk_now); 0: none */
    int stop;               /* set by qk_budget_stop() or when a limit is hit */
    struct QkBudget *parent;  /* counts and limits passed on to it, or NULL */
} QkBudget;

/* A budget of NODE_LIMIT nodes (0: none) and SECONDS from now (0: none),
 * counting on into PARENT (or NULL). */
void qk_budget_init(QkBudget *b, int64_t node_limit, double seconds, QkBudget *parent);
/* Make every search on B (and on budgets whose ancestor is B) stop soon. */
void qk_budget_stop(QkBudget *b);
/* Nodes counted on B so far; whether B was stopped or ran out. */
int64_t qk_budget_nodes(const QkBudget *b);
int qk_budget_stopped(const QkBudget *b);

/* Monotonic time in seconds.  The core defines it with clock_gettime(); a
 * build with QK_EXTERNAL_CLOCK defined takes it from the embedder instead
 * (the WebAssembly module imports it). */
#if defined(QK_EXTERNAL_CLOCK) && defined(__wasm__)
__attribute__((import_module("env"), import_name("now")))
#endif
double qk_now(void);

/* -- one node: what the Python root drives ------------------------------ */

/* Search the node "the side to move holds HAND (safe: it cannot win at
 * once) and must place it" with window (ALPHA, BETA), PLY placements after
 * the root.  Returns 1 and the fail-soft score in *SCORE, or 0 if the
 * budget ran out (the nodes searched are counted on B either way). */
int qk_search(const QkRules *R, QkTable *T, QkBudget *B, uint16_t occ, uint64_t cells,
              int hand, uint16_t supply, int ply, int alpha, int beta, int *score);

/* -- one node, searched by several threads together --------------------- */

#define QK_BUSY_SLOTS 4096  /* a power of two */
#ifndef QK_BUSY_MIN
#define QK_BUSY_MIN 9       /* nodes with this many empty cells share out their children */
#endif

/* What the threads searching one node together are searching right now. */
typedef struct { uint64_t slot[QK_BUSY_SLOTS]; } QkBusy;

/* qk_search() for one of several threads that search the same node with the
 * same window at the same time, over the same table T, each with a budget
 * of its own (children of one parent budget) and all with the same cleared
 * BUSY (or NULL: qk_search()).  Each returns the node's score on its own;
 * the first to finish has it, and the others can then be stopped through
 * their budgets. */
int qk_search_shared(const QkRules *R, QkTable *T, QkBudget *B, QkBusy *busy, uint16_t occ,
                     uint64_t cells, int hand, uint16_t supply, int ply, int alpha, int beta,
                     int *score);

/* One turn of the side to move, ordered as the search tries it. */
typedef struct {
    uint8_t cell, piece;
    uint16_t key;           /* (placement, safe hand-over) pairs left to the opponent */
    uint8_t mobility;       /* the opponent's placements keeping a safe piece; 16: the last piece */
} QkMove;

/* The turns "place HAND on a cell, hand over a safe piece" in search order
 * (every safe piece, no class dedupe); returns their number (at most
 * QK_MAX_TURNS). */
int qk_moves(const QkRules *R, uint16_t occ, uint64_t cells, int hand, uint16_t supply,
             QkMove *out);

/* The table key of a position: its occupancy (*KOCC; the high bits of the Python key) and the
 * sorted trait columns (*KCOLS); with CANON the least over the symmetries. */
void qk_key(const QkRules *R, uint16_t occ, uint64_t cells, int hand, int canon,
            unsigned *kocc, uint64_t *kcols);

/* The pieces that would complete a winning shape on some empty cell. */
uint16_t qk_danger(const QkRules *R, uint16_t occ, uint64_t cells);
/* The cells where PIECE would complete a winning shape. */
uint16_t qk_winning_cells(const QkRules *R, uint16_t occ, uint64_t cells, int piece);

/* -- a whole position: solve and analyse -------------------------------- */

/* A turn: PLACE is a cell or -1 (a hand-over alone, on the empty board's
 * "-" position); GIVE a piece or -1 (a winning placement, or the last
 * piece).  KNOWN is 0 when the budget ran out before SCORE was exact. */
typedef struct {
    int8_t place, give;
    int8_t known;
    int16_t score;          /* for the player making the turn, counted from before it */
} QkTurn;

/* The result of qk_solve(). */
typedef struct {
    int known;              /* the value (the sign of SCORE) is known */
    int exact;              /* ... and so is the distance (SCORE is exact) */
    int score;              /* for the side to move; 0 for a draw */
    QkTurn best;            /* a best turn (place = give = -1 when none or unknown) */
} QkSolution;

/* Solve a position (HAND -1: the side to move hands over first): its value
 * and, with DISTANCE, the distance to the end, with a best turn (the
 * fastest win, the longest loss, a drawing turn).  Returns QK_OK or
 * QK_ERR_POSITION; budget exhaustion shows as known/exact = 0. */
int qk_solve(const QkRules *R, QkTable *T, QkBudget *B, uint16_t occ, uint64_t cells,
             int hand, int distance, QkSolution *out);

/* One group of root turns (see qk_root_groups): turns that lead to the same
 * node up to symmetry, or a single turn whose score is known at once. */
typedef struct {
    int searched;           /* 1: the kernel searches the node below; 0: SCORE is exact */
    int score;              /* the turn's score when not searched */
    uint16_t occ, supply;   /* the node: the opponent holds HAND (safe) and must place it */
    uint64_t cells;
    int hand;
    int ply;                /* placements from the root before the node's first one */
    unsigned kocc;          /* the node's canonical key (qk_key) */
    uint64_t kcols;
} QkGroup;

/* The legal turns of a position (HAND -1: a hand-over first) in groups, as the
 * Python library's quads.solver.root.root_groups() makes them: the turns in
 * legal-turn order (cells ascending, then pieces ascending) into TURNS, the
 * index of each one's group into TURN_GROUP, and the groups in search order
 * into GROUPS (their number into *NGROUPS).  For an embedder that drives the
 * stages of a solve itself, one qk_search() per group.  Returns the number of
 * turns (at most QK_MAX_TURNS) or QK_ERR_POSITION. */
int qk_root_groups(const QkRules *R, uint16_t occ, uint64_t cells, int hand, QkTurn *turns,
                   int *turn_group, QkGroup *groups, int *ngroups);

/* Every legal turn of a position with its exact score (turns the budget
 * left unknown have known = 0), in legal-turn order: cells ascending, then
 * pieces ascending.  Returns the number of turns (at most QK_MAX_TURNS) or
 * QK_ERR_POSITION. */
int qk_analyse(const QkRules *R, QkTable *T, QkBudget *B, uint16_t occ, uint64_t cells,
               int hand, QkTurn *out);

#endif
