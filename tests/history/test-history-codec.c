/* test-history-codec.c: the compact coding of the state history (random
 * record sequences with tiny and huge time steps, extreme times, several
 * sequences written out interleaved, damaged bytes), the counts of summary
 * bins, histories with many short rows, damaged cache files, and the
 * writer's checksum taken as it writes. */
#include "ttv-history-test-util.h"
#include "ttv-error.h"
#include "ttv-temp-file.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- sequences ---- */

typedef enum {
  STEPS_TINY,      /* 0 or 1 ns */
  STEPS_SMALL,     /* up to a few µs */
  STEPS_MIXED,     /* any width, up to 2^40 */
  STEPS_HUGE,      /* up to 2^62 */
} Steps;

static GArray *
random_records (GRand *rand, guint n, gint64 first, Steps steps)
{
  GArray *recs = g_array_new (FALSE, FALSE, sizeof (TtvHistoryRec));
  gint64 t = first;
  for (guint i = 0; i < n; i++)
    {
      guint64 d = 0;
      switch (steps)
        {
        case STEPS_TINY:
          d = g_rand_int_range (rand, 0, 2);
          break;
        case STEPS_SMALL:
          d = g_rand_int_range (rand, 0, 5000);
          break;
        case STEPS_MIXED:
          d = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> g_rand_int_range (rand, 24, 64);
          break;
        case STEPS_HUGE:
          d = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> 2;
          break;
        }
      if (i > 0)
        t = d > (guint64) G_MAXINT64 - (guint64) t ? G_MAXINT64 : (gint64) ((guint64) t + d);
      TtvHistoryRec r;
      r.start = t;
      /* A few states that come back, as rows do; sometimes anything. */
      guint pick = g_rand_int_range (rand, 0, 10);
      r.key = (guint16) (pick < 8 ? (gint32) (pick % 3) : g_rand_int_range (rand, 0, 256));
      r.aux = pick < 5 ? 0 : pick < 8 ? 7 + pick : g_rand_int (rand);
      r.cpu = (gint16) (pick < 7 ? 2 : g_rand_int_range (rand, -1, 32768));
      r.count = pick < 6 ? pick : pick < 9 ? (guint32) g_rand_int_range (rand, 0, 5000) : g_rand_int (rand);
      g_array_append_val (recs, r);
    }
  return recs;
}

/* Sequences coded into one representation in memory, as the builder
 * writes them: interleaved, each written out in runs. */
typedef struct {
  TtvHistoryWriter w;
  TtvHistoryEncoder e[3];
  TtvHistorySeq seq[3];
} Coded;

/* Codes @recs into @c->seq[0] and two other sequences of their own
 * records between them, written out every @flush_every records (0: never). */
static void
encode_interleaved (const GArray *recs, Coded *c, guint flush_every)
{
  ttv_history_writer_init_memory (&c->w, 0, NULL);
  static const guint8 zeros[24] = { 0 };
  ttv_history_writer_append (&c->w, zeros, 3);   /* nothing starts at 0 */
  for (guint k = 0; k < 3; k++)
    ttv_history_encoder_init (&c->e[k]);
  for (guint i = 0; i < recs->len; i++)
    {
      const TtvHistoryRec *r = &g_array_index (recs, TtvHistoryRec, i);
      ttv_history_encoder_push (&c->e[0], &c->w, r);
      TtvHistoryRec other = *r;
      other.key = (guint16) (i % 3);
      ttv_history_encoder_push (&c->e[1 + i % 2], &c->w, &other);
      if (flush_every && i % flush_every == flush_every - 1)
        for (guint k = 0; k < 3; k++)
          ttv_history_encoder_flush (&c->e[k], &c->w);
    }
  for (guint k = 0; k < 3; k++)
    ttv_history_encoder_finish (&c->e[k], &c->w);
  for (guint k = 0; k < 3; k++)
    ttv_history_encoder_seq (&c->e[k], c->w.bytes->data, c->w.bytes->len, &c->seq[k]);
}

static void
encode (const GArray *recs, Coded *c)
{
  encode_interleaved (recs, c, 0);
}

static void
coded_clear (Coded *c)
{
  for (guint k = 0; k < 3; k++)
    ttv_history_encoder_clear (&c->e[k]);
  ttv_history_writer_clear (&c->w);
}

static void
assert_same_rec (const TtvHistoryRec *a, const TtvHistoryRec *b)
{
  g_assert_cmpint (a->start, ==, b->start);
  g_assert_cmpuint (a->key, ==, b->key & 0xff);
  g_assert_cmpint (a->cpu, ==, b->cpu);
  g_assert_cmpuint (a->aux, ==, b->aux);
  g_assert_cmpuint (a->count, ==, b->count);
}

/* The last record starting at or before @t, by brute force. */
static gint64
brute_find (const GArray *recs, gint64 t)
{
  gint64 found = -1;
  for (guint i = 0; i < recs->len; i++)
    if (g_array_index (recs, TtvHistoryRec, i).start <= t)
      found = i;
  return found;
}

/* The representation of @c in a temporary file, to read it from there. */
static int
coded_file (Coded *c)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("ttv-history-codec-XXXXXX", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  g_unlink (path);
  g_assert_cmpint (write (fd, c->w.bytes->data, c->w.bytes->len), ==, (gssize) c->w.bytes->len);
  return fd;
}

static void check_read (GRand *rand, const GArray *recs, const TtvHistorySeq *seq);

static void
check_sequence (GRand *rand, const GArray *recs)
{
  Coded coded;
  encode_interleaved (recs, &coded, (guint) g_rand_int_range (rand, 0, 700));
  g_assert_cmpuint (coded.seq[0].n_recs, ==, recs->len);
  guint64 bad;
  for (guint k = 0; k < 3; k++)
    g_assert_true (ttv_history_seq_validate (&coded.seq[k], &bad));
  /* In memory, then read from a file. */
  check_read (rand, recs, &coded.seq[0]);
  int fd = coded_file (&coded);
  TtvHistorySeq in_file = coded.seq[0];
  in_file.data = NULL;
  in_file.fd = fd;
  g_assert_true (ttv_history_seq_validate (&in_file, &bad));
  check_read (rand, recs, &in_file);
  close (fd);
  /* A file that holds only the bytes before a point, the rest still in
   * the writer's buffer: what the summary of a row that ended reads. */
  guint64 size = coded.w.bytes->len;
  guint64 cuts[] = { 0, (guint64) g_rand_int_range (rand, 0, (gint32) size + 1), size };
  for (guint k = 0; k < G_N_ELEMENTS (cuts); k++)
    {
      int part = coded_file (&coded);
      g_assert_cmpint (ftruncate (part, (off_t) cuts[k]), ==, 0);
      TtvHistorySeq split = in_file;
      split.fd = part;
      split.unwritten = coded.w.bytes->data + cuts[k];
      split.unwritten_from = cuts[k];
      g_assert_true (ttv_history_seq_validate (&split, &bad));
      check_read (rand, recs, &split);
      close (part);
    }
  coded_clear (&coded);
}

static void
check_read (GRand *rand, const GArray *recs, const TtvHistorySeq *seqp)
{
  const TtvHistorySeq seq = *seqp;

  /* Everything back, in order. */
  TtvHistoryCursor c;
  TtvHistoryRec rec;
  ttv_history_cursor_init (&c, &seq, 0);
  for (guint i = 0; i < recs->len; i++)
    {
      g_assert_true (ttv_history_cursor_next (&c, &rec));
      assert_same_rec (&rec, &g_array_index (recs, TtvHistoryRec, i));
    }
  g_assert_false (ttv_history_cursor_next (&c, &rec));

  /* Finding: at, just before and after every record of a sample, and far. */
  gint64 probes[] = { G_MININT64, -1, 0, 1, G_MAXINT64 - 1, G_MAXINT64 };
  for (guint k = 0; k < G_N_ELEMENTS (probes) + 3 * MIN (recs->len, 200u); k++)
    {
      gint64 t;
      if (k < G_N_ELEMENTS (probes))
        t = probes[k];
      else
        {
          guint j = recs->len < 200 ? (k - G_N_ELEMENTS (probes)) / 3
                                    : (guint) g_rand_int_range (rand, 0, (gint32) recs->len);
          gint64 s = g_array_index (recs, TtvHistoryRec, j).start;
          gint off = (gint) ((k - G_N_ELEMENTS (probes)) % 3) - 1;
          t = off < 0 && s == G_MININT64 ? s : off > 0 && s == G_MAXINT64 ? s : s + off;
        }
      gint64 want = brute_find (recs, t);
      gint64 got = ttv_history_seq_find (&seq, t, &c, &rec);
      g_assert_cmpint (got, ==, want);
      if (got >= 0)
        {
          assert_same_rec (&rec, &g_array_index (recs, TtvHistoryRec, got));
          /* The cursor goes on after it. */
          if ((guint64) got + 1 < recs->len)
            {
              g_assert_true (ttv_history_cursor_next (&c, &rec));
              assert_same_rec (&rec, &g_array_index (recs, TtvHistoryRec, got + 1));
            }
          else
            g_assert_false (ttv_history_cursor_next (&c, &rec));
        }
      else if (recs->len > 0)
        {
          g_assert_true (ttv_history_cursor_next (&c, &rec));
          assert_same_rec (&rec, &g_array_index (recs, TtvHistoryRec, 0));
        }
    }
}

static void
test_codec_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (41);
  /* Around blocks (32 records) and pieces (128 blocks, 4096 records). */
  static const guint sizes[] = { 0, 1, 2, 31, 32, 33, 64, 65, 1000, 4095, 4096, 4097, 9000 };
  static const Steps steps[] = { STEPS_TINY, STEPS_SMALL, STEPS_MIXED, STEPS_HUGE };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
      {
        /* From time 0, from a usual trace time, near the end of time. */
        gint64 firsts[] = { 0, G_GINT64_CONSTANT (1700000000000000000), G_MAXINT64 - 100000, G_MAXINT64,
                            -5000 };
        for (guint f = 0; f < G_N_ELEMENTS (firsts); f++)
          {
            g_autoptr (GArray) recs = random_records (rand, sizes[s], firsts[f], steps[k]);
            check_sequence (rand, recs);
          }
      }
  /* Many random sequences of random lengths. */
  for (guint i = 0; i < 200; i++)
    {
      g_autoptr (GArray) recs = random_records (rand, (guint) g_rand_int_range (rand, 0, 300),
                                                g_rand_int_range (rand, 0, 1000), (Steps) (i % 4));
      check_sequence (rand, recs);
    }
}

/* Directories of one piece (kept in the encoder), two (moved to the
 * heap) and more than the heap's first capacity: every record back. */
static void
test_codec_directory (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (43);
  static const guint sizes[] = { 4096, 4097, 8193, 4 * 4096 + 1, 9 * 4096 + 7 };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr (GArray) recs = random_records (rand, sizes[s], 1000, STEPS_MIXED);
      check_sequence (rand, recs);
      Coded coded;
      encode (recs, &coded);
      guint64 n_pieces = ttv_history_n_pieces (coded.seq[0].n_blocks);
      g_assert_cmpuint (coded.e[0].n_dir, ==, n_pieces);
      for (guint64 p = 0; p < n_pieces; p++)
        g_assert_cmpint (coded.seq[0].dir[p].start, ==,
                         g_array_index (recs, TtvHistoryRec, p * TTV_HISTORY_PIECE * TTV_HISTORY_BLOCK).start);
      coded_clear (&coded);
    }
}

/* The builder's slab: blocks zeroed, aligned, apart, over several chunks. */
static void
test_slab (void)
{
  TtvHistorySlab slab;
  ttv_history_slab_init (&slab);
  g_assert_cmpuint (ttv_history_slab_size (&slab), ==, 0);
  g_autoptr (GPtrArray) blocks = g_ptr_array_new ();
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize total = 0;
  for (guint i = 0; total < 3 * TTV_HISTORY_SLAB_CHUNK; i++)
    {
      gsize size = i == 100 ? TTV_HISTORY_SLAB_CHUNK : 1 + (i * 37) % 600;
      guint8 *p = ttv_history_slab_alloc0 (&slab, size);
      g_assert_nonnull (p);
      g_assert_cmpuint (GPOINTER_TO_SIZE (p) % 16, ==, 0);
      for (gsize k = 0; k < size; k++)
        g_assert_cmpuint (p[k], ==, 0);
      memset (p, (int) (i % 251) + 1, size);
      g_ptr_array_add (blocks, p);
      g_array_append_val (sizes, size);
      total += size;
    }
  for (guint i = 0; i < blocks->len; i++)
    {
      const guint8 *p = g_ptr_array_index (blocks, i);
      for (gsize k = 0; k < g_array_index (sizes, gsize, i); k++)
        g_assert_cmpuint (p[k], ==, i % 251 + 1);
    }
  g_assert_cmpuint (ttv_history_slab_size (&slab), >=, total);
  g_assert_cmpuint (ttv_history_slab_size (&slab), <=, total + 2 * TTV_HISTORY_SLAB_CHUNK);
  ttv_history_slab_clear (&slab);
  g_assert_cmpuint (ttv_history_slab_size (&slab), ==, 0);
}

/* Blocks given back to the slab: taken again by blocks of their size
 * (zeroed by alloc0), not by others; the live ones keep their bytes; the
 * slab does not grow while given-back blocks serve.  Its chunks grow from
 * the first's size. */
static void
test_slab_give_back (void)
{
  TtvHistorySlab slab;
  ttv_history_slab_init (&slab);
  guint8 *small = ttv_history_slab_alloc (&slab, 96);
  g_assert_cmpuint (ttv_history_slab_size (&slab), ==, TTV_HISTORY_SLAB_FIRST_CHUNK);
  memset (small, 7, 96);
  guint8 *steps[5];
  gsize step_size = 96;
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++, step_size *= 2)
    {
      steps[i] = ttv_history_slab_alloc (&slab, step_size);
      memset (steps[i], (int) i + 1, step_size);
    }
  /* Each step given back, as an array that doubles does. */
  step_size = 96;
  for (guint i = 0; i + 1 < G_N_ELEMENTS (steps); i++, step_size *= 2)
    ttv_history_slab_give_back (&slab, steps[i], step_size);
  gsize size = ttv_history_slab_size (&slab);
  /* 90 rounds up to 96: the block of 96 given back. */
  guint8 *again = ttv_history_slab_alloc0 (&slab, 90);
  g_assert_true (again == steps[0]);
  for (guint k = 0; k < 90; k++)
    g_assert_cmpuint (again[k], ==, 0);
  g_assert_true (ttv_history_slab_alloc (&slab, 384) == steps[2]);
  g_assert_true (ttv_history_slab_alloc (&slab, 768) == steps[3]);
  /* No block of 384 left, and none of 200 was given back. */
  guint8 *other = ttv_history_slab_alloc (&slab, 384);
  g_assert_true (other != steps[1] && other != steps[2]);
  g_assert_true (ttv_history_slab_alloc (&slab, 200) != steps[1]);
  g_assert_true (ttv_history_slab_alloc (&slab, 192) == steps[1]);
  g_assert_cmpuint (ttv_history_slab_size (&slab), ==, size);
  for (guint k = 0; k < 96; k++)
    g_assert_cmpuint (small[k], ==, 7);
  for (gsize k = 0; k < 96 * 16; k++)
    g_assert_cmpuint (steps[4][k], ==, 5);
  ttv_history_slab_give_back (&slab, NULL, 64);
  ttv_history_slab_clear (&slab);
  g_assert_cmpuint (ttv_history_slab_size (&slab), ==, 0);
}

/* @a in a random order (Fisher-Yates). */
static void
shuffle (GRand *rand, guint *a, guint n)
{
  for (guint i = n - 1; i > 0; i--)
    {
      guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1);
      guint t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
}

/* Blocks whose dictionary is full (32 entries), or holds 16, 8 or 1
 * used in a random order: each record finds its entry again (in a full
 * dictionary many entries share a slot of the encoder's table), and the
 * dictionary is in the order of first use, the file's format: its keys
 * column, read from the block, is that order. */
static void
test_codec_dictionary (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (47);
  static const guint distinct[] = { 32, 16, 8, 1 };
  for (guint round = 0; round < 400; round++)
    {
      guint m = distinct[round % G_N_ELEMENTS (distinct)];
      /* m entries of distinct keys (the first m of a shuffle). */
      guint all_keys[256];
      for (guint k = 0; k < 256; k++)
        all_keys[k] = k;
      shuffle (rand, all_keys, G_N_ELEMENTS (all_keys));
      /* Each entry used 32 / m times, in a random order. */
      guint use[TTV_HISTORY_BLOCK];
      for (guint i = 0; i < TTV_HISTORY_BLOCK; i++)
        use[i] = i % m;
      shuffle (rand, use, G_N_ELEMENTS (use));
      guint32 aux[TTV_HISTORY_BLOCK];
      gint16 cpu[TTV_HISTORY_BLOCK];
      for (guint k = 0; k < m; k++)
        {
          aux[k] = round % 2 ? g_rand_int (rand) : (guint32) g_rand_int_range (rand, 0, 4);
          cpu[k] = (gint16) g_rand_int_range (rand, -1, round % 3 ? 8 : 32768);
        }
      g_autoptr (GArray) recs = g_array_new (FALSE, FALSE, sizeof (TtvHistoryRec));
      guint8 first_use[TTV_HISTORY_BLOCK];
      gboolean seen[TTV_HISTORY_BLOCK] = { FALSE };
      guint n_first = 0;
      gint64 t = 1000;
      for (guint i = 0; i < TTV_HISTORY_BLOCK; i++)
        {
          guint k = use[i];
          TtvHistoryRec r = { t, (guint16) all_keys[k], cpu[k], aux[k], (guint32) g_rand_int_range (rand, 0, 100) };
          g_array_append_val (recs, r);
          t += g_rand_int_range (rand, 1, 5000);
          if (!seen[k])
            {
              seen[k] = TRUE;
              first_use[n_first++] = (guint8) all_keys[k];
            }
        }
      Coded coded;
      encode (recs, &coded);
      const guint8 *bytes = coded.w.bytes->data;
      TtvHistoryBlock piece0;
      memcpy (&piece0, bytes + coded.seq[0].dir[0].offset, sizeof piece0);
      const guint8 *block = bytes + piece0.offset;
      g_assert_cmpuint (block[0], ==, TTV_HISTORY_BLOCK);
      g_assert_cmpuint (block[4], ==, m);
      for (guint k = 0; k < m; k++)
        g_assert_cmpuint (block[TTV_HISTORY_BLOCK_HEADER + k], ==, first_use[k]);
      coded_clear (&coded);
      check_sequence (rand, recs);
    }
}

/* Starts going back are taken as the time before. */
static void
test_codec_clamp (void)
{
  g_autoptr (GArray) recs = g_array_new (FALSE, FALSE, sizeof (TtvHistoryRec));
  gint64 times[] = { 100, 50, 200, 10, 300 };
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      TtvHistoryRec r = { times[i], 1, -1, 0, 0 };
      g_array_append_val (recs, r);
    }
  Coded coded;
  encode (recs, &coded);
  const TtvHistorySeq seq = coded.seq[0];
  guint64 bad;
  g_assert_true (ttv_history_seq_validate (&seq, &bad));
  gint64 want[] = { 100, 100, 200, 200, 300 };
  TtvHistoryCursor c;
  TtvHistoryRec rec;
  ttv_history_cursor_init (&c, &seq, 0);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_assert_true (ttv_history_cursor_next (&c, &rec));
      g_assert_cmpint (rec.start, ==, want[i]);
    }
  coded_clear (&coded);
}

/* Damaged bytes, directory or index: refused by the check, or at least
 * read safely. */
static void
test_codec_damage (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  /* Two pieces and a half, written out in runs between other sequences. */
  g_autoptr (GArray) recs = random_records (rand, 10000, 1000, STEPS_MIXED);
  Coded coded;
  encode_interleaved (recs, &coded, 300);
  const TtvHistorySeq good = coded.seq[0];
  guint64 n_pieces = ttv_history_n_pieces (good.n_blocks);
  g_assert_cmpuint (n_pieces, ==, 3);
  guint n_refused = 0;
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree guint8 *bytes = g_memdup2 (good.data, good.size);
      g_autofree TtvHistoryBlock *dir = g_memdup2 (good.dir, n_pieces * sizeof (TtvHistoryBlock));
      TtvHistorySeq seq = good;
      seq.data = bytes;
      seq.dir = dir;
      guint64 p = (guint64) g_rand_int_range (rand, 0, (gint32) n_pieces);
      TtvHistoryBlock *piece = (TtvHistoryBlock *) (bytes + dir[p].offset);
      guint k = (guint) g_rand_int_range (rand, 0, p + 1 < n_pieces ? TTV_HISTORY_PIECE
                                          : (gint32) (good.n_blocks - p * TTV_HISTORY_PIECE));
      switch (i % 6)
        {
        case 0: /* a byte of a block */
          bytes[piece[k].offset + (guint) g_rand_int_range (rand, 0, 40)] ^= (guint8) g_rand_int_range (rand, 1, 256);
          break;
        case 1: /* any byte */
          bytes[g_rand_int_range (rand, 0, (gint32) good.size)] ^= (guint8) g_rand_int_range (rand, 1, 256);
          break;
        case 2: /* shorter */
          seq.size = (guint64) g_rand_int_range (rand, 0, (gint32) good.size);
          break;
        case 3: /* a block's offset, or a piece's */
          if (g_rand_boolean (rand))
            piece[k].offset = g_rand_int (rand) % (good.size + 50);
          else
            dir[p].offset = g_rand_int (rand) % (good.size + 50);
          break;
        case 4: /* a block's time, or a piece's */
          if (g_rand_boolean (rand))
            piece[k].start += g_rand_int_range (rand, -100000, 100000);
          else
            dir[p].start += g_rand_int_range (rand, -100000, 100000);
          break;
        case 5: /* the count of records */
          seq.n_recs = (guint64) g_rand_int_range (rand, 0, (gint32) good.n_recs);
          seq.n_blocks = ttv_history_n_blocks (seq.n_recs);
          break;
        }
      guint64 bad;
      gboolean ok = ttv_history_seq_validate (&seq, &bad);
      n_refused += !ok;
      /* Whatever the check says, reading stays within the bytes (ASan). */
      TtvHistoryCursor c;
      TtvHistoryRec rec;
      ttv_history_cursor_init (&c, &seq, 0);
      guint n = 0;
      while (ttv_history_cursor_next (&c, &rec))
        n++;
      g_assert_cmpuint (n, <=, seq.n_recs);
      for (guint j = 0; j < 5; j++)
        ttv_history_seq_find (&seq, g_array_index (recs, TtvHistoryRec, g_rand_int_range (rand, 0, 10000)).start, &c, &rec);
      if (ok)
        g_assert_cmpuint (n, ==, seq.n_recs);
    }
  g_test_message ("%u of 1000 damaged sequences refused", n_refused);
  g_assert_cmpuint (n_refused, >, 400);
  coded_clear (&coded);
}

/* Bin counts: exact below 4096, within 1/4096 above, ordered. */
static void
test_bin_counts (void)
{
  for (guint64 n = 0; n < 4096; n++)
    g_assert_cmpuint (ttv_history_count_decode (ttv_history_count_encode (n)), ==, n);
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  guint64 prev = 0;
  for (guint i = 0; i < 100000; i++)
    {
      guint64 n = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> g_rand_int_range (rand, 23, 64);
      guint64 got = ttv_history_count_decode (ttv_history_count_encode (n));
      g_assert_cmpfloat (fabs ((double) got - (double) n), <=, (double) n / 4096.0 + 0.5);
    }
  for (guint64 n = 1; n < (G_GUINT64_CONSTANT (4095) << 30); n = n * 3 / 2 + 1)
    {
      guint64 got = ttv_history_count_decode (ttv_history_count_encode (n));
      g_assert_cmpuint (got, >=, prev);
      prev = got;
    }
  /* Saturated beyond what it can tell. */
  g_assert_cmpuint (ttv_history_count_encode (G_MAXUINT64), ==, 0xffff);
}

/* ---- histories of simulated traces ---- */

typedef TtvHistoryFixture Fixture;

/* Many short-lived processes: many rows of one or a few intervals. */
static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  static const guint cpu_ids[] = { 0, 1 };
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 11;
  so.cpu_ids = cpu_ids;
  so.n_cpus = G_N_ELEMENTS (cpu_ids);
  so.n_processes = GPOINTER_TO_UINT (data);
  so.max_events = 20000;
  ttv_history_fixture_set_up (f, &so);
}

/* Every row: intervals contiguous and found again at their start and end,
 * exact pixels agree with the intervals. */
static void
check_rows (TtvHistory *h)
{
  for (TtvHistoryRowKind kind = 0; kind < TTV_HISTORY_ROW_N_KINDS; kind++)
    for (guint i = 0; i < ttv_history_get_n_rows (h, kind); i++)
      {
        const TtvHistoryRowInfo *info = ttv_history_get_row (h, kind, i);
        g_autoptr (GArray) ivs = ttv_history_query_intervals (h, kind, i, TTV_TIME_MIN, TTV_TIME_MAX);
        g_assert_cmpuint (ivs->len, <=, info->n_intervals);
        guint64 events = 0;
        for (guint k = 0; k < ivs->len; k++)
          {
            const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, k);
            g_assert_cmpint (iv->start, <, iv->end);
            if (k > 0)
              g_assert_cmpint (iv->start, ==, g_array_index (ivs, TtvHistoryInterval, k - 1).end);
            TtvHistoryInterval at;
            g_assert_true (ttv_history_get_interval_at (h, kind, i, iv->start, &at));
            g_assert_cmpuint (at.state, ==, iv->state);
            g_assert_cmpuint (at.aux, ==, iv->aux);
            g_assert_true (ttv_history_get_interval_at (h, kind, i, iv->end - 1, &at));
            g_assert_cmpuint (at.state, ==, iv->state);
            events += iv->n_events;
          }
        if (ivs->len > 0)
          {
            const TtvHistoryInterval *last = &g_array_index (ivs, TtvHistoryInterval, ivs->len - 1);
            g_assert_cmpint (last->end, ==, info->end);
            TtvHistoryInterval at;
            g_assert_false (ttv_history_get_interval_at (h, kind, i, info->end, &at));
            g_assert_false (ttv_history_get_interval_at (h, kind, i,
                                                               g_array_index (ivs, TtvHistoryInterval, 0).start - 1,
                                                               &at));
            /* A pixel per interval at most: read exactly. */
            TtvHistoryPixel px[8];
            gboolean exact;
            TtvTime t0 = g_array_index (ivs, TtvHistoryInterval, 0).start;
            ttv_history_query_pixels_full (h, kind, i, t0, last->end, 8, px, &exact);
            guint32 px_events = 0;
            for (guint p = 0; p < 8; p++)
              px_events += px[p].n_events;
            if (exact)
              g_assert_cmpuint (px_events, ==, events);
          }
        g_autoptr (GArray) marks = ttv_history_query_marks (h, i, TTV_TIME_MIN, TTV_TIME_MAX);
        if (kind == TTV_HISTORY_ROW_PROCESS)
          g_assert_cmpuint (marks->len, ==, info->n_marks);
        for (guint k = 1; k < marks->len; k++)
          g_assert_cmpint (g_array_index (marks, TtvHistoryMark, k).time, >=,
                           g_array_index (marks, TtvHistoryMark, k - 1).time);
      }
}

static void
test_many_rows (Fixture *f, gconstpointer data)
{
  g_autoptr (TtvHistory) h = ttv_history_test_build (f->ts, 0, TRUE, NULL);
  guint n = ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS), short_rows = 0;
  for (guint i = 0; i < n; i++)
    short_rows += ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, i)->n_intervals <= 2;
  g_test_message ("%u process rows, %u with at most 2 intervals", n, short_rows);
  g_assert_cmpuint (n, >=, 500);
  g_assert_cmpuint (short_rows, >, 0);
  check_rows (h);
  /* Spilled and cached: the same. */
  g_autofree char *cache_dir = g_build_filename (f->dir, "cache", NULL);
  g_autoptr (TtvHistory) spilled = ttv_history_test_build (f->ts, 1024, FALSE, cache_dir);
  g_assert_nonnull (ttv_history_get_cache_path (spilled));
  ttv_history_test_assert_same (h, spilled);
  check_rows (spilled);
  g_autoptr (TtvHistory) reused = ttv_history_test_build (f->ts, 1024, FALSE, cache_dir);
  g_assert_true (ttv_history_is_from_cache (reused));
  ttv_history_test_assert_same (h, reused);
}

/* Damaged cache files, checksum made right so that every structural check
 * is reached: refused with an error naming the file, or read safely. */
static void
test_cache_damage (Fixture *f, gconstpointer data)
{
  g_autofree char *cache_dir = g_build_filename (f->dir, "cache", NULL);
  g_autoptr (TtvHistory) ref = ttv_history_test_build (f->ts, 0, TRUE, NULL);
  g_autoptr (TtvHistory) h = ttv_history_test_build (f->ts, 1024, FALSE, cache_dir);
  g_autofree char *path = g_strdup (ttv_history_get_cache_path (h));
  g_assert_nonnull (path);
  g_autofree char *fingerprint = ttv_history_fingerprint (f->ts);
  g_autofree char *contents = NULL;
  gsize size;
  g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
  g_clear_pointer (&h, ttv_history_free);

  /* The file as written is good. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (TtvHistory) ok = ttv_history_cache_load_full (path, fingerprint, &error);
    g_assert_no_error (error);
    ttv_history_test_assert_same (ref, ok);
  }

  g_autoptr (GRand) rand = g_rand_new_with_seed (99);
  g_autofree char *victim = g_build_filename (f->dir, "damaged.hist", NULL);
  const TtvHistoryHeader *hd0 = (const TtvHistoryHeader *) contents;
  guint n_refused = 0, n_tries = 300;
  for (guint i = 0; i < n_tries; i++)
    {
      g_autofree char *copy = g_memdup2 (contents, size);
      gsize len = size;
      TtvHistoryHeader *hd = (TtvHistoryHeader *) copy;
      TtvHistoryRow *rows = (TtvHistoryRow *) (copy + hd0->rows_offset);
      TtvHistoryRow *row = &rows[g_rand_int_range (rand, 0, (gint32) hd0->n_rows)];
      switch (i % 8)
        {
        case 0: /* bytes anywhere after the header */
          for (guint k = 0; k < 4; k++)
            copy[g_rand_int_range (rand, sizeof *hd, (gint32) size)] ^= (char) g_rand_int_range (rand, 1, 256);
          break;
        case 1: /* truncated, header adjusted */
          len = (gsize) g_rand_int_range (rand, sizeof *hd, (gint32) size);
          hd->file_size = len;
          break;
        case 2: /* a row's directory elsewhere */
          row->recs_dir_offset = g_rand_int (rand) % (size + 100);
          break;
        case 3: /* a row's count of records */
          if (g_rand_boolean (rand))
            row->n_recs += (guint64) g_rand_int_range (rand, 1, 100);
          else
            row->n_recs = g_rand_int (rand) % (row->n_recs * 3 + 100);
          break;
        case 4: /* a row's marks */
          if (g_rand_boolean (rand))
            row->marks_dir_offset = (g_rand_int (rand) % size) & ~(guint64) 7;
          else
            row->n_marks += (guint64) g_rand_int_range (rand, 1, 40);
          break;
        case 5: /* a row's summary levels */
          row->n_levels = (guint32) g_rand_int_range (rand, 1, TTV_HISTORY_MAX_LEVELS + 3);
          row->levels_offset = (g_rand_int (rand) % size) & ~(guint64) 7;
          break;
        case 6: /* inside a summary level */
          if (row->n_levels > 0 && row->levels_offset + sizeof (TtvHistoryLevel) <= size)
            {
              TtvHistoryLevel *lv = (TtvHistoryLevel *) (copy + row->levels_offset);
              lv->offset = g_rand_boolean (rand) ? lv->offset : (g_rand_int (rand) % size) & ~(guint64) 7;
              lv->n_bins += (guint64) g_rand_int_range (rand, 0, 1000);
              lv->shift = (guint32) g_rand_int_range (rand, 0, 70);
            }
          else
            row->n_levels = 7;
          break;
        case 7: /* the string table */
          hd->n_strings += (guint64) g_rand_int_range (rand, 1, 5);
          break;
        }
      ttv_history_test_fix_checksum (copy, len);
      g_assert_true (g_file_set_contents (victim, copy, (gssize) len, NULL));
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvHistory) d = ttv_history_cache_load_full (victim, fingerprint, &error);
      if (d == NULL)
        {
          n_refused++;
          g_assert_nonnull (error);
          g_assert_true (error->domain == TTV_FORMAT_ERROR);
          g_assert_nonnull (strstr (error->message, victim));
          continue;
        }
      /* Accepted (a harmless change): every query stays in bounds (ASan). */
      g_assert_no_error (error);
      for (TtvHistoryRowKind kind = 0; kind < TTV_HISTORY_ROW_N_KINDS; kind++)
        for (guint r = 0; r < ttv_history_get_n_rows (d, kind); r++)
          {
            const TtvHistoryRowInfo *info = ttv_history_get_row (d, kind, r);
            /* Only whether they stay in bounds matters here. */
            GArray *ivs = ttv_history_query_intervals (d, kind, r, TTV_TIME_MIN, TTV_TIME_MAX);
            GArray *marks = ttv_history_query_marks (d, r, TTV_TIME_MIN, TTV_TIME_MAX);
            TtvHistoryPixel px[64];

            g_clear_pointer (&ivs, g_array_unref);
            g_clear_pointer (&marks, g_array_unref);
            ttv_history_query_pixels (d, kind, r, info->birth, info->end, 64, px);
            ttv_history_query_pixels (d, kind, r, TTV_TIME_MIN, TTV_TIME_MAX, 3, px);
            TtvHistoryInterval iv;
            TtvTime mid = (TtvTime) ((guint64) info->birth / 2 + (guint64) info->end / 2);
            ttv_history_get_interval_at (d, kind, r, mid, &iv);
          }
    }
  g_test_message ("%u of %u damaged cache files refused", n_refused, n_tries);
  g_assert_cmpuint (n_refused, >, n_tries / 2);

  /* A block's header damaged (the checksum made right): found by the
   * check of every record, with the byte where. */
  for (guint r = 0; r < hd0->n_rows; r++)
    {
      const TtvHistoryRow *row = (const TtvHistoryRow *) (contents + hd0->rows_offset) + r;
      if (row->n_recs < 2 * TTV_HISTORY_BLOCK)
        continue;
      const TtvHistoryBlock *dir = (const TtvHistoryBlock *) (contents + row->recs_dir_offset);
      const TtvHistoryBlock *piece = (const TtvHistoryBlock *) (contents + dir[0].offset);
      g_autofree char *copy = g_memdup2 (contents, size);
      copy[piece[1].offset] = 0;   /* a block of no records */
      ttv_history_test_fix_checksum (copy, size);
      g_assert_true (g_file_set_contents (victim, copy, (gssize) size, NULL));
      g_autoptr (GError) error = NULL;
      g_assert_null (ttv_history_cache_load_full (victim, fingerprint, &error));
      g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
      g_autofree char *where = g_strdup_printf ("bad intervals at byte %" G_GUINT64_FORMAT, piece[1].offset);
      g_assert_nonnull (strstr (error->message, where));
      break;
    }

  /* A row's second summary level that does not follow from its first
   * (the index keeps only the first, ttv_history_row_level makes the
   * others): refused, with the levels' byte.  A level made as the first's
   * next is accepted, so the comparison is what refuses. */
  guint n_checked = 0;
  for (guint r = 0; r < hd0->n_rows && n_checked < 1; r++)
    {
      const TtvHistoryRow *row = (const TtvHistoryRow *) (contents + hd0->rows_offset) + r;
      if (row->n_levels < 2)
        continue;
      const TtvHistoryLevel *lv = (const TtvHistoryLevel *) (contents + row->levels_offset);
      TtvHistoryLevel made;
      ttv_history_level_next (&lv[0], &made);
      g_assert_cmpuint (made.offset, ==, lv[1].offset);
      g_assert_cmpuint (made.first_bin, ==, lv[1].first_bin);
      g_assert_cmpuint (made.n_bins, ==, lv[1].n_bins);
      g_assert_cmpuint (made.shift, ==, lv[1].shift);
      for (guint change = 0; change < 3; change++)
        {
          g_autofree char *copy = g_memdup2 (contents, size);
          TtvHistoryLevel *second = (TtvHistoryLevel *) (copy + row->levels_offset) + 1;
          if (change == 0)
            second->first_bin++;
          else if (change == 1)
            second->n_bins--;
          else
            second->offset += 8;
          ttv_history_test_fix_checksum (copy, size);
          g_assert_true (g_file_set_contents (victim, copy, (gssize) size, NULL));
          g_autoptr (GError) error = NULL;
          g_assert_null (ttv_history_cache_load_full (victim, fingerprint, &error));
          g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
          g_autofree char *where = g_strdup_printf ("bad summary level at byte %" G_GUINT64_FORMAT,
                                                    row->levels_offset);
          g_assert_nonnull (strstr (error->message, where));
        }
      n_checked++;
    }
  g_assert_cmpuint (n_checked, ==, 1);

  /* Damaged in place: the build refuses it, rebuilds and replaces it. */
  g_autofree char *copy = g_memdup2 (contents, size);
  TtvHistoryRow *rows = (TtvHistoryRow *) (copy + hd0->rows_offset);
  rows[0].n_recs += 3;
  ttv_history_test_fix_checksum (copy, size);
  g_assert_true (g_file_set_contents (path, copy, (gssize) size, NULL));
  g_autoptr (TtvHistory) rebuilt = ttv_history_test_build (f->ts, 1024, FALSE, cache_dir);
  g_assert_false (ttv_history_is_from_cache (rebuilt));
  ttv_history_test_assert_same (ref, rebuilt);
  g_autoptr (TtvHistory) again = ttv_history_test_build (f->ts, 1024, FALSE, cache_dir);
  g_assert_true (ttv_history_is_from_cache (again));

  /* An older version's file: refused by its version. */
  ((TtvHistoryHeader *) copy)->version = 1;
  g_assert_true (g_file_set_contents (victim, copy, (gssize) size, NULL));
  g_autoptr (GError) error = NULL;
  g_assert_null (ttv_history_cache_load_full (victim, fingerprint, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_clear_error (&error);
  /* Empty. */
  g_assert_true (g_file_set_contents (victim, "", 0, NULL));
  g_assert_null (ttv_history_cache_load_full (victim, fingerprint, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED);
}

/* ---- the writer's checksum as the bytes go out ---- */

typedef enum {
  WRITE_IN_ORDER,      /* a file appended to, its header written last */
  WRITE_SPILLED,       /* memory first, then a file */
  WRITE_OVER_HASHED,   /* bytes already out written again: read back */
  WRITE_PAST_RESERVE,  /* a large region reserved, never appended */
  WRITE_STOPPED,       /* hashed up to a point, bytes after it written again */
} WriteKind;

/* The checksum the writer gives, against the hash of the file's bytes
 * read back after its header: taken as they went out when they went in
 * order, else read back. */
static void
check_hash_as_written (WriteKind kind)
{
  g_autofree char *dir = g_dir_make_tmp ("ttv-writer-XXXXXX", NULL);
  TtvHistoryWriter w;
  if (kind == WRITE_SPILLED)
    ttv_history_writer_init_memory (&w, 30000, dir);
  else
    g_assert_true (ttv_history_writer_init_file (&w, dir, TRUE, NULL));
  w.header_size = 64;
  ttv_history_writer_hash_as_written (&w);
  ttv_history_writer_reserve (&w, 64);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  guint64 stop = 0;
  g_autofree guint8 *data = g_malloc ((3u << 20) + 4096);
  for (gsize i = 0; i < (3u << 20) + 4096; i++)
    data[i] = (guint8) g_rand_int (rand);
  for (guint i = 0; i < 400; i++)
    {
      /* Small appends, and two larger than the writer's buffer. */
      gsize n = i == 150 || i == 300 ? (3u << 20) + i : (gsize) g_rand_int_range (rand, 0, 9000);
      ttv_history_writer_append (&w, data + (n > 9000 ? 0 : i), n);
      ttv_history_writer_align (&w);
      if (i == 200 && kind == WRITE_OVER_HASHED)
        {
          ttv_history_writer_flush (&w);
          ttv_history_writer_pwrite (&w, 1000, "again", 5);
        }
      if (i == 250 && kind == WRITE_PAST_RESERVE)
        ttv_history_writer_reserve (&w, 2u << 20);
      if (i == 250 && kind == WRITE_STOPPED)
        stop = w.offset;
      if (i == 250 && kind == WRITE_STOPPED)
        ttv_history_writer_hash_stop (&w);
    }
  if (kind == WRITE_STOPPED)
    {
      /* As the history's summaries fill their regions: after a flush. */
      ttv_history_writer_flush (&w);
      ttv_history_writer_pwrite (&w, stop + 10, "again", 5);
      ttv_history_writer_pwrite (&w, w.offset - 5, "again", 5);
    }
  ttv_history_writer_pwrite (&w, 0, data, 64);
  g_assert_null (w.bytes);
  g_assert_true (ttv_history_writer_flush (&w));
  g_autofree guint8 *back = g_malloc (w.offset);
  g_assert_true (ttv_file_read_at (w.fd, back, w.offset, 0));
  guint64 written = ttv_history_hash (back + 64, w.offset - 64);
  /* A byte changed behind the writer's back: the checksum taken as the
   * bytes went out does not see it, one read back does (a checksum
   * stopped after it reads back only the bytes after the stop). */
  back[100] ^= 0xff;
  g_assert_true (ttv_file_write_at (w.fd, back + 100, 1, 100));
  guint64 sum = ttv_history_writer_checksum (&w);
  g_assert_false (w.failed);
  if (kind == WRITE_IN_ORDER || kind == WRITE_SPILLED || kind == WRITE_STOPPED)
    g_assert_cmpuint (sum, ==, written);
  else
    g_assert_cmpuint (sum, ==, ttv_history_hash (back + 64, w.offset - 64));
  ttv_history_writer_clear (&w);
  g_rmdir (dir);
}

static void
test_hash_as_written (void)
{
  for (WriteKind k = WRITE_IN_ORDER; k <= WRITE_STOPPED; k++)
    check_hash_as_written (k);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/history/codec/random", test_codec_random);
  g_test_add_func ("/history/codec/directory", test_codec_directory);
  g_test_add_func ("/history/codec/dictionary", test_codec_dictionary);
  g_test_add_func ("/history/codec/clamp", test_codec_clamp);
  g_test_add_func ("/history/slab", test_slab);
  g_test_add_func ("/history/slab-give-back", test_slab_give_back);
  g_test_add_func ("/history/codec/damage", test_codec_damage);
  g_test_add_func ("/history/codec/bin-counts", test_bin_counts);
  g_test_add_func ("/history/writer/hash-as-written", test_hash_as_written);
  g_test_add ("/history/many-rows", Fixture, GUINT_TO_POINTER (1500), fixture_set_up, test_many_rows,
              ttv_history_fixture_tear_down);
  g_test_add ("/history/cache/damage", Fixture, GUINT_TO_POINTER (200), fixture_set_up, test_cache_damage,
              ttv_history_fixture_tear_down);
  return g_test_run ();
}
