/* Polyglot opening books: the file checked once when opened, then binary search by
 * key with pread, and each entry's move decoded against the legal moves. */
#include "book.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "state.h"

/* Entries read at a time while checking the file on open. */
#define BOOK_CHECK_CHUNK 4096
/* Moves of one position looked at, at most (no position has more legal moves). */
#define BOOK_POSITION_MAX CHESS_MAX_MOVES

/* Move field of an entry (see book.h). */
#define BK_TO(raw) ((int)((raw)&63))
#define BK_FROM(raw) ((int)(((raw) >> 6) & 63))
#define BK_PROMO(raw) ((int)(((raw) >> 12) & 7))

struct chess_book {
    int fd;
    long entries;
};

struct book_entry {
    Key key;
    unsigned move, weight;
    uint32_t learn;
};

static uint64_t be_read(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = v << 8 | p[i];
    return v;
}

static void entry_decode(const unsigned char *p, struct book_entry *e)
{
    e->key = be_read(p, 8);
    e->move = (unsigned)be_read(p + 8, 2);
    e->weight = (unsigned)be_read(p + 10, 2);
    e->learn = (uint32_t)be_read(p + 12, 4);
}

/* Read `count` entries from index `first` into buf: 0, or -1 on a short read. */
static int read_entries(const struct chess_book *b, long first, long count, unsigned char *buf)
{
    size_t want = (size_t)count * CHESS_BOOK_ENTRY_SIZE, done = 0;
    off_t at = (off_t)first * CHESS_BOOK_ENTRY_SIZE;
    while (done < want) {
        ssize_t r = pread(b->fd, buf + done, want - done, at + (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO; /* the file shrank under us */
            return -1;
        }
        done += (size_t)r;
    }
    return 0;
}

/* Every entry in key order with a promotion piece that exists. */
static int check_entries(const struct chess_book *b, const char *path, char *err, size_t err_size)
{
    unsigned char *buf = malloc(BOOK_CHECK_CHUNK * CHESS_BOOK_ENTRY_SIZE);
    if (!buf)
        return fail(err, err_size, "book '%s': out of memory", path);
    Key prev = 0;
    int rc = 0;
    for (long first = 0; first < b->entries && !rc; first += BOOK_CHECK_CHUNK) {
        long n = b->entries - first < BOOK_CHECK_CHUNK ? b->entries - first : BOOK_CHECK_CHUNK;
        if (read_entries(b, first, n, buf) != 0) {
            rc = fail(err, err_size, "book '%s': cannot read entries %ld..%ld", path, first,
                      first + n - 1);
            break;
        }
        for (long i = 0; i < n && !rc; i++) {
            struct book_entry e;
            entry_decode(buf + i * CHESS_BOOK_ENTRY_SIZE, &e);
            if (first + i > 0 && e.key < prev)
                rc = fail(err, err_size,
                          "book '%s': entry %ld is out of key order (not a Polyglot book?)", path,
                          first + i);
            else if (BK_PROMO(e.move) > 4)
                rc = fail(err, err_size, "book '%s': entry %ld has promotion piece %d (0..4)", path,
                          first + i, BK_PROMO(e.move));
            prev = e.key;
        }
    }
    free(buf);
    return rc;
}

int chess_book_open(const char *path, struct chess_book **out, char *err, size_t err_size)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(err, err_size, "cannot open book '%s': %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return fail(err, err_size, "book '%s' is not a regular file", path);
    }
    if (sb.st_size == 0 || sb.st_size % CHESS_BOOK_ENTRY_SIZE != 0) {
        close(fd);
        if (sb.st_size == 0)
            return fail(err, err_size, "book '%s' is empty", path);
        return fail(err, err_size,
                    "book '%s': %lld bytes is not a whole number of %d-byte entries "
                    "(truncated?)",
                    path, (long long)sb.st_size, CHESS_BOOK_ENTRY_SIZE);
    }
    struct chess_book *b = malloc(sizeof *b);
    if (!b) {
        close(fd);
        return fail(err, err_size, "book '%s': out of memory", path);
    }
    b->fd = fd;
    b->entries = (long)(sb.st_size / CHESS_BOOK_ENTRY_SIZE);
    if (check_entries(b, path, err, err_size) != 0) {
        chess_book_close(b);
        return -1;
    }
    *out = b;
    return 0;
}

void chess_book_close(struct chess_book *b)
{
    if (!b)
        return;
    close(b->fd);
    free(b);
}

long chess_book_entries(const struct chess_book *b)
{
    return b->entries;
}

Move chess_book_decode(const void *st, unsigned raw)
{
    const struct chess_pos *p = &((const struct chess_state *)st)->pos;
    int from = BK_FROM(raw), to = BK_TO(raw), promo = BK_PROMO(raw);
    /* King takes own rook on its rank: castling, which agora writes as the king's
     * two-square step. */
    int pc = p->board[from], target = p->board[to];
    if (PIECE_TYPE(pc) == KING && target != EMPTY && PIECE_TYPE(target) == ROOK &&
        PIECE_COLOR(target) == PIECE_COLOR(pc) && SQ_RANK(from) == SQ_RANK(to))
        to = SQ(SQ_FILE(to) > SQ_FILE(from) ? 6 : 2, SQ_RANK(from));
    Move moves[CHESS_MAX_MOVES];
    int n = chess_gen_legal(p, moves);
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (MV_FROM(m) != from || MV_TO(m) != to)
            continue;
        int is_promo = MV_KIND(m) == MK_PROMOTION;
        if (promo ? is_promo && MV_PROMO(m) == promo + PAWN : !is_promo)
            return m;
    }
    return 0;
}

unsigned chess_book_encode(const void *st, Move m)
{
    (void)st;
    int from = MV_FROM(m), to = MV_TO(m);
    if (MV_KIND(m) == MK_CASTLING)
        to = SQ(MV_TO(m) > from ? 7 : 0, SQ_RANK(from));
    unsigned promo = MV_KIND(m) == MK_PROMOTION ? (unsigned)(MV_PROMO(m) - PAWN) : 0;
    return (unsigned)to | (unsigned)from << 6 | promo << 12;
}

/* The index of the first entry with a key >= key (entries when none). */
static long lower_bound(const struct chess_book *b, Key key, int *io_error)
{
    long lo = 0, hi = b->entries;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        unsigned char buf[CHESS_BOOK_ENTRY_SIZE];
        if (read_entries(b, mid, 1, buf) != 0) {
            *io_error = 1;
            return 0;
        }
        if (be_read(buf, 8) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int chess_book_moves(const struct chess_book *b, const void *st, struct chess_book_move *out,
                     int max, char *err, size_t err_size)
{
    Key key = ((const struct chess_state *)st)->pos.key;
    int io_error = 0, n = 0;
    long i = lower_bound(b, key, &io_error);
    for (; !io_error && i < b->entries && n < max; i++) {
        unsigned char buf[CHESS_BOOK_ENTRY_SIZE];
        struct book_entry e;
        if (read_entries(b, i, 1, buf) != 0) {
            io_error = 1;
            break;
        }
        entry_decode(buf, &e);
        if (e.key != key)
            break;
        Move m = chess_book_decode(st, e.move);
        if (m)
            out[n++] = (struct chess_book_move){m, e.weight, e.learn};
    }
    if (io_error)
        return fail(err, err_size, "cannot read the book: %s", strerror(errno));
    return n;
}

int chess_book_pick(const struct chess_book *b, const void *st, struct rng *r, Move *out, char *err,
                    size_t err_size)
{
    struct chess_book_move moves[BOOK_POSITION_MAX];
    int n = chess_book_moves(b, st, moves, BOOK_POSITION_MAX, err, err_size);
    if (n < 0)
        return -1;
    uint32_t total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    if (total == 0)
        return 0;
    uint32_t x = rng_below(r, total);
    for (int i = 0; i < n; i++) {
        if (x < moves[i].weight) {
            *out = moves[i].move;
            return 1;
        }
        x -= moves[i].weight;
    }
    return 0; /* not reached: x < total */
}
