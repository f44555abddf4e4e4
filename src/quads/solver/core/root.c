/*
 * Solving and analysing a whole position over the search core: the root
 * turns in groups, searched one after the other.
 *
 * This is the single-threaded form of the Python library's root
 * (quads/solver/root.py) and stages (quads/solver/search.py): the same
 * groups of symmetric turns, the same order, the same windows, so with the
 * same table a solve visits the same nodes as the Python solve with one
 * thread (and with refining of drawing turns turned off).
 */

#include "search.h"

#include <string.h>

#define INFINITY_SCORE (QK_WIN + 1)

typedef struct {
    int lower, upper;
    int searched;           /* the kernel searches NODE; else the score is known */
    uint16_t occ, supply;
    uint64_t cells;
    int hand, ply;
    unsigned kocc;
    uint64_t kcols;
    int order;
    int first;              /* its first turn (in legal-turn order) */
} Group;

typedef struct {
    const QkRules *R;
    QkTable *T;
    QkBudget *B;
    int nturns, ngroups;
    QkTurn turns[QK_MAX_TURNS];
    int turn_group[QK_MAX_TURNS];
    Group groups[QK_MAX_TURNS];
    int sorted[QK_MAX_TURNS];   /* group indices in search order */
} Root;

static int exact_of(const Group *g, int *score)
{
    if (g->lower != g->upper) return 0;
    *score = g->lower;
    return 1;
}

static void learn(Group *g, int score, int alpha, int beta)
{
    if (score <= alpha) {
        if (score < g->upper) g->upper = score;
    } else if (score >= beta) {
        if (score > g->lower) g->lower = score;
    } else {
        g->lower = g->upper = score;
    }
}

static void add_turn(Root *r, int place, int give, int group)
{
    QkTurn *t = &r->turns[r->nturns];
    t->place = (int8_t)place;
    t->give = (int8_t)give;
    t->known = 0;
    t->score = 0;
    r->turn_group[r->nturns] = group;
    if (r->groups[group].first < 0) r->groups[group].first = r->nturns;
    r->nturns++;
}

static void known(Root *r, int place, int give, int score)
{
    Group *g = &r->groups[r->ngroups];
    memset(g, 0, sizeof *g);
    g->lower = g->upper = score;
    g->first = -1;
    add_turn(r, place, give, r->ngroups++);
}

static void searched(Root *r, int place, int give, uint16_t occ, uint64_t cells, int hand,
                     uint16_t supply, int ply)
{
    unsigned kocc;
    uint64_t kcols;
    qk_key(r->R, occ, cells, hand, 1, &kocc, &kcols);
    for (int i = 0; i < r->ngroups; i++) {
        Group *g = &r->groups[i];
        if (g->searched && g->kocc == kocc && g->kcols == kcols) {
            add_turn(r, place, give, i);
            return;
        }
    }
    Group *g = &r->groups[r->ngroups];
    memset(g, 0, sizeof *g);
    g->lower = -INFINITY_SCORE;
    g->upper = INFINITY_SCORE;
    g->searched = 1;
    g->occ = occ, g->cells = cells, g->hand = hand, g->supply = supply, g->ply = ply;
    g->kocc = kocc, g->kcols = kcols;
    g->first = -1;
    add_turn(r, place, give, r->ngroups++);
}

/* The search order of the groups, as root.py's _order(). */
static void order_groups(Root *r, uint16_t occ, uint64_t cells, int hand, uint16_t supply)
{
    int rank[QK_MAX_TURNS];
    for (int i = 0; i < r->nturns; i++) rank[i] = 500000;
    QkMove moves[QK_MAX_TURNS];
    if (hand >= 0) {
        int n = qk_moves(r->R, occ, cells, hand, supply, moves);
        for (int m = 0; m < n; m++) {
            for (int i = 0; i < r->nturns; i++) {
                if (r->turns[i].place == moves[m].cell && r->turns[i].give == moves[m].piece) {
                    rank[i] = m;
                    break;
                }
            }
        }
    } else {
        for (int i = 0; i < r->nturns; i++) {
            const Group *g = &r->groups[r->turn_group[i]];
            if (!g->searched) continue;
            int choices = qk_moves(r->R, g->occ, g->cells, g->hand, g->supply, moves);
            rank[i] = choices * 16 + r->turns[i].give;
        }
    }
    for (int k = 0; k < r->ngroups; k++) {
        Group *g = &r->groups[k];
        if (!g->searched) {
            g->order = (g->lower > 0 ? -1000000 : g->lower == 0 ? 1000000 : 2000000) + k;
        } else {
            g->order = 500000;
            for (int i = 0; i < r->nturns; i++) {
                if (r->turn_group[i] == k && rank[i] < g->order) g->order = rank[i];
            }
        }
    }
    for (int k = 0; k < r->ngroups; k++) {   /* a stable insertion sort */
        int j = k;
        while (j > 0 && r->groups[r->sorted[j - 1]].order > r->groups[k].order) {
            r->sorted[j] = r->sorted[j - 1];
            j--;
        }
        r->sorted[j] = k;
    }
}

/* The groups of the legal turns of a position, as root.py's root_groups(). */
static int root_build(Root *r, const QkRules *R, QkTable *T, QkBudget *B, uint16_t occ,
                      uint64_t cells, int hand)
{
    unsigned used = 0;
    for (int c = 0; c < 16; c++) {
        if (occ >> c & 1) {
            unsigned bit = 1u << (cells >> (4 * c) & 15);
            if (used & bit) return QK_ERR_POSITION;
            used |= bit;
        } else if (cells >> (4 * c) & 15) {
            return QK_ERR_POSITION;
        }
    }
    if (hand < -1 || hand > 15 || (hand >= 0 && (used >> hand & 1))) return QK_ERR_POSITION;
    if (hand >= 0 && occ == 0xFFFF) return QK_ERR_POSITION;
    if (hand >= 0) used |= 1u << hand;
    uint16_t supply = (uint16_t)(~used & 0xFFFF);
    r->R = R, r->T = T, r->B = B;
    r->nturns = r->ngroups = 0;
    if (hand < 0) {
        uint16_t danger = qk_danger(R, occ, cells);
        for (int q = 0; q < 16; q++) {
            if (!(supply >> q & 1)) continue;
            if (danger >> q & 1) known(r, -1, q, -(QK_WIN - 1));
            else searched(r, -1, q, occ, cells, q, (uint16_t)(supply & ~(1u << q)), 0);
        }
    } else {
        uint16_t winning = qk_winning_cells(R, occ, cells, hand);
        for (int c = 0; c < 16; c++) {
            if (occ >> c & 1) continue;
            if ((winning >> c & 1) || !supply) {
                known(r, c, -1, (winning >> c & 1) ? QK_WIN - 1 : 0);
                continue;
            }
            uint16_t pocc = (uint16_t)(occ | 1u << c);
            uint64_t pcells = cells | (uint64_t)hand << (4 * c);
            uint16_t danger = qk_danger(R, pocc, pcells);
            for (int q = 0; q < 16; q++) {
                if (!(supply >> q & 1)) continue;
                if (danger >> q & 1) known(r, c, q, -(QK_WIN - 2));
                else searched(r, c, q, pocc, pcells, q, (uint16_t)(supply & ~(1u << q)), 1);
            }
        }
    }
    order_groups(r, occ, cells, hand, supply);
    return QK_OK;
}

/* Search group G within (ALPHA, BETA): 1 and its fail-soft score, or 0 on budget. */
static int run(Root *r, Group *g, int alpha, int beta, int *score)
{
    int v;
    if (!qk_search(r->R, r->T, r->B, g->occ, g->cells, g->hand, g->supply, g->ply, -beta,
                   -alpha, &v))
        return 0;
    *score = -v;
    return 1;
}

/* The best score over the groups LIST[0..N) within (ALPHA, BETA), fail-soft, and
 * the index of its group in *BEST; 0 if the budget ran out. */
static int alpha_beta(Root *r, const int *list, int n, int alpha, int beta, int *best_score,
                      int *best_group)
{
    int best = -INFINITY_SCORE, best_g = -1;
    for (int i = 0; i < n && alpha < beta; i++) {
        Group *g = &r->groups[list[i]];
        int score;
        if (exact_of(g, &score)) {
        } else if (g->upper <= alpha) {
            score = g->upper;
        } else if (g->lower >= beta) {
            score = g->lower;
        } else if (!g->searched) {
            score = g->lower;
        } else {
            if (!run(r, g, alpha, beta, &score)) return 0;
            learn(g, score, alpha, beta);
        }
        if (score > best) best = score, best_g = list[i];
        if (score > alpha) alpha = score;
    }
    *best_score = best;
    *best_group = best_g;
    return 1;
}

static void set_best(const Root *r, int group, QkSolution *out)
{
    const QkTurn *t = &r->turns[r->groups[group].first];
    out->best.place = t->place;
    out->best.give = t->give;
}

int qk_solve(const QkRules *R, QkTable *T, QkBudget *B, uint16_t occ, uint64_t cells,
             int hand, int distance, QkSolution *out)
{
    Root root;          /* about 20 kB, on the stack: calls on other threads stay apart */
    Root *r = &root;
    memset(out, 0, sizeof *out);
    out->best.place = out->best.give = -1;
    int rc = root_build(r, R, T, B, occ, cells, hand);
    if (rc) return rc;
    if (!r->ngroups) {  /* the board is full: drawn */
        out->known = out->exact = 1;
        return QK_OK;
    }
    int score, group;
    if (!alpha_beta(r, r->sorted, r->ngroups, -1, 1, &score, &group)) return QK_OK;
    out->known = 1;
    out->score = score >= 1 ? 1 : score <= -1 ? -1 : 0;
    set_best(r, group, out);
    if (score == 0) {
        out->exact = 1;
        return QK_OK;
    }
    if (!distance) return QK_OK;
    int win = score >= 1;
    int list[QK_MAX_TURNS], n = 0;
    list[n++] = group;
    for (int i = 0; i < r->ngroups; i++) {
        int k = r->sorted[i];
        if (k != group && (r->groups[k].upper >= 1 || !win)) list[n++] = k;
    }
    int best, best_group;
    if (!alpha_beta(r, list, n, win ? 0 : -QK_WIN, win ? QK_WIN : 0, &best, &best_group))
        return QK_OK;
    out->exact = 1;
    out->score = best;
    set_best(r, best_group, out);
    return QK_OK;
}

int qk_analyse(const QkRules *R, QkTable *T, QkBudget *B, uint16_t occ, uint64_t cells,
               int hand, QkTurn *out)
{
    Root root;
    Root *r = &root;
    int rc = root_build(r, R, T, B, occ, cells, hand);
    if (rc) return rc;
    for (int i = 0; i < r->ngroups; i++) {
        Group *g = &r->groups[r->sorted[i]];
        int score;
        while (!exact_of(g, &score)) {
            int alpha = -1, beta = 1;
            if (g->lower >= 1) alpha = 0, beta = QK_WIN;
            else if (g->upper <= -1) alpha = -QK_WIN, beta = 0;
            if (!run(r, g, alpha, beta, &score)) goto out;
            learn(g, score, alpha, beta);
        }
    }
out:
    for (int i = 0; i < r->nturns; i++) {
        int score;
        out[i] = r->turns[i];
        if (exact_of(&r->groups[r->turn_group[i]], &score)) {
            out[i].known = 1;
            out[i].score = (int16_t)score;
        }
    }
    return r->nturns;
}

int qk_root_groups(const QkRules *R, uint16_t occ, uint64_t cells, int hand, QkTurn *turns,
                   int *turn_group, QkGroup *groups, int *ngroups)
{
    Root root;
    Root *r = &root;
    int rc = root_build(r, R, NULL, NULL, occ, cells, hand);
    if (rc) return rc;
    int rank[QK_MAX_TURNS];     /* group index -> its place in search order */
    for (int i = 0; i < r->ngroups; i++) {
        const Group *g = &r->groups[r->sorted[i]];
        QkGroup *out = &groups[i];
        rank[r->sorted[i]] = i;
        out->searched = g->searched;
        out->score = g->searched ? 0 : g->lower;
        out->occ = g->occ, out->supply = g->supply, out->cells = g->cells;
        out->hand = g->hand, out->ply = g->ply;
        out->kocc = g->kocc, out->kcols = g->kcols;
    }
    for (int i = 0; i < r->nturns; i++) {
        turns[i] = r->turns[i];
        turn_group[i] = rank[r->turn_group[i]];
    }
    *ngroups = r->ngroups;
    return r->nturns;
}
