/* standalone-main.c: a main() for the libFuzzer targets when they are not built
 * with -fsanitize=fuzzer: replays the given files (or directories of files), then
 * deterministic random mutations of them for a bounded time.  Shared by every
 * target; the 'fuzz' test suite runs targets this way.
 *   usage: fuzz-X [--seconds=T] [--mutations=N] FILE|DIR...   */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
add_inputs (GPtrArray *inputs, const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      GDir *d = g_dir_open (path, 0, NULL);
      const char *n;
      GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
      while (d && (n = g_dir_read_name (d)))
        g_ptr_array_add (names, g_build_filename (path, n, NULL));
      if (d)
        g_dir_close (d);
      g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        add_inputs (inputs, *(char **) &g_ptr_array_index (names, i));
      g_ptr_array_unref (names);
      return;
    }
  char *data;
  gsize len;
  if (!g_file_get_contents (path, &data, &len, NULL))
    {
      fprintf (stderr, "cannot read %s\n", path);
      exit (2);
    }
  g_ptr_array_add (inputs, g_bytes_new_take (data, len));
}

static void
mutate (GRand *r, GByteArray *b)
{
  static const guint8 interesting[] = { 0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0x20, 0x3c };
  guint n_ops = (guint) g_rand_int_range (r, 1, 6);
  for (guint k = 0; k < n_ops; k++)
    {
      guint len = b->len;
      switch (g_rand_int_range (r, 0, 7))
        {
        case 0:   /* flip a bit */
          if (len)
            b->data[g_rand_int_range (r, 0, (gint32) len)] ^= (guint8) (1u << g_rand_int_range (r, 0, 8));
          break;
        case 1:   /* an interesting byte */
          if (len)
            b->data[g_rand_int_range (r, 0, (gint32) len)] =
              interesting[g_rand_int_range (r, 0, G_N_ELEMENTS (interesting))];
          break;
        case 2:   /* a random 32-bit word */
          if (len >= 4)
            {
              guint32 v = g_rand_int (r);
              memcpy (b->data + g_rand_int_range (r, 0, (gint32) len - 3), &v, 4);
            }
          break;
        case 3:   /* truncate */
          if (len)
            g_byte_array_set_size (b, (guint) g_rand_int_range (r, 0, (gint32) len));
          break;
        case 4:   /* insert a byte */
          {
            guint at = len ? (guint) g_rand_int_range (r, 0, (gint32) len + 1) : 0;
            g_byte_array_set_size (b, len + 1);
            memmove (b->data + at + 1, b->data + at, len - at);
            b->data[at] = (guint8) g_rand_int (r);
          }
          break;
        case 5:   /* delete a range */
          if (len > 1)
            {
              guint at = (guint) g_rand_int_range (r, 0, (gint32) len - 1);
              guint n = (guint) g_rand_int_range (r, 1, (gint32) MIN (len - at, 64u) + 1);
              g_byte_array_remove_range (b, at, n);
            }
          break;
        default:  /* duplicate a chunk */
          if (len > 1 && len < (1u << 22))
            {
              guint at = (guint) g_rand_int_range (r, 0, (gint32) len - 1);
              guint n = (guint) g_rand_int_range (r, 1, (gint32) MIN (len - at, 256u) + 1);
              guint8 *tmp = g_memdup2 (b->data + at, n);
              g_byte_array_append (b, tmp, n);
              g_free (tmp);
            }
          break;
        }
    }
}

int
main (int argc, char **argv)
{
  double seconds = 0;
  guint64 mutations = 0;
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (int i = 1; i < argc; i++)
    {
      if (g_str_has_prefix (argv[i], "--seconds="))
        seconds = g_ascii_strtod (argv[i] + 10, NULL);
      else if (g_str_has_prefix (argv[i], "--mutations="))
        mutations = g_ascii_strtoull (argv[i] + 12, NULL, 10);
      else if (argv[i][0] == '-')
        ;   /* libFuzzer flags such as -runs=N: ignored */
      else
        add_inputs (inputs, argv[i]);
    }
  for (guint i = 0; i < inputs->len; i++)
    {
      gsize len;
      const guint8 *d = g_bytes_get_data (g_ptr_array_index (inputs, i), &len);
      LLVMFuzzerTestOneInput (d, len);
    }
  if (seconds > 0 && mutations == 0)
    mutations = G_MAXUINT64;
  guint64 done = 0;
  if (inputs->len && mutations)
    {
      GRand *r = g_rand_new_with_seed (20240601);
      gint64 stop = g_get_monotonic_time () + (gint64) (seconds * 1e6);
      GByteArray *b = g_byte_array_new ();
      for (; done < mutations; done++)
        {
          if (seconds > 0 && (done & 15) == 0 && g_get_monotonic_time () >= stop)
            break;
          gsize len;
          const guint8 *d = g_bytes_get_data (g_ptr_array_index (inputs, done % inputs->len), &len);
          g_byte_array_set_size (b, 0);
          g_byte_array_append (b, d, (guint) len);
          mutate (r, b);
          LLVMFuzzerTestOneInput (b->data, b->len);
        }
      g_byte_array_unref (b);
      g_rand_free (r);
    }
  printf ("%u inputs and %" G_GUINT64_FORMAT " mutations ran without a crash\n", inputs->len, done);
  g_ptr_array_unref (inputs);
  return 0;
}
