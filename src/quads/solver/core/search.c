/*
 * The search kernel of the Quads solver: plain C, shared by the CPython
 * extension (../_kernel.c) and the WebAssembly module (wasm.c).  See
 * search.h for the interface.
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
 * The same algorithm, step for step, is written in Python in ../_pure.py; both
 * must visit the same nodes in the same order and agree on every value.
 */

#if !defined(QK_EXTERNAL_CLOCK) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */
#endif
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS, madvise */
#endif

#include "search.h"

#include <stdlib.h>
#include <string.h>
#ifndef QK_EXTERNAL_CLOCK
#include <time.h>
#endif
#ifdef __linux__
#include <sys/mman.h>
#endif

#define FLUSH_EVERY 4096
#define TABLE_HUGE ((size_t)8 << 20)  /* tables this large go in huge pages */
#define BUCKET 4

enum { FLAG_NONE = 0, FLAG_LOWER = 1, FLAG_UPPER = 2, FLAG_EXACT = 3 };

/* -- small bit helpers -------------------------------------------------- */

#define P2(n) n, n + 1, n + 1, n + 2
#define P4(n) P2(n), P2(n + 1), P2(n + 1), P2(n + 2)
#define P6(n) P4(n), P4(n + 1), P4(n + 1), P4(n + 2)
static const uint8_t POP8[256] = {P6(0), P6(1), P6(1), P6(2)};
#undef P2
#undef P4
#undef P6


static inline int pop16(unsigned x) { return POP8[x & 0xFF] + POP8[(x >> 8) & 0xFF]; }
static inline int ctz16(unsigned x) { return __builtin_ctz(x); }

/* -- board -------------------------------------------------------------- */

typedef struct {
    uint16_t dcell[16];
    uint8_t common[20];
    uint32_t s2, s3, s4;    /* shapes with exactly 2, 3 and 4 empty cells */
    uint16_t occ;
    uint16_t bits[4];
} Board;

static void board_empty(const QkRules *R, Board *b)
{
    memset(b, 0, sizeof *b);
    for (int s = 0; s < R->nshapes; s++) b->common[s] = R->init_common;
    b->s4 = (uint32_t)((1u << R->nshapes) - 1);
}

static inline void place(const QkRules *R, const Board *src, Board *dst, int c, int p)
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

static inline unsigned perm16(const QkRules *R, int s, unsigned m)
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
static void make_key(const QkRules *R, const Board *b, int hand, int canon,
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


static inline uint64_t load64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void store64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

static inline int tt_probe(const QkBucket *bk, unsigned occ, uint64_t cols, int *flag, int *score)
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

static inline void tt_store(QkBucket *bk, unsigned occ, uint64_t cols, int flag, int score, int empties)
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
#ifndef QK_EXTERNAL_CLOCK
double qk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
#endif

typedef struct {
    const QkRules *R;
    QkTable *T;
    QkBudget *ctl;
    int64_t pending;
    int aborted;
    QkBusy *busy;           /* shared with the other threads on this search, or NULL */
    int unwind;             /* >= 0: the level of the open nodes to return to at once */
    int depth;              /* open nodes that share out their children, outermost first */
    struct { const QkBucket *bk; uint64_t kcols; unsigned kocc; int alpha, beta, ply; } open[16];
} Ctx;

/* Add the pending nodes to the control and its ancestors; 1 if the search must stop. */
static int control_add(QkBudget *c, int64_t pending)
{
    int stop = 0;
    double t = -1.0;
    for (; c; c = c->parent) {
        int64_t total = __atomic_add_fetch(&c->nodes, pending, __ATOMIC_RELAXED);
        if (__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
            stop = 1;
            continue;
        }
        if (c->deadline > 0 && t < 0) t = qk_now();
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
static inline unsigned danger_after(const QkRules *R, const Board *B, unsigned dex_d, int d, int p)
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
static int score_moves(const QkRules *R, const Board *B, int hand, unsigned supply, int dedupe,
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

/* -- sharing a search between threads ---------------------------------- */

/* Threads searching one node together (qk_search_shared) run the same
 * algorithm over the same table, and split the work as the simplified ABDADA
 * does: at a node with at least QK_BUSY_MIN empty cells, a child that another
 * thread is searching right now is put off until the node's other children
 * are done, by when the other thread has usually stored its value in the
 * table.  The first child is never put off, and children are put off only at
 * nodes expected to need all of them (ALL nodes, cut == 0): at a node expected
 * to cut off (cut == 1) the threads take the children in the same order and
 * split up below, so that none of them searches a sibling that the cutoff
 * would have spared.  The root is expected to cut off; a CUT node's first
 * child is expected ALL, and its later children (the node did not cut off
 * after all) and an ALL node's children are expected CUT.  Sharing out at CUT
 * nodes too cost classic's whole game 695 M nodes on two threads instead of
 * 547 M (514 M on one).  A thread also looks in the table,
 * before each child and every FLUSH_EVERY nodes, for a node on its path that
 * another thread has settled meanwhile, and returns to it at once (x->open,
 * x->unwind).  A lost or stale mark only costs work twice, never a wrong value:
 * every value still comes from a search or the table. */

static inline uint64_t child_hash(const Board *b, int hand)
{
    uint64_t k = (uint64_t)b->occ | (uint64_t)b->bits[0] << 16 | (uint64_t)b->bits[1] << 32
                 | (uint64_t)b->bits[2] << 48;
    uint64_t h = k * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)b->bits[3] << 4 | (unsigned)hand)
                 * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    return h | 1;   /* never 0: 0 is a free slot */
}

/* Claim the child H for this thread; 0 if another thread holds it (the
 * exchange makes sure two threads arriving at once do not both get it). */
static inline int busy_claim(QkBusy *busy, uint64_t h)
{
    return __atomic_exchange_n(&busy->slot[h >> 52 & (QK_BUSY_SLOTS - 1)], h, __ATOMIC_RELAXED) != h;
}

static inline void busy_clear(QkBusy *busy, uint64_t h)
{
    uint64_t expected = h;
    __atomic_compare_exchange_n(&busy->slot[h >> 52 & (QK_BUSY_SLOTS - 1)], &expected, 0, 0,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The score another thread has stored for an open node, if it settles the
 * node within the window it is searched with. */
static int settled(const QkBucket *bk, unsigned kocc, uint64_t kcols, int alpha, int beta,
                   int ply, int *score)
{
    int flag, v;
    if (!tt_probe(bk, kocc, kcols, &flag, &v)) return 0;
    if (v > 0) v -= ply; else if (v < 0) v += ply;
    if (flag == FLAG_EXACT || (flag == FLAG_LOWER && v >= beta) || (flag == FLAG_UPPER && v <= alpha)) {
        *score = v;
        return 1;
    }
    return 0;
}

/* Look for the outermost open node another thread has settled: the search
 * under it is wasted, so it unwinds to that node (x->unwind). */
static void find_settled(Ctx *x)
{
    for (int i = 0; i < x->depth; i++) {
        int v;
        if (settled(x->open[i].bk, x->open[i].kocc, x->open[i].kcols, x->open[i].alpha,
                    x->open[i].beta, x->open[i].ply, &v)) {
            x->unwind = i;
            return;
        }
    }
}

/* -- search ------------------------------------------------------------- */

static int search(Ctx *x, const Board *B, int hand, unsigned supply, int ply, int alpha, int beta,
                  int cut)
{
    if (++x->pending >= FLUSH_EVERY) {
        if (flush(x)) {
            x->aborted = 1;
            return 0;
        }
        if (x->depth) find_settled(x);
    }
    if (x->unwind >= 0) return 0;
    if (!supply) return 0;  /* the last piece, which cannot win: a draw */
    const QkRules *R = x->R;
    int empties = 16 - pop16(B->occ);
    int lo = -(QK_WIN - ply - 2);
    int hi = empties >= 3 ? QK_WIN - ply - 3 : 0;
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    int alpha0 = alpha;

    int probe = empties >= R->tt_min;
    unsigned kocc = 0;
    uint64_t kcols = 0;
    QkBucket *bk = NULL;
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
        QkBusy *busy = empties >= QK_BUSY_MIN && probe ? x->busy : NULL;
        int level = -1;
        if (busy && x->depth < 16) {
            level = x->depth++;
            x->open[level].bk = bk, x->open[level].kocc = kocc, x->open[level].kcols = kcols;
            x->open[level].alpha = alpha0, x->open[level].beta = beta, x->open[level].ply = ply;
        } else {
            busy = NULL;
        }
        uint8_t later[QK_MAX_TURNS];
        int nlater = 0, searched = 0;
        for (int pass = 0; pass < 2; pass++) {
            int count = pass ? nlater : n;
            for (int k = 0; k < count; k++) {
                int i = pass ? later[k] : k;
                int c = MOVE_CELL(moves[i]), q = MOVE_PIECE(moves[i]);
                uint64_t h = 0;
                if (busy) {
                    /* Another thread may have settled this node meanwhile. */
                    int v;
                    if ((k > 0 || pass) && best <= alpha0
                        && settled(bk, kocc, kcols, alpha0, beta, ply, &v)) {
                        x->depth = level;
                        return v;
                    }
                    h = child_hash(&boards[c], q);
                    if (!busy_claim(busy, h) && !pass && k > 0 && !cut) {
                        later[nlater++] = (uint8_t)i;
                        continue;
                    }
                }
                int v = -search(x, &boards[c], q, supply & ~(1u << q), ply + 1, -beta, -alpha,
                                !cut || searched > 0);
                searched++;
                if (busy) busy_clear(busy, h);
                if (x->aborted) return 0;
                if (x->unwind >= 0) {
                    if (x->unwind < level || level < 0) {
                        if (level >= 0) x->depth = level;
                        return 0;
                    }
                    x->unwind = -1;  /* this node is settled, or it was overwritten: search on */
                    if (best <= alpha0 && settled(bk, kocc, kcols, alpha0, beta, ply, &v)) {
                        x->depth = level;
                        return v;
                    }
                    k--;  /* search the child again */
                    continue;
                }
                if (v > best) {
                    best = v;
                    if (v > alpha) {
                        alpha = v;
                        if (v >= beta) goto shared_done;
                    }
                }
            }
        }
    shared_done:
        if (level >= 0) x->depth = level;
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
            int v = -search(x, &k->b, q, supply & ~(1u << q), ply + 1, -beta, -alpha, !cut);
            if (x->aborted || x->unwind >= 0) return 0;
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
/* -- rules -------------------------------------------------------------- */

static void rules_derive(QkRules *R, int traits)
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
    memset(R->csm, 0, sizeof R->csm);
    for (int s = 0; s < R->nshapes; s++) {
        for (int c = 0; c < 16; c++) {
            if (R->shape[s] >> c & 1) {
                if (R->ncs[c] < 8) R->cs[c][R->ncs[c]] = (uint8_t)s;
                R->ncs[c]++;
                R->csm[c] |= 1u << s;
            }
        }
    }
}

static void rules_symmetry(QkRules *R, int s, const uint8_t *perm)
{
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

int qk_rules_init(QkRules *R, const uint16_t *shapes, int nshapes, int traits,
                  const uint8_t (*syms)[16], int nsyms, int tt_min, int canon_min, int order_min)
{
    memset(R, 0, sizeof *R);
    if (traits < 1 || traits > 15) return QK_ERR_TRAITS;
    if (nshapes < 1 || nshapes > QK_MAX_SHAPES) return QK_ERR_SHAPES;
    for (int s = 0; s < nshapes; s++) {
        if (pop16(shapes[s]) != 4) return QK_ERR_SHAPES;
        R->shape[s] = shapes[s];
    }
    if (nsyms < 0 || nsyms > QK_MAX_SYMS) return QK_ERR_SYMS;
    uint8_t found[QK_MAX_SYMS][16];
    if (nsyms == 0) {
        nsyms = qk_board_symmetries(shapes, nshapes, found);
        if (nsyms > QK_MAX_SYMS) return QK_ERR_SYMS;
        syms = (const uint8_t (*)[16])found;
    }
    for (int s = 0; s < nsyms; s++) rules_symmetry(R, s, syms[s]);
    R->nsyms = nsyms;
    R->nshapes = nshapes;
    R->tt_min = tt_min;
    R->canon_min = canon_min;
    R->order_min = order_min;
    rules_derive(R, traits);
    for (int c = 0; c < 16; c++) {
        if (R->ncs[c] > 8) return QK_ERR_SHAPES;
    }
    return QK_OK;
}

static unsigned permute_mask(unsigned mask, const uint8_t *perm)
{
    unsigned out = 0;
    for (int c = 0; c < 16; c++) {
        if (mask >> c & 1) out |= 1u << perm[c];
    }
    return out;
}

/* The 24 permutations of 0..3 in lexicographic order (as itertools.permutations). */
static void permutations4(uint8_t (*out)[4])
{
    int n = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++) {
                    if (a == b || a == c || a == d || b == c || b == d || c == d) continue;
                    out[n][0] = (uint8_t)a, out[n][1] = (uint8_t)b;
                    out[n][2] = (uint8_t)c, out[n][3] = (uint8_t)d;
                    n++;
                }
}

int qk_board_symmetries(const uint16_t *shapes, int nshapes, uint8_t (*out)[16])
{
    uint8_t p4[24][4];
    permutations4(p4);
    int n = 1;
    for (int c = 0; c < 16; c++) out[0][c] = (uint8_t)c;
    for (int transpose = 0; transpose < 2; transpose++) {
        for (int r = 0; r < 24; r++) {
            for (int k = 0; k < 24; k++) {
                const uint8_t *rows = p4[r], *cols = p4[k];
                uint8_t perm[16];
                int identity = 1;
                for (int c = 0; c < 16; c++) {
                    perm[c] = (uint8_t)(transpose ? cols[c % 4] * 4 + rows[c / 4]
                                                  : rows[c / 4] * 4 + cols[c % 4]);
                    identity &= perm[c] == c;
                }
                if (identity) continue;
                int maps = 1;
                for (int s = 0; s < nshapes && maps; s++) {
                    unsigned image = permute_mask(shapes[s], perm);
                    int hit = 0;
                    for (int t = 0; t < nshapes; t++) hit |= shapes[t] == image;
                    maps = hit;
                }
                if (maps && n < QK_MAX_SYMS) memcpy(out[n++], perm, 16);
                else if (maps) n++;
            }
        }
    }
    return n;
}

/* -- table -------------------------------------------------------------- */

int qk_table_init(QkTable *T, uint64_t entries)
{
    memset(T, 0, sizeof *T);
    if (entries < BUCKET || (entries & (entries - 1))) return QK_ERR_ENTRIES;
    uint64_t nbuckets = entries / BUCKET;
    if (nbuckets > (SIZE_MAX - 64) / sizeof(QkBucket)) return QK_ERR_MEMORY;
    size_t bytes = (size_t)nbuckets * sizeof(QkBucket) + 64;
    void *raw = NULL;
#ifdef __linux__
    /* A large table is probed all over: in 2 MiB pages it misses the TLB far
     * less.  The pages are zero, and only touched on first use. */
    if (bytes >= TABLE_HUGE) {
        raw = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return QK_ERR_MEMORY;
        madvise(raw, bytes, MADV_HUGEPAGE);
        T->mapped = bytes;
    }
#endif
    if (!raw) raw = calloc(1, bytes);
    if (!raw) return QK_ERR_MEMORY;
    T->raw = raw;
    T->buckets = (QkBucket *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    T->mask = nbuckets - 1;
    return QK_OK;
}

void qk_table_clear(QkTable *T)
{
    if (T->buckets) memset(T->buckets, 0, (size_t)(T->mask + 1) * sizeof(QkBucket));
}

void qk_table_free(QkTable *T)
{
#ifdef __linux__
    if (T->mapped) {
        munmap(T->raw, T->mapped);
        memset(T, 0, sizeof *T);
        return;
    }
#endif
    free(T->raw);
    memset(T, 0, sizeof *T);
}

uint64_t qk_table_bytes(const QkTable *T)
{
    return T->buckets ? (T->mask + 1) * (uint64_t)sizeof(QkBucket) : 0;
}

/* -- budget ------------------------------------------------------------- */

void qk_budget_init(QkBudget *b, int64_t node_limit, double seconds, QkBudget *parent)
{
    b->nodes = 0;
    b->node_limit = node_limit > 0 ? node_limit : 0;
    b->deadline = seconds > 0 ? qk_now() + seconds : 0.0;
    b->stop = 0;
    b->parent = parent;
}

void qk_budget_stop(QkBudget *b) { __atomic_store_n(&b->stop, 1, __ATOMIC_RELAXED); }

int64_t qk_budget_nodes(const QkBudget *b) { return __atomic_load_n(&b->nodes, __ATOMIC_RELAXED); }

int qk_budget_stopped(const QkBudget *b) { return __atomic_load_n(&b->stop, __ATOMIC_RELAXED); }

/* -- entry points ------------------------------------------------------- */

static void board_from_cells(const QkRules *R, unsigned occ, uint64_t cells, Board *b)
{
    board_empty(R, b);
    for (int c = 0; c < 16; c++) {
        if (occ >> c & 1) {
            Board next;
            place(R, b, &next, c, (int)(cells >> (4 * c) & 15));
            *b = next;
        }
    }
}

int qk_search(const QkRules *R, QkTable *T, QkBudget *B, uint16_t occ, uint64_t cells,
              int hand, uint16_t supply, int ply, int alpha, int beta, int *score)
{
    return qk_search_shared(R, T, B, NULL, occ, cells, hand, supply, ply, alpha, beta, score);
}

int qk_search_shared(const QkRules *R, QkTable *T, QkBudget *B, QkBusy *busy, uint16_t occ,
                     uint64_t cells, int hand, uint16_t supply, int ply, int alpha, int beta,
                     int *score)
{
    Board b;
    board_from_cells(R, occ, cells, &b);
    Ctx x = {R, T, B, 0, 0, busy, -1, 0, {{0}}};
    int v = search(&x, &b, hand, supply, ply, alpha, beta, 1);
    if (x.aborted) return 0;
    control_add(B, x.pending);
    *score = v;
    return 1;
}

int qk_moves(const QkRules *R, uint16_t occ, uint64_t cells, int hand, uint16_t supply,
             QkMove *out)
{
    Board b;
    board_from_cells(R, occ, cells, &b);
    Board boards[16];
    uint32_t moves[QK_MAX_TURNS];
    uint8_t mobs[QK_MAX_TURNS];
    int n = score_moves(R, &b, hand, supply, 0, 0, boards, moves, mobs);
    for (int i = 0; i < n; i++) {
        out[i].cell = (uint8_t)MOVE_CELL(moves[i]);
        out[i].piece = (uint8_t)MOVE_PIECE(moves[i]);
        out[i].key = (uint16_t)MOVE_KEY(moves[i]);
        out[i].mobility = mobs[i];
    }
    return n;
}

void qk_key(const QkRules *R, uint16_t occ, uint64_t cells, int hand, int canon,
            unsigned *kocc, uint64_t *kcols)
{
    Board b;
    board_from_cells(R, occ, cells, &b);
    make_key(R, &b, hand, canon, kocc, kcols);
}

uint16_t qk_danger(const QkRules *R, uint16_t occ, uint64_t cells)
{
    Board b;
    board_from_cells(R, occ, cells, &b);
    unsigned d = 0;
    for (int c = 0; c < 16; c++) d |= b.dcell[c];
    return (uint16_t)d;
}

uint16_t qk_winning_cells(const QkRules *R, uint16_t occ, uint64_t cells, int piece)
{
    Board b;
    board_from_cells(R, occ, cells, &b);
    unsigned w = 0;
    for (int c = 0; c < 16; c++) {
        if (b.dcell[c] >> piece & 1) w |= 1u << c;
    }
    return (uint16_t)w;
}
