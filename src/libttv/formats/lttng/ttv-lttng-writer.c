/* ttv-lttng-writer.c: writes LTTng 0.x traces with the layout code the reader
 * uses (ttv-lttng-layout.c), so that both follow docs/lttng-format.md. */
#include "ttv-lttng-writer.h"
#include "ttv-lttng-private.h"
#include "ttv-writer-common.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  char *path;                /* owned */
  FILE *fp;                  /* owned */
  gboolean ring;
  guint32 buf_size;          /* the options' one, larger for the markers if needed */
  guint8 *block;             /* owned: buf_size bytes */
  guint32 len;               /* bytes used in block; 0: no event yet */
  guint64 begin_cc, last_cc;
  TtvTime last_time;
  guint64 n_blocks;
} Stream;

typedef struct {
  guint8 facility_id, event_id;
  char *channel, *name, *format;  /* owned */
  TtvType *type;                  /* owned: resolved for the trace's layout */
} WriterEvent;

struct _TtvLttngWriter {
  char *dir;
  TtvLttngWriterOptions opts;
  TtvLttngLayout layout;
  TtvLttngHeader header;          /* template for every block */
  GPtrArray *events;              /* of WriterEvent *, owned */
  char *channels[256];            /* owned: facility id -> channel; 0 is core */
  guint n_facilities;             /* ids 1 .. n_facilities - 1 used */
  guint next_event_id[256];
  GHashTable *cpus;               /* cpu id -> Stream *, owned */
  Stream *processes, *interrupts; /* owned, may be NULL */
  GByteArray *scratch;
  TtvType *marker_id_type, *marker_format_type;
};

static void
stream_free (Stream *s)
{
  if (s == NULL)
    return;
  if (s->fp)
    fclose (s->fp);
  g_free (s->block);
  g_free (s->path);
  g_free (s);
}

static void
writer_event_free (WriterEvent *e)
{
  g_free (e->channel);
  g_free (e->name);
  g_free (e->format);
  ttv_type_unref (e->type);
  g_free (e);
}

void
ttv_lttng_writer_abort (TtvLttngWriter *w)
{
  if (w == NULL)
    return;
  g_hash_table_unref (w->cpus);
  stream_free (w->processes);
  stream_free (w->interrupts);
  g_ptr_array_unref (w->events);
  for (guint i = 0; i < 256; i++)
    g_free (w->channels[i]);
  g_byte_array_unref (w->scratch);
  ttv_type_unref (w->marker_id_type);
  ttv_type_unref (w->marker_format_type);
  g_free (w->dir);
  g_free (w);
}

TtvLttngWriter *
ttv_lttng_writer_new (const char *dir, const TtvLttngWriterOptions *o, GError **error)
{
  g_return_val_if_fail (dir != NULL && o != NULL, NULL);
  TtvLttngWriterOptions opts = *o;
  if (opts.arch_size == 0)
    opts.arch_size = 8;
  if (opts.buf_size == 0)
    opts.buf_size = 65536;
  if (opts.start_freq == 0)
    opts.start_freq = 1000000000;
  if (opts.freq_scale == 0)
    opts.freq_scale = 1;
  if (opts.start_time < 0)
    {
      ttv_writer_bad_argument (error,
                               _("start_time must not be negative (it is written as unsigned "
                                 "seconds)"));
      return NULL;
    }

  TtvLttngHeader h = {
    .byte_order = opts.byte_order,
    .begin_freq = opts.start_freq,
    .end_freq = opts.start_freq,
    .buf_size = opts.buf_size,
    .arch_type = opts.arch_type,
    .arch_variant = opts.arch_variant,
    .float_word_order = opts.byte_order == TTV_BYTE_ORDER_BIG,
    .arch_size = (guint8) opts.arch_size,
    .major_version = 2,
    .minor_version = 6,
    .flight_recorder = opts.max_blocks_per_cpu != 0,
    .has_heartbeat = !opts.tsc64,
    .alignment = (guint8) opts.alignment,
    .freq_scale = opts.freq_scale,
    .start_freq = opts.start_freq,
    .start_tsc = opts.start_tsc,
    .start_monotonic = 0,
    .start_sec = (guint32) (opts.start_time / TTV_NSEC_PER_SEC),
    .start_nsec = (guint32) (opts.start_time % TTV_NSEC_PER_SEC),
  };
  if (opts.start_time / TTV_NSEC_PER_SEC > G_MAXUINT32)
    {
      ttv_writer_bad_argument (error,
                               _("start_time does not fit the 32-bit seconds of the trace header"));
      return NULL;
    }
  TtvLttngLayout layout;
  g_autoptr (GError) local = NULL;
  if (opts.alignment > 255 || !ttv_lttng_layout_from_header (&h, &layout, dir, 0, &local))
    {
      ttv_writer_bad_argument (error, _("Bad LTTng writer options: %s"),
                               local ? local->message : _("alignment must be 0, 1, 2, 4 or 8"));
      return NULL;
    }

  gboolean empty;
  if (!ttv_writer_make_dir (dir, &empty, error))
    return NULL;
  if (!empty)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO,
                   _("%s: the directory is not empty"), dir);
      return NULL;
    }
  g_autofree char *control = g_build_filename (dir, "control", NULL);
  if (g_mkdir_with_parents (control, 0755) != 0)
    {
      ttv_writer_io_error (error, control, errno);
      return NULL;
    }

  TtvLttngWriter *w = g_new0 (TtvLttngWriter, 1);
  w->dir = g_strdup (dir);
  w->opts = opts;
  w->layout = layout;
  w->header = h;
  w->events = g_ptr_array_new_with_free_func ((GDestroyNotify) writer_event_free);
  w->channels[0] = g_strdup ("core");
  w->n_facilities = 1;
  w->cpus = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) stream_free);
  w->scratch = g_byte_array_new ();
  w->marker_id_type = ttv_lttng_marker_parse (TTV_LTTNG_MARKER_ID_FORMAT, &layout, NULL);
  w->marker_format_type = ttv_lttng_marker_parse (TTV_LTTNG_MARKER_FORMAT_FORMAT, &layout, NULL);
  g_assert (w->marker_id_type && w->marker_format_type);
  return w;
}

gint
ttv_lttng_writer_add_event (TtvLttngWriter *w, const char *channel, const char *name,
                            const TtvType *fields, GError **error)
{
  g_return_val_if_fail (w != NULL && channel != NULL && name != NULL && fields != NULL, -1);
  if (*channel == '\0' || *name == '\0')
    return ttv_writer_bad_argument (error, _("Empty channel or marker name")), -1;
  g_autofree char *format = ttv_lttng_marker_format_from_type (fields, error);
  if (format == NULL)
    return -1;
  guint fid = 0;
  for (guint i = 1; i < w->n_facilities; i++)
    if (strcmp (w->channels[i], channel) == 0)
      fid = i;
  if (fid == 0)
    {
      if (w->n_facilities > 255)
        return ttv_writer_bad_argument (error, _("More than 255 channels")), -1;
      fid = w->n_facilities++;
      w->channels[fid] = g_strdup (channel);
    }
  for (guint i = 0; i < w->events->len; i++)
    {
      const WriterEvent *e = g_ptr_array_index (w->events, i);
      if (e->facility_id == fid && strcmp (e->name, name) == 0)
        return ttv_writer_bad_argument (error, _("Marker %s.%s is already described"), channel,
                                        name), -1;
    }
  if (w->next_event_id[fid] > 255)
    return ttv_writer_bad_argument (error, _("Channel %s has more than 256 markers"), channel), -1;
  TtvType *type = ttv_lttng_marker_parse (format, &w->layout, error);
  if (type == NULL)
    return -1;
  WriterEvent *e = g_new0 (WriterEvent, 1);
  e->facility_id = (guint8) fid;
  e->event_id = (guint8) w->next_event_id[fid]++;
  e->channel = g_strdup (channel);
  e->name = g_strdup (name);
  e->format = g_steal_pointer (&format);
  e->type = type;
  g_ptr_array_add (w->events, e);
  return (gint) w->events->len - 1;
}

static Stream *
stream_new (TtvLttngWriter *w, const char *relative, gboolean ring, guint32 buf_size,
            GError **error)
{
  g_autofree char *path = g_build_filename (w->dir, relative, NULL);
  FILE *fp = fopen (path, "w+b");
  if (fp == NULL)
    {
      ttv_writer_io_error (error, path, errno);
      return NULL;
    }
  Stream *s = g_new0 (Stream, 1);
  s->path = g_steal_pointer (&path);
  s->fp = fp;
  s->ring = ring;
  s->buf_size = buf_size;
  s->block = g_malloc0 (buf_size);
  s->last_time = TTV_TIME_MIN;
  return s;
}

static gboolean
stream_flush (TtvLttngWriter *w, Stream *s, GError **error)
{
  guint32 bs = s->buf_size;
  if (s->len == 0 && s->n_blocks > 0)
    return TRUE;
  if (s->len == 0)
    {
      /* A file without events still holds one block, for its trace header. */
      s->len = w->layout.first_event;
      s->begin_cc = s->last_cc = w->opts.start_tsc;
    }
  TtvLttngHeader h = w->header;
  h.begin_cc = s->begin_cc;
  h.end_cc = s->last_cc;
  h.lost_size = bs - s->len;
  h.buf_size = bs;
  ttv_lttng_header_write (s->block, &h);
  guint64 slot = s->ring ? s->n_blocks % w->opts.max_blocks_per_cpu : s->n_blocks;
  if (fseeko (s->fp, (off_t) (slot * bs), SEEK_SET) != 0 || fwrite (s->block, 1, bs, s->fp) != bs)
    return ttv_writer_io_error (error, s->path, errno);
  s->n_blocks++;
  s->len = 0;
  memset (s->block, 0, bs);
  return TRUE;
}

static gboolean
stream_put (TtvLttngWriter *w, Stream *s, guint64 tsc, guint8 fid, guint8 eid,
            const guint8 *payload, guint32 size, GError **error)
{
  const TtvLttngLayout *l = &w->layout;
  guint32 hs = ttv_lttng_event_header_size (l);
  guint32 off, pay;
  while (TRUE)
    {
      guint32 start = s->len ? s->len : l->first_event;
      off = ttv_lttng_align (start, l->alignment);
      pay = ttv_lttng_align (off + hs, l->payload_align);
      if ((guint64) pay + size <= s->buf_size)
        break;
      if (s->len == 0)
        return ttv_writer_bad_argument (error,
                                        _("An event of %u bytes does not fit a block of %u bytes"),
                                        size, s->buf_size);
      if (!stream_flush (w, s, error))
        return FALSE;
    }
  if (s->len == 0)
    s->begin_cc = tsc;
  guint8 *p = s->block + off;
  TtvByteOrder o = l->byte_order;
  guint tsc_bytes = l->has_heartbeat ? 4 : 8;
  for (guint i = 0; i < tsc_bytes; i++)
    p[i] = (guint8) (tsc >> (o == TTV_BYTE_ORDER_LITTLE ? i * 8 : (tsc_bytes - 1 - i) * 8));
  p[tsc_bytes] = fid;
  p[tsc_bytes + 1] = eid;
  p[tsc_bytes + 2] = (guint8) (o == TTV_BYTE_ORDER_LITTLE ? size : size >> 8);
  p[tsc_bytes + 3] = (guint8) (o == TTV_BYTE_ORDER_LITTLE ? size >> 8 : size);
  if (size)
    memcpy (s->block + pay, payload, size);
  s->len = pay + size;
  s->last_cc = tsc;
  return TRUE;
}

static Stream *
get_stream (TtvLttngWriter *w, gint stream, GError **error)
{
  if (stream == TTV_LTTNG_STREAM_PROCESSES || stream == TTV_LTTNG_STREAM_INTERRUPTS)
    {
      Stream **slot = stream == TTV_LTTNG_STREAM_PROCESSES ? &w->processes : &w->interrupts;
      if (*slot == NULL)
        *slot = stream_new (w, stream == TTV_LTTNG_STREAM_PROCESSES ? "control/processes_0"
                                                                     : "control/interrupts_0",
                            FALSE, w->opts.buf_size, error);
      return *slot;
    }
  if (stream < 0 || stream > 65535)
    {
      ttv_writer_bad_argument (error, _("No stream %d (CPU ids are 0 to 65535)"), stream);
      return NULL;
    }
  Stream *s = g_hash_table_lookup (w->cpus, GINT_TO_POINTER (stream));
  if (s == NULL)
    {
      g_autofree char *name = g_strdup_printf ("cpu_%d", stream);
      s = stream_new (w, name, w->opts.max_blocks_per_cpu != 0, w->opts.buf_size, error);
      if (s)
        g_hash_table_insert (w->cpus, GINT_TO_POINTER (stream), s);
    }
  return s;
}

gboolean
ttv_lttng_writer_write_event (TtvLttngWriter *w, gint stream, TtvTime time, guint event,
                              const TtvScalar *values, guint n_values, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  if (event >= w->events->len)
    return ttv_writer_bad_argument (error, _("No event handle %u"), event);
  const WriterEvent *e = g_ptr_array_index (w->events, event);
  if (time < w->opts.start_time)
    return ttv_writer_bad_argument (error, _("Event %s.%s is before the trace's start_time"),
                                    e->channel, e->name);
  Stream *s = get_stream (w, stream, error);
  if (s == NULL)
    return FALSE;
  if (time < s->last_time)
    return ttv_writer_bad_argument (error, _("Event %s.%s goes back in time on stream %d"),
                                    e->channel, e->name, stream);
  g_byte_array_set_size (w->scratch, 0);
  guint used = 0;
  if (!ttv_encode (w->scratch, e->type, values, n_values, &used, error))
    return FALSE;
  if (used != n_values)
    return ttv_writer_bad_argument (error, _("Event %s.%s takes %u values, not %u"), e->channel,
                                    e->name, used, n_values);
  if (w->scratch->len > G_MAXUINT16)
    return ttv_writer_bad_argument (error,
                                    _("Event %s.%s has %u bytes of data (event_size is 16 bits)"),
                                    e->channel, e->name, w->scratch->len);
  guint64 tsc = ttv_lttng_time_to_cycles (&w->layout, time);
  if (w->layout.has_heartbeat && s->len)
    {
      /* Keep every gap below 2^32 cycles so that the reader can rebuild the
       * high bits of 32-bit timestamps. */
      while (tsc - s->last_cc > G_MAXUINT32)
        if (!stream_put (w, s, s->last_cc + G_MAXUINT32, TTV_LTTNG_CORE_FACILITY,
                         TTV_LTTNG_CORE_TIME_HEARTBEAT, NULL, 0, error))
          return FALSE;
    }
  s->last_time = time;
  return stream_put (w, s, tsc, e->facility_id, e->event_id, w->scratch->data, w->scratch->len,
                     error);
}

static gboolean
write_markers (TtvLttngWriter *w, Stream *s, GError **error)
{
  for (guint i = 0; i < w->events->len; i++)
    {
      const WriterEvent *e = g_ptr_array_index (w->events, i);
      TtvScalar id_values[] = {
        TTV_SCALAR_STRING (e->channel), TTV_SCALAR_STRING (e->name),
        TTV_SCALAR_UINT (e->facility_id), TTV_SCALAR_UINT (e->event_id),
      };
      TtvScalar format_values[] = {
        TTV_SCALAR_STRING (e->channel), TTV_SCALAR_STRING (e->name), TTV_SCALAR_STRING (e->format),
      };
      g_byte_array_set_size (w->scratch, 0);
      if (!ttv_encode (w->scratch, w->marker_id_type, id_values, G_N_ELEMENTS (id_values), NULL, error)
          || !stream_put (w, s, w->opts.start_tsc, TTV_LTTNG_CORE_FACILITY, TTV_LTTNG_CORE_MARKER_ID,
                          w->scratch->data, w->scratch->len, error))
        return FALSE;
      g_byte_array_set_size (w->scratch, 0);
      if (!ttv_encode (w->scratch, w->marker_format_type, format_values,
                       G_N_ELEMENTS (format_values), NULL, error))
        return FALSE;
      if (w->scratch->len > G_MAXUINT16)
        return ttv_writer_bad_argument (error, _("The marker format of %s.%s is too long"),
                                        e->channel, e->name);
      if (!stream_put (w, s, w->opts.start_tsc, TTV_LTTNG_CORE_FACILITY,
                       TTV_LTTNG_CORE_MARKER_FORMAT, w->scratch->data, w->scratch->len, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
finish_stream (TtvLttngWriter *w, Stream *s, GError **error)
{
  if (!stream_flush (w, s, error))
    return FALSE;
  if (fflush (s->fp) != 0)
    return ttv_writer_io_error (error, s->path, errno);
  return TRUE;
}

/* Writes control/<channel>_<cpu> as a stream (with @markers) or one empty block. */
static gboolean
write_control (TtvLttngWriter *w, const char *channel, gint cpu, gboolean markers, GError **error)
{
  if (cpu == 0 && ((strcmp (channel, "processes") == 0 && w->processes)
                   || (strcmp (channel, "interrupts") == 0 && w->interrupts)))
    return TRUE;   /* written by the control streams */
  g_autofree char *name = g_strdup_printf ("control/%s_%d", channel, cpu);
  /* Blocks of the facilities file hold the longest marker format whatever
   * buf_size the cpu files use (the reader takes buf_size per file). */
  guint32 bs = w->opts.buf_size;
  if (markers)
    {
      gsize longest = 0;
      for (guint i = 0; i < w->events->len; i++)
        {
          const WriterEvent *e = g_ptr_array_index (w->events, i);
          longest = MAX (longest, strlen (e->channel) + strlen (e->name) + strlen (e->format) + 3);
        }
      gsize need = (w->layout.first_event + 16 + longest + 1023) / 1024 * 1024;
      if (need > bs)
        bs = (guint32) MIN (need, TTV_LTTNG_MAX_BUF_SIZE);
    }
  Stream *s = stream_new (w, name, FALSE, bs, error);
  gboolean ok = s && (!markers || write_markers (w, s, error)) && finish_stream (w, s, error);
  stream_free (s);
  return ok;
}

static gint
compare_int (gconstpointer a, gconstpointer b)
{
  gint x = *(const gint *) a, y = *(const gint *) b;
  return x < y ? -1 : x > y;
}

gboolean
ttv_lttng_writer_close (TtvLttngWriter *w, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  gboolean ok = TRUE;
  if (g_hash_table_size (w->cpus) == 0)
    ok = get_stream (w, 0, error) != NULL;
  g_autoptr (GArray) cpus = g_array_new (FALSE, FALSE, sizeof (gint));
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, w->cpus);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      gint cpu = GPOINTER_TO_INT (key);
      g_array_append_val (cpus, cpu);
      ok = ok && finish_stream (w, value, error);
    }
  g_array_sort (cpus, compare_int);
  if (ok && w->processes)
    ok = finish_stream (w, w->processes, error);
  if (ok && w->interrupts)
    ok = finish_stream (w, w->interrupts, error);
  static const char *channels[] = { "facilities", "interrupts", "modules", "network", "processes" };
  for (guint i = 0; ok && i < cpus->len; i++)
    {
      gint cpu = g_array_index (cpus, gint, i);
      for (guint c = 0; ok && c < G_N_ELEMENTS (channels); c++)
        ok = write_control (w, channels[c], cpu, c == 0 && i == 0, error);
    }
  ttv_lttng_writer_abort (w);
  return ok;
}
