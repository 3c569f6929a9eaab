/* ttv-lttng-facilities.c: the event descriptions of an LTTng 0.x trace, from
 * the "core" marker_id and marker_format events of control/facilities_N. */
#include "ttv-lttng-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *channel;
  char *name;
  guint8 facility_id, event_id;
  char *format;              /* NULL until a marker_format names it */
  char *format_file;         /* where the format came from, for errors */
  guint64 format_offset;
} Marker;

static void
marker_free (Marker *m)
{
  g_free (m->channel);
  g_free (m->name);
  g_free (m->format);
  g_free (m->format_file);
  g_free (m);
}

typedef struct {
  GPtrArray *markers;        /* of Marker *, owned, in order of first appearance */
  GHashTable *by_key;        /* "channel\nname" -> Marker * (weak) */
  char *channel_of[256];     /* owned: facility id -> channel name */
} Collect;

static void
collect_clear (Collect *c)
{
  g_ptr_array_unref (c->markers);
  g_hash_table_unref (c->by_key);
  for (guint i = 0; i < 256; i++)
    g_free (c->channel_of[i]);
}

static Marker *
marker_get (Collect *c, const char *channel, const char *name)
{
  g_autofree char *key = g_strdup_printf ("%s\n%s", channel, name);
  Marker *m = g_hash_table_lookup (c->by_key, key);
  if (m == NULL)
    {
      m = g_new0 (Marker, 1);
      m->channel = g_strdup (channel);
      m->name = g_strdup (name);
      m->facility_id = TTV_LTTNG_CORE_FACILITY;
      g_ptr_array_add (c->markers, m);
      g_hash_table_insert (c->by_key, g_steal_pointer (&key), m);
    }
  return m;
}

static const char *
str_field (const TtvDecoder *d, const TtvValue *root, const char *name)
{
  const TtvValue *v = ttv_decoder_get_field (d, root, name);
  return v && v->type->kind == TTV_TYPE_STRING ? v->v.string.str : "";
}

static guint64
uint_field (const TtvDecoder *d, const TtvValue *root, const char *name)
{
  guint64 u = 0;
  const TtvValue *v = ttv_decoder_get_field (d, root, name);
  if (v)
    ttv_value_get_uint (v, &u);
  return u;
}

static gboolean
bad_marker (GError **error, const char *file, guint64 offset, const char *msg)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
               _("%s: marker_id event at byte offset %" PRIu64 ": %s"), file, offset, msg);
  return FALSE;
}

static gboolean
on_marker_id (Collect *c, const TtvDecoder *d, const TtvValue *root, const char *file,
              guint64 offset, GError **error)
{
  const char *channel = str_field (d, root, "channel");
  const char *name = str_field (d, root, "name");
  guint fid = (guint) uint_field (d, root, "facility_id");
  guint eid = (guint) uint_field (d, root, "event_id");
  if (*channel == '\0' || *name == '\0')
    return bad_marker (error, file, offset, _("empty channel or marker name"));
  if (fid == TTV_LTTNG_CORE_FACILITY)
    return bad_marker (error, file, offset, _("facility_id 0 is reserved for the core markers"));
  if (c->channel_of[fid] == NULL)
    c->channel_of[fid] = g_strdup (channel);
  else if (strcmp (c->channel_of[fid], channel) != 0)
    {
      g_autofree char *msg = g_strdup_printf (_("facility_id %u names channel “%s” but also “%s”"),
                                              fid, c->channel_of[fid], channel);
      return bad_marker (error, file, offset, msg);
    }
  for (guint i = 0; i < c->markers->len; i++)
    {
      const Marker *o = g_ptr_array_index (c->markers, i);
      if (o->facility_id == fid && o->event_id == eid
          && (strcmp (o->channel, channel) != 0 || strcmp (o->name, name) != 0))
        {
          g_autofree char *msg = g_strdup_printf (_("event id (%u, %u) is both %s.%s and %s.%s"),
                                                  fid, eid, o->channel, o->name, channel, name);
          return bad_marker (error, file, offset, msg);
        }
    }
  Marker *m = marker_get (c, channel, name);
  if (m->facility_id != TTV_LTTNG_CORE_FACILITY && (m->facility_id != fid || m->event_id != eid))
    {
      g_autofree char *msg = g_strdup_printf (_("%s.%s has two ids: (%u, %u) and (%u, %u)"),
                                              channel, name, m->facility_id, m->event_id, fid, eid);
      return bad_marker (error, file, offset, msg);
    }
  m->facility_id = (guint8) fid;
  m->event_id = (guint8) eid;
  return TRUE;
}

static void
on_marker_format (Collect *c, const TtvDecoder *d, const TtvValue *root, const char *file,
                  guint64 offset)
{
  Marker *m = marker_get (c, str_field (d, root, "channel"), str_field (d, root, "name"));
  g_free (m->format);
  g_free (m->format_file);
  m->format = g_strdup (str_field (d, root, "format"));
  m->format_file = g_strdup (file);
  m->format_offset = offset;
}

static gboolean
read_one (Collect *c, const TtvLttngFile *f, const TtvLttngLayout *trace_layout,
          TtvDecoder *d, GError **error)
{
  if (!ttv_lttng_layout_equal (&f->layout, trace_layout))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: the trace header at byte offset 0 differs from the cpu files' "
                     "(byte order, arch_size, alignment, heartbeat or clock)"),
                   f->path);
      return FALSE;
    }
  g_autoptr (TtvType) id_type = ttv_lttng_marker_parse (TTV_LTTNG_MARKER_ID_FORMAT, &f->layout, NULL);
  g_autoptr (TtvType) format_type = ttv_lttng_marker_parse (TTV_LTTNG_MARKER_FORMAT_FORMAT,
                                                            &f->layout, NULL);
  g_assert (id_type && format_type);
  /* Control files are never rings: read them in file order. */
  g_auto (TtvFileWindow) w = TTV_FILE_WINDOW_INIT (f->file);
  for (guint64 i = 0; i < f->n_file_blocks; i++)
    {
      guint64 boff = i * f->layout.buf_size;
      const guint8 *block = ttv_file_window_get (&w, boff, f->layout.buf_size, error);
      if (block == NULL)
        return FALSE;
      TtvLttngHeader h;
      if (!ttv_lttng_header_read (block, f->layout.buf_size, &h, f->path, boff, error))
        return FALSE;
      guint32 data_end = f->layout.buf_size - h.lost_size;  /* checked by the index */
      guint32 pos = f->layout.first_event;
      guint64 cycles = h.begin_cc;
      TtvLttngEventHeader eh;
      gint r;
      while ((r = ttv_lttng_event_header_read (&f->layout, block, data_end, &pos, &cycles, &eh,
                                               f->path, boff, error)) > 0)
        {
          if (eh.facility_id != TTV_LTTNG_CORE_FACILITY
              || (eh.event_id != TTV_LTTNG_CORE_MARKER_ID && eh.event_id != TTV_LTTNG_CORE_MARKER_FORMAT))
            continue;
          const TtvType *t = eh.event_id == TTV_LTTNG_CORE_MARKER_ID ? id_type : format_type;
          ttv_decoder_reset (d);
          guint64 bit = (guint64) eh.payload * 8;
          g_autoptr (GError) local = NULL;
          gint32 root = ttv_decoder_decode (d, t, NULL, block, (guint64) eh.next * 8, &bit, &local);
          if (root < 0)
            {
              g_set_error (error, TTV_FORMAT_ERROR, local->code,
                           _("%s: core.%s event at byte offset %" PRIu64 ": %s"), f->path,
                           eh.event_id == TTV_LTTNG_CORE_MARKER_ID ? "marker_id" : "marker_format",
                           boff + eh.offset, local->message);
              return FALSE;
            }
          const TtvValue *rv = ttv_decoder_get (d, (guint32) root);
          if (eh.event_id == TTV_LTTNG_CORE_MARKER_ID)
            {
              if (!on_marker_id (c, d, rv, f->path, boff + eh.offset, error))
                return FALSE;
            }
          else
            on_marker_format (c, d, rv, f->path, boff + eh.offset);
        }
      if (r < 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
ttv_lttng_facilities_read (TtvTrace *trace, TtvLttngTrace *priv, gboolean live, gboolean *changed,
                           GError **error)
{
  g_autofree char *control = g_build_filename (trace->path, "control", NULL);
  g_autoptr (GError) local = NULL;
  g_autoptr (GDir) dir = g_dir_open (control, 0, &local);
  if (dir == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_MISSING,
                   _("%s: no control directory: %s"), control, local->message);
      return FALSE;
    }
  static const char * const prefixes[] = { "facilities_", NULL };
  g_autoptr (GPtrArray) names = ttv_lttng_control_list_numbered (dir, prefixes);
  if (names->len == 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_MISSING,
                   _("%s: no facilities_N file: the trace describes no event"), control);
      return FALSE;
    }
  Collect c = { g_ptr_array_new_with_free_func ((GDestroyNotify) marker_free),
                g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), { NULL } };
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (control, g_ptr_array_index (names, i), NULL);
      g_autoptr (TtvLttngFile) f = ttv_lttng_file_open_full (path, live, error);
      ok = f && (f->n_file_blocks == 0 || read_one (&c, f, &priv->layout, d, error));
    }
  for (guint i = 0; ok && i < c.markers->len; i++)
    {
      Marker *m = g_ptr_array_index (c.markers, i);
      if (m->facility_id == TTV_LTTNG_CORE_FACILITY)
        continue;   /* a format without an id: no event can use it */
      TtvEventType *known = priv->by_id[m->facility_id] ? priv->by_id[m->facility_id][m->event_id] : NULL;
      if (known && (g_strcmp0 (known->facility, m->channel) != 0 || g_strcmp0 (known->name, m->name) != 0))
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                       _("%s: event id (%u, %u) was %s.%s and is now %s.%s"), control,
                       m->facility_id, m->event_id, known->facility, known->name, m->channel, m->name);
          ok = FALSE;
          break;
        }
      /* Described before (a refresh), unless its format came only now. */
      if (known && (m->format == NULL || (known->description && *known->description)))
        continue;
      if (live && m->format == NULL)
        continue;   /* its marker_format is still to come */
      g_autoptr (GError) perr = NULL;
      TtvType *fields = ttv_lttng_marker_parse (m->format ? m->format : "", &priv->layout, &perr);
      if (fields == NULL)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX,
                       _("%s: marker_format of %s.%s at byte offset %" PRIu64 ": %s"),
                       m->format_file, m->channel, m->name, m->format_offset, perr->message);
          ok = FALSE;
          break;
        }
      if (known)
        {
          /* Opened while its marker_format was still unwritten: no field
           * could be looked up in the empty type, so it is replaced. */
          if (fields->fields->len == 0)
            {
              ttv_type_unref (fields);
              continue;
            }
          ttv_type_unref (known->fields);
          known->fields = fields;
          g_free (known->description);
          known->description = g_strdup (m->format);
          if (changed)
            *changed = TRUE;
          continue;
        }
      if (changed)
        *changed = TRUE;
      TtvEventType *et = ttv_trace_add_event_type (trace, m->channel, m->name, fields);
      et->format_id = ((guint64) m->facility_id << 8) | m->event_id;
      et->description = g_strdup (m->format ? m->format : "");
      if (priv->by_id[m->facility_id] == NULL)
        priv->by_id[m->facility_id] = g_new0 (TtvEventType *, 256);
      priv->by_id[m->facility_id][m->event_id] = et;
    }
  collect_clear (&c);
  return ok;
}
