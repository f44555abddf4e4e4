/*
 * Count the full boards with no win: the ways to put the sixteen pieces on the
 * sixteen cells (or to finish a board of which some cells are already filled)
 * so that no winning shape holds four pieces sharing a value of a counted trait.
 *
 * Built and driven by bench/draws.py, which takes the shape masks and the
 * counted traits from quads.rules.  Usage:
 *
 *   draws --shapes HEX,HEX,... --traits MASK [--board CELLS] [--threads N]
 *         [--tasks N] [--order CELLS] [--no-symmetry] [--progress SECONDS]
 *
 * --shapes   the cell masks of the winning shapes (cell 0 = bit 0), in hex
 * --traits   the counted traits as a 4-bit mask of piece bits (1..15)
 * --board    16 characters, one per cell 0..15: a hex digit for a placed piece
 *            or '.' for an empty cell (default: all empty)
 * --order    the empty cells in the order they are filled, as hex digits
 *            (default: a greedy order that completes shapes early)
 * --threads  worker threads (default 1)
 * --tasks    split the search into at least this many tasks where the board
 *            allows (default 4000)
 * --no-symmetry    do not use the symmetry of the pieces (to check it)
 * --progress S     report progress on stderr every S seconds (default 0: never)
 *
 * Output on stdout, one "key value" a line: labellings, multiplier, count,
 * nodes, tasks, order, seconds (wall clock), cpu (seconds of all threads).
 * "count" is the answer.
 *
 * How it counts
 * -------------
 * Only the counted traits matter, so a piece is replaced by its class, the
 * piece's code with the bits of the other traits cleared: with k counted
 * traits there are 2^k classes of 2^(4-k) pieces.  The search counts the
 * labellings of the empty cells with classes (each class used as often as it
 * has pieces left) in which no shape is won; each labelling stands for
 * prod over classes of (pieces left in the class)! boards, the "multiplier".
 *
 * The empty cells are filled depth first in a fixed order.  Every shape keeps
 * an 8-bit mask of what its placed pieces have in common (low nibble: the
 * counted traits where all are 1, high nibble: where all are 0), so a piece
 * may go on the last empty cell of a shape only if it shares none of those
 * bits: one table look-up per completed shape gives the allowed classes.
 *
 * Symmetry: the maps x -> perm(x) ^ m of classes (m a mask of counted traits,
 * perm a permutation of the counted traits' bits) carry labellings with no
 * win to labellings with no win.  The maps that fix every class already on
 * the board form a group H that also keeps the numbers of pieces left per
 * class; classes in one orbit of H are interchangeable on the next cell, so
 * only one class per orbit is searched there, weighted by the orbit's size, and
 * the next cell's group is the stabiliser of that class in H.  On the empty
 * board that fixes the first cell's class (weight 2^k) and narrows the next
 * ones by the permutations of the traits.
 */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SHAPES 64
#define MAX_GROUP 384

typedef unsigned long long u64;
typedef unsigned __int128 u128;

/* ---- the problem ------------------------------------------------------ */

static int n_shapes;
static unsigned shape_cells[MAX_SHAPES];
static unsigned traits;          /* counted trait bits (low nibble) */
static unsigned traits8;         /* traits | traits << 4 */
static int board[16];            /* fixed piece per cell, -1 if empty */

static int order[16];            /* the empty cells in search order */
static int n_empty;

/* Per search depth: the shapes through order[d] that this cell completes
 * (checked before placing) and those it only joins (their mask narrowed). */
static int n_check[16], check_list[16][MAX_SHAPES];
static int n_join[16], join_list[16][MAX_SHAPES];

static unsigned char bits8[16];  /* class -> its 8-bit trait values */
static uint16_t compat[256];     /* common mask -> classes that share none of it */

static unsigned char start_common[MAX_SHAPES];
static int start_count[16];      /* pieces left per class */
static uint16_t start_avail;     /* classes with pieces left */
static int shape_won_already;    /* a shape full of fixed pieces is won */

/* ---- the symmetry group on classes ------------------------------------- */

static int n_group;
static unsigned char group[MAX_GROUP][16];

static void build_group(void) {
    int bits[4], k = 0;
    for (int b = 0; b < 4; b++)
        if (traits >> b & 1) bits[k++] = b;
    int perm[4] = {0, 1, 2, 3};
    /* the permutations of the k counted bits: of the 4^k maps of k items to
     * 0..3, those that are bijections onto 0..k-1 */
    int total = 1;
    for (int i = 0; i < k; i++) total *= 4;
    n_group = 0;
    for (int code = 0; code < total; code++) {
        int c = code, used = 0, ok = 1;
        for (int i = 0; i < k; i++) {
            perm[i] = c % 4;
            c /= 4;
            if (perm[i] >= k || used >> perm[i] & 1) { ok = 0; break; }
            used |= 1 << perm[i];
        }
        if (!ok) continue;
        for (unsigned m = 0; m < 16; m++) {
            if (m & ~traits) continue;
            unsigned char *g = group[n_group++];
            for (unsigned x = 0; x < 16; x++) {
                unsigned y = 0;
                for (int i = 0; i < k; i++)
                    if (x >> bits[i] & 1) y |= 1u << bits[perm[i]];
                g[x] = (unsigned char)((y | (x & ~traits)) ^ m);
            }
        }
    }
}

/* ---- set-up ------------------------------------------------------------ */

static void die(const char *msg) {
    fprintf(stderr, "draws: %s\n", msg);
    exit(2);
}

static int popcount16(unsigned x) { return __builtin_popcount(x); }

/* A greedy order: each step takes the empty cell that completes the most
 * shapes, then the one whose shapes are nearest completion. */
static void greedy_order(void) {
    unsigned filled = 0;
    for (int c = 0; c < 16; c++)
        if (board[c] >= 0) filled |= 1u << c;
    n_empty = 0;
    while (filled != 0xFFFF) {
        int best = -1;
        long best_score = -1;
        for (int c = 0; c < 16; c++) {
            if (filled >> c & 1) continue;
            long completes = 0, near = 0, through = 0;
            for (int s = 0; s < n_shapes; s++) {
                if (!(shape_cells[s] >> c & 1)) continue;
                int have = popcount16(shape_cells[s] & filled);
                through++;
                if (have == popcount16(shape_cells[s]) - 1) completes++;
                near += (long)have * have;
            }
            long score = completes * 1000000 + near * 100 + through;
            if (score > best_score) { best_score = score; best = c; }
        }
        order[n_empty++] = best;
        filled |= 1u << best;
    }
}

static void prepare(void) {
    traits8 = traits | traits << 4;
    for (unsigned x = 0; x < 16; x++)
        bits8[x] = (unsigned char)((x | (~x & 15u) << 4) & traits8);
    for (unsigned m = 0; m < 256; m++) {
        uint16_t ok = 0;
        for (unsigned x = 0; x < 16; x++)
            if (!(x & ~traits) && !(bits8[x] & m)) ok |= (uint16_t)(1u << x);
        compat[m] = ok;
    }
    int per_class = 1 << (4 - popcount16(traits));
    for (unsigned x = 0; x < 16; x++) start_count[x] = (x & ~traits) ? 0 : per_class;
    int seen = 0;
    for (int c = 0; c < 16; c++) {
        if (board[c] < 0) continue;
        if (seen >> board[c] & 1) die("a piece is placed twice");
        seen |= 1 << board[c];
        start_count[board[c] & traits]--;
    }
    start_avail = 0;
    for (unsigned x = 0; x < 16; x++)
        if (start_count[x] > 0) start_avail |= (uint16_t)(1u << x);

    unsigned filled = 0;
    for (int c = 0; c < 16; c++)
        if (board[c] >= 0) filled |= 1u << c;
    shape_won_already = 0;
    for (int s = 0; s < n_shapes; s++) {
        unsigned char m = (unsigned char)traits8;
        for (int c = 0; c < 16; c++)
            if ((shape_cells[s] >> c & 1) && board[c] >= 0) m &= bits8[board[c] & traits];
        start_common[s] = m;
        if ((shape_cells[s] & filled) == shape_cells[s] && m) shape_won_already = 1;
    }
    for (int d = 0; d < n_empty; d++) {
        int c = order[d];
        n_check[d] = n_join[d] = 0;
        for (int s = 0; s < n_shapes; s++) {
            if (!(shape_cells[s] >> c & 1)) continue;
            unsigned rest = shape_cells[s] & ~(1u << c) & ~filled;
            if (rest == 0) check_list[d][n_check[d]++] = s;
            else join_list[d][n_join[d]++] = s;
        }
        filled |= 1u << c;
    }
}

/* ---- the search -------------------------------------------------------- */

typedef struct {
    unsigned char common[MAX_SHAPES];
    int count[16];
    u64 nodes;
} State;

static u64 search(State *st, int d, uint16_t avail) {
    st->nodes++;
    uint16_t allowed = avail;
    const int *chk = check_list[d];
    for (int i = 0; i < n_check[d]; i++) allowed &= compat[st->common[chk[i]]];
    if (d == n_empty - 1) return (u64)popcount16(allowed);
    if (!allowed) return 0;
    const int *join = join_list[d];
    int nj = n_join[d];
    unsigned char saved[MAX_SHAPES];
    for (int i = 0; i < nj; i++) saved[i] = st->common[join[i]];
    u64 total = 0;
    if (d == n_empty - 2) {
        /* The last cell: its completed shapes are those of depth d + 1; a
         * shape joined here narrows its mask by the class placed here. */
        const int *last = check_list[d + 1];
        int nl = n_check[d + 1];
        st->nodes += (u64)popcount16(allowed);
        while (allowed) {
            int x = __builtin_ctz(allowed);
            allowed &= (uint16_t)(allowed - 1);
            unsigned char b = bits8[x];
            for (int i = 0; i < nj; i++) st->common[join[i]] = saved[i] & b;
            uint16_t next = avail;
            if (st->count[x] == 1) next &= (uint16_t)~(1u << x);
            for (int i = 0; i < nl; i++) next &= compat[st->common[last[i]]];
            total += (u64)popcount16(next);
        }
        for (int i = 0; i < nj; i++) st->common[join[i]] = saved[i];
        return total;
    }
    while (allowed) {
        int x = __builtin_ctz(allowed);
        allowed &= (uint16_t)(allowed - 1);
        unsigned char b = bits8[x];
        for (int i = 0; i < nj; i++) st->common[join[i]] = saved[i] & b;
        uint16_t next = avail;
        if (--st->count[x] == 0) next &= (uint16_t)~(1u << x);
        total += search(st, d + 1, next);
        st->count[x]++;
    }
    for (int i = 0; i < nj; i++) st->common[join[i]] = saved[i];
    return total;
}

/* Place class x on order[d]; returns 0 if that wins a shape. */
static int place(State *st, int d, int x, uint16_t *avail) {
    for (int i = 0; i < n_check[d]; i++)
        if (!(compat[st->common[check_list[d][i]]] >> x & 1)) return 0;
    if (!(*avail >> x & 1)) return 0;
    for (int i = 0; i < n_join[d]; i++) st->common[join_list[d][i]] &= bits8[x];
    if (--st->count[x] == 0) *avail &= (uint16_t)~(1u << x);
    return 1;
}

static void initial_state(State *st) {
    memcpy(st->common, start_common, sizeof start_common);
    memcpy(st->count, start_count, sizeof start_count);
    st->nodes = 0;
}

/* ---- tasks: prefixes of the search, with symmetry weights -------------- */

typedef struct {
    unsigned char prefix[16];
    int length;
    u64 weight;
    u64 result;
} Task;

static Task *tasks;
static int n_tasks, cap_tasks;
static u64 prefix_nodes;

static void add_task(const unsigned char *prefix, int length, u64 weight) {
    if (n_tasks == cap_tasks) {
        cap_tasks = cap_tasks ? 2 * cap_tasks : 1024;
        tasks = realloc(tasks, (size_t)cap_tasks * sizeof *tasks);
        if (!tasks) die("out of memory");
    }
    Task *t = &tasks[n_tasks++];
    memcpy(t->prefix, prefix, 16);
    t->length = length;
    t->weight = weight;
    t->result = 0;
}

/* Enumerate the prefixes of length `depth`; `members` lists the group
 * elements that fix every class placed so far. */
static void make_tasks(State *st, int d, int depth, uint16_t avail, unsigned char *prefix,
                       u64 weight, const int *members, int n_members, int use_symmetry) {
    prefix_nodes++;
    if (d == depth || d == n_empty) {
        add_task(prefix, d, weight);
        return;
    }
    uint16_t allowed = avail;
    for (int i = 0; i < n_check[d]; i++) allowed &= compat[st->common[check_list[d][i]]];
    uint16_t done = 0;
    for (int x = 0; x < 16; x++) {
        if (!(allowed >> x & 1) || (done >> x & 1)) continue;
        int orbit_size = 1;
        int stab[MAX_GROUP], n_stab = 0;
        if (use_symmetry && n_members > 1) {
            uint16_t orbit = 0;
            for (int i = 0; i < n_members; i++) {
                int y = group[members[i]][x];
                orbit |= (uint16_t)(1u << y);
                if (y == x) stab[n_stab++] = members[i];
            }
            done |= orbit;
            orbit_size = popcount16(orbit);
        } else {
            done |= (uint16_t)(1u << x);
            for (int i = 0; i < n_members; i++) stab[n_stab++] = members[i];
        }
        State saved = *st;
        uint16_t next = avail;
        place(st, d, x, &next);
        prefix[d] = (unsigned char)x;
        make_tasks(st, d + 1, depth, next, prefix, weight * (u64)orbit_size, stab, n_stab,
                   use_symmetry);
        *st = saved;
    }
}

/* ---- workers ----------------------------------------------------------- */

static int next_task;
static int tasks_done;
static u64 total_nodes;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    State st;
    u64 nodes = 0;
    for (;;) {
        pthread_mutex_lock(&lock);
        int i = next_task < n_tasks ? next_task++ : -1;
        pthread_mutex_unlock(&lock);
        if (i < 0) break;
        Task *t = &tasks[i];
        initial_state(&st);
        uint16_t avail = start_avail;
        int ok = 1;
        for (int d = 0; d < t->length && ok; d++) ok = place(&st, d, t->prefix[d], &avail);
        if (!ok) die("internal error: a task's prefix is not valid");
        if (t->length == n_empty) t->result = 1;
        else t->result = search(&st, t->length, avail);
        nodes += st.nodes;
        pthread_mutex_lock(&lock);
        tasks_done++;
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    total_nodes += nodes;
    pthread_mutex_unlock(&lock);
    return NULL;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_u128(const char *key, u128 v) {
    char buf[48];
    int i = 47;
    buf[i] = 0;
    do {
        buf[--i] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    printf("%s %s\n", key, buf + i);
}

static int hex_digit(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

int main(int argc, char **argv) {
    const char *shapes_arg = NULL, *board_arg = NULL, *order_arg = NULL;
    int threads = 1, want_tasks = 4000, use_symmetry = 1;
    double progress = 0;
    traits = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-symmetry")) { use_symmetry = 0; continue; }
        if (!v) die("an option lacks its value");
        if (!strcmp(a, "--shapes")) shapes_arg = v;
        else if (!strcmp(a, "--traits")) traits = (unsigned)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--board")) board_arg = v;
        else if (!strcmp(a, "--order")) order_arg = v;
        else if (!strcmp(a, "--threads")) threads = atoi(v);
        else if (!strcmp(a, "--tasks")) want_tasks = atoi(v);
        else if (!strcmp(a, "--progress")) progress = atof(v);
        else die("unknown option");
        i++;
    }
    if (!shapes_arg) die("--shapes is required");
    if (traits < 1 || traits > 15) die("--traits must be 1..15");
    if (threads < 1) threads = 1;
    n_shapes = 0;
    for (const char *p = shapes_arg; *p;) {
        char *end;
        unsigned long m = strtoul(p, &end, 16);
        if (end == p || m == 0 || m > 0xFFFF) die("bad shape mask");
        if (n_shapes == MAX_SHAPES) die("too many shapes");
        shape_cells[n_shapes++] = (unsigned)m;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') die("bad shape list");
    }
    for (int c = 0; c < 16; c++) board[c] = -1;
    if (board_arg) {
        if (strlen(board_arg) != 16) die("--board needs 16 characters");
        for (int c = 0; c < 16; c++) {
            if (board_arg[c] == '.') continue;
            int p = hex_digit(board_arg[c]);
            if (p < 0) die("bad --board character");
            board[c] = p;
        }
    }
    if (order_arg) {
        unsigned seen = 0;
        n_empty = 0;
        for (const char *p = order_arg; *p; p++) {
            int c = hex_digit(*p);
            if (c < 0 || board[c] >= 0 || (seen >> c & 1)) die("bad --order");
            seen |= 1u << c;
            order[n_empty++] = c;
        }
        for (int c = 0; c < 16; c++)
            if (board[c] < 0 && !(seen >> c & 1)) die("--order misses an empty cell");
    } else {
        greedy_order();
    }
    prepare();
    build_group();

    double began = now();
    u128 labellings = 0;
    u128 multiplier = 1;
    for (int x = 0; x < 16; x++)
        for (int f = 2; f <= start_count[x]; f++) multiplier *= (u128)f;

    if (!shape_won_already && n_empty > 0) {
        /* group elements that fix every class already on the board */
        int members[MAX_GROUP], n_members = 0;
        for (int g = 0; g < n_group; g++) {
            int ok = 1;
            for (int c = 0; c < 16; c++)
                if (board[c] >= 0 && group[g][board[c] & traits] != (board[c] & traits)) ok = 0;
            if (ok) members[n_members++] = g;
        }
        State st;
        unsigned char prefix[16] = {0};
        int depth = 0;
        do {
            depth++;
            n_tasks = 0;
            prefix_nodes = 0;
            initial_state(&st);
            make_tasks(&st, 0, depth, start_avail, prefix, 1, members, n_members, use_symmetry);
        } while (n_tasks < want_tasks && depth < n_empty);

        pthread_t tid[64];
        if (threads > 64) threads = 64;
        for (int i = 0; i < threads; i++) pthread_create(&tid[i], NULL, worker, NULL);
        if (progress > 0) {
            double report = began + progress;
            for (;;) {
                usleep(20000);
                pthread_mutex_lock(&lock);
                int done = tasks_done;
                pthread_mutex_unlock(&lock);
                if (done >= n_tasks) break;
                if (now() >= report) {
                    fprintf(stderr, "progress %d %d %.1f\n", done, n_tasks, now() - began);
                    fflush(stderr);
                    report += progress;
                }
            }
        }
        for (int i = 0; i < threads; i++) pthread_join(tid[i], NULL);
        for (int i = 0; i < n_tasks; i++) labellings += (u128)tasks[i].weight * tasks[i].result;
        total_nodes += prefix_nodes;
    } else if (!shape_won_already) {
        labellings = 1;
    }
    print_u128("labellings", labellings);
    print_u128("multiplier", multiplier);
    print_u128("count", labellings * multiplier);
    printf("nodes %llu\n", total_nodes);
    printf("tasks %d\n", n_tasks);
    printf("order");
    for (int d = 0; d < n_empty; d++) printf(" %d", order[d]);
    printf("\nseconds %.3f\n", now() - began);
    printf("cpu %.3f\n", cpu_now());
    return 0;
}
