/* ttv-ltt-writer.c: writes an LTT trace directory (docs/ltt-format.md): one
 * block buffer per stream written whole to disk, eventdefs and system.xml at close. */
#include "ttv-ltt-private.h"
#include "ttv-config.h"
#include "ttv-writer-common.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_CPU (1u << 20)
#define CODES_PER_FACILITY 256

typedef struct {
  char *path;                   /* owned */
  int fd;
  GByteArray *buf;              /* owned: the block being filled */
  gboolean in_block;
  guint32 block_id;             /* of the block being filled */
  guint max_blocks;             /* ring size, 0 = no ring */
  guint64 last_cycles;
  TtvTime last_time;
  guint64 n_events;
} WStream;

typedef struct {
  char *name;                   /* owned */
  char *description;            /* owned */
  GString *types_xml;           /* owned: <type name=...> definitions */
  GHashTable *type_defs;        /* owned: type name -> definition XML */
  guint n_events;
} WFacility;

typedef struct {
  guint facility;
  guint code;
  char *xml;                    /* owned: the <event> element */
  TtvType *type;                /* owned: as the reader will see it */
} WEvent;

struct _TtvLttWriter {
  char *dir;                    /* owned */
  TtvLttWriterOptions opt;      /* strings below are owned copies */
  char *node_name;
  char *description;
  TtvLttSystem sys;
  GPtrArray *facilities;        /* of WFacility *, owned */
  GPtrArray *events;            /* of WEvent *, owned */
  GPtrArray *cpus;              /* of WStream * (NULL for unused ids), owned */
  WStream *processes;           /* owned, may be NULL */
  WStream *interrupts;          /* owned, may be NULL */
  TtvType *facility_load_type;  /* owned */
  guint max_cpu;
};

/* --- streams and blocks ------------------------------------------------ */

static void
put_uint (GByteArray *buf, guint64 v, guint bytes, TtvByteOrder order)
{
  guint8 tmp[8];
  for (guint i = 0; i < bytes; i++)
    tmp[i] = (guint8) (v >> (order == TTV_BYTE_ORDER_LITTLE ? i * 8 : (bytes - 1 - i) * 8));
  g_byte_array_append (buf, tmp, bytes);
}

static void
pad_to (GByteArray *buf, guint align)
{
  static const guint8 zeros[8];
  guint len = buf->len;
  guint padded = (len + align - 1) / align * align;
  g_byte_array_append (buf, zeros, padded - len);
}

static void
put_header (TtvLttWriter *w, GByteArray *buf, guint code, guint32 delta)
{
  put_uint (buf, code, 2, w->sys.byte_order);
  put_uint (buf, delta, 4, w->sys.byte_order);
}

static void
put_timestamp (TtvLttWriter *w, GByteArray *buf, guint code, guint64 cycles)
{
  TtvTime t = w->opt.start_time + ttv_time_cycles_to_ns (cycles, w->sys.freq);
  put_header (w, buf, code, 0);
  pad_to (buf, 8);
  put_uint (buf, (guint64) (t / TTV_NSEC_PER_SEC), 4, w->sys.byte_order);
  put_uint (buf, (guint64) (t % TTV_NSEC_PER_SEC), 4, w->sys.byte_order);
  put_uint (buf, cycles, 8, w->sys.byte_order);
}

/* Room for a block_end after @len bytes? */
static gboolean
block_end_fits (TtvLttWriter *w, guint64 len)
{
  return ttv_ltt_ts_payload (len) + TTV_LTT_BLOCK_TS_SIZE <= w->sys.block_size - 4;
}

static WStream *
stream_new (TtvLttWriter *w, const char *rel, guint max_blocks, GError **error)
{
  g_autofree char *path = g_build_filename (w->dir, rel, NULL);
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    {
      ttv_writer_io_error (error, path, errno);
      return NULL;
    }
  WStream *s = g_new0 (WStream, 1);
  s->path = g_steal_pointer (&path);
  s->fd = fd;
  s->buf = g_byte_array_sized_new (w->sys.block_size);
  s->max_blocks = max_blocks;
  s->last_time = TTV_TIME_MIN;
  return s;
}

static void
stream_free (WStream *s)
{
  if (s == NULL)
    return;
  if (s->fd >= 0)
    close (s->fd);
  g_byte_array_unref (s->buf);
  g_free (s->path);
  g_free (s);
}

static void
block_open (TtvLttWriter *w, WStream *s, guint64 cycles)
{
  g_byte_array_set_size (s->buf, 0);
  put_timestamp (w, s->buf, TTV_LTT_CODE_BLOCK_START, cycles);
  put_uint (s->buf, s->block_id, 4, w->sys.byte_order);
  g_assert (s->buf->len == TTV_LTT_FIRST_EVENT);
  s->last_cycles = cycles;
  s->in_block = TRUE;
}

static gboolean
block_close (TtvLttWriter *w, WStream *s, GError **error)
{
  GByteArray *buf = s->buf;
  guint32 end = buf->len;
  g_assert (block_end_fits (w, end));
  put_timestamp (w, buf, TTV_LTT_CODE_BLOCK_END, s->last_cycles);
  put_uint (buf, s->block_id, 4, w->sys.byte_order);
  guint len = buf->len;
  g_byte_array_set_size (buf, w->sys.block_size);
  memset (buf->data + len, 0, w->sys.block_size - len);
  buf->len = w->sys.block_size - 4;
  put_uint (buf, end, 4, w->sys.byte_order);

  guint64 slot = s->max_blocks ? s->block_id % s->max_blocks : s->block_id;
  guint64 at = slot * w->sys.block_size;
  gsize done = 0;
  while (done < buf->len)
    {
      ssize_t n = pwrite (s->fd, buf->data + done, buf->len - done, (off_t) (at + done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return ttv_writer_io_error (error, s->path, n < 0 ? errno : ENOSPC);
      done += (gsize) n;
    }
  s->block_id++;
  s->in_block = FALSE;
  return TRUE;
}

/* Appends header + payload of one event at @cycles; FALSE (buffer unchanged)
 * when the values do not fit the type. */
static gboolean
append_event (TtvLttWriter *w, WStream *s, guint code, const TtvType *type, guint64 cycles,
              const TtvScalar *values, guint n_values, GError **error)
{
  guint start = s->buf->len;
  put_header (w, s->buf, code, (guint32) (cycles - s->last_cycles));
  guint used = 0;
  if (!ttv_encode (s->buf, type, values, n_values, &used, error))
    {
      g_byte_array_set_size (s->buf, start);
      return FALSE;
    }
  if (used != n_values)
    {
      g_byte_array_set_size (s->buf, start);
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("%u values given, the event takes %u"), n_values, used);
      return FALSE;
    }
  return TRUE;
}

static gboolean
stream_write (TtvLttWriter *w, WStream *s, guint code, const TtvType *type, guint64 cycles,
              const TtvScalar *values, guint n_values, GError **error)
{
  if (!s->in_block)
    block_open (w, s, cycles);
  else if (cycles - s->last_cycles > G_MAXUINT32)
    {
      /* The delta would not fit: a heartbeat carries the full count. */
      guint start = s->buf->len;
      put_timestamp (w, s->buf, TTV_LTT_CODE_HEARTBEAT, cycles);
      if (block_end_fits (w, s->buf->len))
        s->last_cycles = cycles;
      else
        {
          g_byte_array_set_size (s->buf, start);
          if (!block_close (w, s, error))
            return FALSE;
          block_open (w, s, cycles);
        }
    }
  guint start = s->buf->len;
  if (!append_event (w, s, code, type, cycles, values, n_values, error))
    return FALSE;
  if (!block_end_fits (w, s->buf->len))
    {
      g_byte_array_set_size (s->buf, start);
      if (start == TTV_LTT_FIRST_EVENT)
        goto too_big;
      if (!block_close (w, s, error))
        return FALSE;
      block_open (w, s, cycles);
      if (!append_event (w, s, code, type, cycles, values, n_values, error))
        return FALSE;
      if (!block_end_fits (w, s->buf->len))
        {
          g_byte_array_set_size (s->buf, TTV_LTT_FIRST_EVENT);
          goto too_big;
        }
    }
  s->last_cycles = cycles;
  s->n_events++;
  return TRUE;

too_big:
  g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
               _("%s: an event does not fit in a block of %u bytes"), s->path, w->sys.block_size);
  return FALSE;
}

static gboolean
stream_finish (TtvLttWriter *w, WStream *s, GError **error)
{
  if (s == NULL)
    return TRUE;
  gboolean ok = !s->in_block || block_close (w, s, error);
  if (s->fd >= 0 && close (s->fd) != 0 && ok)
    ok = ttv_writer_io_error (error, s->path, errno);
  s->fd = -1;
  return ok;
}

/* --- the writer ---------------------------------------------------------- */

static void
facility_free (WFacility *f)
{
  g_free (f->name);
  g_free (f->description);
  g_string_free (f->types_xml, TRUE);
  g_hash_table_unref (f->type_defs);
  g_free (f);
}

static void
event_free (WEvent *e)
{
  g_free (e->xml);
  if (e->type)
    ttv_type_unref (e->type);
  g_free (e);
}

static void
writer_free (TtvLttWriter *w)
{
  for (guint i = 0; i < w->cpus->len; i++)
    stream_free (g_ptr_array_index (w->cpus, i));
  g_ptr_array_unref (w->cpus);
  stream_free (w->processes);
  stream_free (w->interrupts);
  g_ptr_array_unref (w->facilities);
  g_ptr_array_unref (w->events);
  ttv_type_unref (w->facility_load_type);
  g_free (w->node_name);
  g_free (w->description);
  g_free (w->dir);
  g_free (w);
}

TtvLttWriter *
ttv_ltt_writer_new (const char *dir, const TtvLttWriterOptions *options, GError **error)
{
  g_return_val_if_fail (dir != NULL && options != NULL, NULL);
  TtvLttWriterOptions o = *options;
  if (o.block_size == 0)
    o.block_size = 65536;
  if (o.cycles_per_second == 0)
    o.cycles_per_second = 1000000000u;
  if (o.block_size < TTV_LTT_MIN_BLOCK_SIZE || o.block_size > TTV_LTT_MAX_BLOCK_SIZE
      || (guint) o.arch_size > TTV_LTT_ARCH_ILP64 || o.start_time < 0
      || o.cycles_per_second > (G_GUINT64_CONSTANT (1) << 48))
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Bad LTT writer options: block size %u (64 to 2^30), start time must not be "
                     "negative, frequency at most 2^48 Hz"), o.block_size);
      return NULL;
    }

  gboolean empty;
  if (!ttv_writer_make_dir (dir, &empty, error))
    return NULL;
  if (!empty)
    {
      ttv_writer_bad_argument (error, _("%s: the directory is not empty; refusing to write a "
                                        "trace into it"), dir);
      return NULL;
    }
  for (guint i = 0; i < 4; i++)
    {
      static const char * const sub[] = { "eventdefs", "info", "control", "cpu" };
      g_autofree char *p = g_build_filename (dir, sub[i], NULL);
      if (g_mkdir (p, 0755) != 0)
        {
          ttv_writer_io_error (error, p, errno);
          return NULL;
        }
    }

  TtvLttWriter *w = g_new0 (TtvLttWriter, 1);
  w->dir = g_strdup (dir);
  w->opt = o;
  w->node_name = g_strdup (o.node_name ? o.node_name : "ttv-gen");
  w->description = g_strdup (o.description);
  w->sys.byte_order = o.byte_order;
  w->sys.arch = o.arch_size;
  ttv_ltt_arch_sizes (o.arch_size, &w->sys.short_bits, &w->sys.int_bits, &w->sys.long_bits,
                      &w->sys.pointer_bits);
  w->sys.block_size = o.block_size;
  w->sys.freq = o.cycles_per_second;
  w->sys.n_cpu = o.n_cpu_slots;
  w->sys.flight_recorder = o.max_blocks_per_cpu > 0;
  w->facilities = g_ptr_array_new_with_free_func ((GDestroyNotify) facility_free);
  w->events = g_ptr_array_new_with_free_func ((GDestroyNotify) event_free);
  w->cpus = g_ptr_array_new ();
  w->facility_load_type = ttv_ltt_facility_load_type_new (o.byte_order);
  return w;
}

guint
ttv_ltt_writer_add_facility (TtvLttWriter *w, const char *name, const char *description)
{
  g_return_val_if_fail (w != NULL && name != NULL && *name, 0);
  WFacility *f = g_new0 (WFacility, 1);
  f->name = g_strdup (name);
  f->description = g_strdup (description);
  f->types_xml = g_string_new (NULL);
  f->type_defs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_ptr_array_add (w->facilities, f);
  return w->facilities->len - 1;
}

static gboolean
size_word (const TtvType *t, gboolean is_float, const char **word, GError **error)
{
  switch (t->native_size)
    {
    case TTV_NATIVE_SHORT:
      *word = "short";
      return TRUE;
    case TTV_NATIVE_INT:
      *word = "medium";
      return TRUE;
    case TTV_NATIVE_LONG:
    case TTV_NATIVE_POINTER:
      *word = "long";
      return TRUE;
    case TTV_NATIVE_NONE:
      break;
    }
  switch (t->size_bits)
    {
    case 8: *word = "1"; break;
    case 16: *word = "2"; break;
    case 32: *word = "4"; break;
    case 64: *word = "8"; break;
    default:
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("LTT cannot describe a %s of %u bits"), is_float ? _("float") : _("integer"),
                   t->size_bits);
      return FALSE;
    }
  if (is_float && t->size_bits < 32)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("LTT cannot describe a float of %u bits"), t->size_bits);
      return FALSE;
    }
  return TRUE;
}

static void
append_attr (GString *out, const char *name, const char *value)
{
  g_autofree char *v = g_markup_escape_text (value, -1);
  g_string_append_printf (out, " %s=\"%s\"", name, v);
}

static void
append_description (GString *out, const char *text)
{
  if (text == NULL)
    return;
  g_autofree char *v = g_markup_escape_text (text, -1);
  g_string_append_printf (out, "<description>%s</description>", v);
}

static gboolean type_xml (WFacility *f, const TtvType *t, gboolean define, GString *out,
                          guint depth, GError **error);

static gboolean
fields_xml (WFacility *f, const TtvType *t, GString *out, guint depth, GError **error)
{
  for (guint i = 0; i < t->fields->len; i++)
    {
      const TtvField *fd = g_ptr_array_index (t->fields, i);
      g_string_append (out, "<field");
      append_attr (out, "name", fd->name ? fd->name : "");
      g_string_append_c (out, '>');
      append_description (out, fd->description);
      if (!type_xml (f, fd->type, FALSE, out, depth + 1, error))
        return FALSE;
      g_string_append (out, "</field>");
    }
  return TRUE;
}

static gboolean
type_xml (WFacility *f, const TtvType *t, gboolean define, GString *out, guint depth, GError **error)
{
  const char *size;
  if (depth > 32)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, _("Types nested too deeply"));
      return FALSE;
    }
  if (t->name && !define)
    {
      g_autoptr (GString) def = g_string_new (NULL);
      if (!type_xml (f, t, TRUE, def, depth + 1, error))
        return FALSE;
      const char *known = g_hash_table_lookup (f->type_defs, t->name);
      if (known && strcmp (known, def->str) != 0)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("Two different types are named “%s” in facility “%s”"), t->name, f->name);
          return FALSE;
        }
      if (!known)
        {
          g_hash_table_insert (f->type_defs, g_strdup (t->name), g_strdup (def->str));
          g_string_append (f->types_xml, "<type");
          append_attr (f->types_xml, "name", t->name);
          g_string_append_c (f->types_xml, '>');
          append_description (f->types_xml, t->description);
          g_string_append_printf (f->types_xml, "%s</type>\n", def->str);
        }
      g_string_append (out, "<typeref");
      append_attr (out, "name", t->name);
      g_string_append (out, "/>");
      return TRUE;
    }

  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      if (!size_word (t, FALSE, &size, error))
        return FALSE;
      g_string_append (out, t->is_signed ? "<int" : "<uint");
      append_attr (out, "size", size);
      if (t->format)
        append_attr (out, "format", t->format);
      g_string_append (out, "/>");
      return TRUE;
    case TTV_TYPE_FLOAT:
      if (!size_word (t, TRUE, &size, error))
        return FALSE;
      g_string_append (out, "<float");
      append_attr (out, "size", size);
      if (t->format)
        append_attr (out, "format", t->format);
      g_string_append (out, "/>");
      return TRUE;
    case TTV_TYPE_STRING:
      g_string_append (out, "<string");
      if (t->format)
        append_attr (out, "format", t->format);
      g_string_append (out, "/>");
      return TRUE;
    case TTV_TYPE_ENUM:
      if (!size_word (t->container, FALSE, &size, error))
        return FALSE;
      g_string_append (out, "<enum");
      append_attr (out, "size", size);
      if (t->format)
        append_attr (out, "format", t->format);
      g_string_append_c (out, '>');
      for (guint i = 0; i < t->mappings->len; i++)
        {
          const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
          if (m->start != i || m->end != i || !*m->label || strpbrk (m->label, " \t\r\n<&"))
            {
              g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                           _("LTT enums number their labels 0, 1, 2...; label “%s” does not fit"),
                           m->label);
              return FALSE;
            }
          g_string_append_printf (out, "%s%s", i ? " " : "", m->label);
        }
      g_string_append (out, "</enum>");
      return TRUE;
    case TTV_TYPE_ARRAY:
      g_string_append_printf (out, "<array size=\"%" G_GUINT64_FORMAT "\">", t->length);
      if (!type_xml (f, t->element, FALSE, out, depth + 1, error))
        return FALSE;
      g_string_append (out, "</array>");
      return TRUE;
    case TTV_TYPE_SEQUENCE:
      if (t->prefix == NULL || t->prefix->kind != TTV_TYPE_INTEGER)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("LTT sequences need a length prefix integer"));
          return FALSE;
        }
      if (!size_word (t->prefix, FALSE, &size, error))
        return FALSE;
      g_string_append (out, "<sequence");
      append_attr (out, "lengthsize", size);
      g_string_append_c (out, '>');
      if (!type_xml (f, t->element, FALSE, out, depth + 1, error))
        return FALSE;
      g_string_append (out, "</sequence>");
      return TRUE;
    case TTV_TYPE_STRUCT:
      g_string_append (out, "<struct>");
      if (!fields_xml (f, t, out, depth, error))
        return FALSE;
      g_string_append (out, "</struct>");
      return TRUE;
    case TTV_TYPE_VARIANT:
      if (t->prefix == NULL || t->prefix->kind != TTV_TYPE_INTEGER || t->fields->len == 0)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("LTT unions need a type code prefix integer and at least one field"));
          return FALSE;
        }
      if (!size_word (t->prefix, FALSE, &size, error))
        return FALSE;
      g_string_append (out, "<union");
      append_attr (out, "typecodesize", size);
      g_string_append_c (out, '>');
      if (!fields_xml (f, t, out, depth, error))
        return FALSE;
      g_string_append (out, "</union>");
      return TRUE;
    }
  return FALSE;
}

static char *
facility_xml (const WFacility *f, GPtrArray *events, guint facility_index, const char *extra_event)
{
  GString *s = g_string_new ("<facility");
  append_attr (s, "name", f->name);
  g_string_append (s, ">\n");
  append_description (s, f->description);
  if (f->description)
    g_string_append_c (s, '\n');
  for (guint i = 0; events && i < events->len; i++)
    {
      const WEvent *e = g_ptr_array_index (events, i);
      if (e->facility == facility_index)
        g_string_append_printf (s, "%s\n", e->xml);
    }
  if (extra_event)
    g_string_append_printf (s, "%s\n", extra_event);
  g_string_append (s, f->types_xml->str);
  g_string_append (s, "</facility>\n");
  return g_string_free (s, FALSE);
}

gint
ttv_ltt_writer_add_event (TtvLttWriter *w, guint facility, const char *name,
                          const char *description, const TtvType *fields, GError **error)
{
  g_return_val_if_fail (w != NULL && name != NULL && fields != NULL, -1);
  if (facility >= w->facilities->len || fields->kind != TTV_TYPE_STRUCT)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Event “%s”: no facility %u, or its fields are not a struct"), name, facility);
      return -1;
    }
  WFacility *f = g_ptr_array_index (w->facilities, facility);
  if (f->n_events >= CODES_PER_FACILITY || facility + 1 >= 65536 / CODES_PER_FACILITY)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Event “%s”: the LTT writer allows %u events per facility and %u facilities"),
                   name, CODES_PER_FACILITY, 65536 / CODES_PER_FACILITY - 1);
      return -1;
    }

  /* Types defined for this event are kept only if the event is accepted. */
  gsize types_len = f->types_xml->len;
  g_autoptr (GString) xml = g_string_new ("<event");
  append_attr (xml, "name", name);
  g_string_append_c (xml, '>');
  append_description (xml, description);
  if (!type_xml (f, fields, FALSE, xml, 0, error))
    {
      g_string_truncate (f->types_xml, types_len);
      return -1;
    }
  g_string_append (xml, "</event>");

  /* Parse it back as the reader will, for the exact layout to encode. */
  WFacility alone = *f;
  g_autofree char *text = facility_xml (&alone, NULL, 0, xml->str);
  g_autoptr (GPtrArray) parsed = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_ltt_facility_free);
  g_autoptr (xmlDoc) doc = ttv_ltt_xml_read (name, text, strlen (text), error);
  if (doc == NULL || !ttv_ltt_eventdefs_parse (doc, name, &w->sys, parsed, error))
    {
      g_string_truncate (f->types_xml, types_len);
      return -1;
    }
  TtvLttFacility *pf = g_ptr_array_index (parsed, 0);
  TtvLttEventDef *def = g_ptr_array_index (pf->events, pf->events->len - 1);

  WEvent *e = g_new0 (WEvent, 1);
  e->facility = facility;
  e->code = CODES_PER_FACILITY * (facility + 1) + f->n_events++;
  e->xml = g_string_free (g_steal_pointer (&xml), FALSE);
  e->type = ttv_type_ref (def->fields);
  g_ptr_array_add (w->events, e);
  return (gint) w->events->len - 1;
}

static WStream *
get_stream (TtvLttWriter *w, gint stream, GError **error)
{
  if (stream == TTV_LTT_STREAM_PROCESSES || stream == TTV_LTT_STREAM_INTERRUPTS)
    {
      WStream **s = stream == TTV_LTT_STREAM_PROCESSES ? &w->processes : &w->interrupts;
      if (*s == NULL)
        *s = stream_new (w, stream == TTV_LTT_STREAM_PROCESSES ? "control/processes"
                                                               : "control/interrupts", 0, error);
      return *s;
    }
  if (stream < 0 || (guint) stream >= MAX_CPU)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Stream %d is neither a CPU id (0 to %u) nor a control stream"), stream,
                   MAX_CPU - 1);
      return NULL;
    }
  if ((guint) stream >= w->cpus->len)
    g_ptr_array_set_size (w->cpus, stream + 1);
  WStream *s = g_ptr_array_index (w->cpus, stream);
  if (s == NULL)
    {
      g_autofree char *rel = g_strdup_printf ("cpu/%d", stream);
      s = stream_new (w, rel, w->opt.max_blocks_per_cpu, error);
      g_ptr_array_index (w->cpus, stream) = s;
      w->max_cpu = MAX (w->max_cpu, (guint) stream + 1);
    }
  return s;
}

gboolean
ttv_ltt_writer_write_event (TtvLttWriter *w, gint stream, TtvTime time, guint event,
                            const TtvScalar *values, guint n_values, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  WStream *s = get_stream (w, stream, error);
  if (s == NULL)
    return FALSE;
  if (event >= w->events->len)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Event handle %u was not returned by ttv_ltt_writer_add_event"), event);
      return FALSE;
    }
  if (time < s->last_time || time < w->opt.start_time || time / TTV_NSEC_PER_SEC > G_MAXUINT32)
    {
      char a[32], b[32];
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("%s: event time %s is before the previous event (%s) or the trace start, or "
                     "past 2106"),
                   s->path, ttv_time_to_string (time, a, sizeof a),
                   ttv_time_to_string (MAX (s->last_time, w->opt.start_time), b, sizeof b));
      return FALSE;
    }
  const WEvent *e = g_ptr_array_index (w->events, event);
  guint64 ns = (guint64) (time - w->opt.start_time);
  guint64 cycles = w->sys.freq == 1000000000u
    ? ns : (guint64) (((unsigned __int128) ns * w->sys.freq) / 1000000000u);
  if (!stream_write (w, s, e->code, e->type, cycles, values, n_values, error))
    return FALSE;
  s->last_time = time;
  return TRUE;
}

static gboolean
write_text (const char *path, const char *text, GError **error)
{
  g_autoptr (GError) local = NULL;
  if (!g_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("%s: cannot write: %s"), path,
                   local->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_eventdefs (TtvLttWriter *w, guint32 *checksums, GError **error)
{
  g_autoptr (GHashTable) done = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < w->facilities->len; i++)
    {
      WFacility *f = g_ptr_array_index (w->facilities, i);
      if (g_hash_table_contains (done, f->name))
        continue;
      g_hash_table_add (done, f->name);
      /* Every version of a facility name goes in one file. */
      GString *text = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<eventdefs>\n");
      g_autoptr (GArray) members = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint k = i; k < w->facilities->len; k++)
        {
          WFacility *g = g_ptr_array_index (w->facilities, k);
          if (strcmp (g->name, f->name) != 0)
            continue;
          g_autofree char *x = facility_xml (g, w->events, k, NULL);
          g_string_append (text, x);
          g_array_append_val (members, k);
        }
      g_string_append (text, "</eventdefs>\n");
      g_autofree char *file = g_strdelimit (g_strdup_printf ("%s.xml", f->name), "/\\", '_');
      g_autofree char *path = g_build_filename (w->dir, "eventdefs", file, NULL);
      g_autoptr (xmlDoc) doc = ttv_ltt_xml_read (path, text->str, text->len, error);
      gboolean ok = doc && write_text (path, text->str, error);
      g_string_free (text, TRUE);
      if (!ok)
        return FALSE;
      guint m = 0;
      for (xmlNode *n = xmlDocGetRootElement (doc)->children; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && m < members->len)
          checksums[g_array_index (members, guint, m++)] = ttv_ltt_facility_checksum (n);
    }
  return TRUE;
}

static gboolean
write_system (TtvLttWriter *w, GError **error)
{
  GString *s = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<system");
  char num[32];
  append_attr (s, "node_name", w->node_name);
  g_snprintf (num, sizeof num, "%u", MAX (w->opt.n_cpu_slots, w->max_cpu));
  append_attr (s, "cpu", num);
  append_attr (s, "arch_size", ttv_ltt_arch_name (w->sys.arch));
  append_attr (s, "endian", w->sys.byte_order == TTV_BYTE_ORDER_BIG ? "big" : "little");
  append_attr (s, "ltt_major_version", "2");
  append_attr (s, "ltt_minor_version", "0");
  g_snprintf (num, sizeof num, "%u", w->sys.block_size);
  append_attr (s, "ltt_block_size", num);
  g_snprintf (num, sizeof num, "%" G_GUINT64_FORMAT, w->sys.freq);
  append_attr (s, "cycles_per_second", num);
  append_attr (s, "flight_recorder", w->sys.flight_recorder ? "1" : "0");
  append_attr (s, "ttv_writer", "ttv " TTV_VERSION);
  g_string_append (s, ">\n");
  if (w->description)
    {
      g_autofree char *d = g_markup_escape_text (w->description, -1);
      g_string_append_printf (s, "%s\n", d);
    }
  g_string_append (s, "</system>\n");
  g_autofree char *path = g_build_filename (w->dir, "info", "system.xml", NULL);
  gboolean ok = write_text (path, s->str, error);
  g_string_free (s, TRUE);
  return ok;
}

gboolean
ttv_ltt_writer_close (TtvLttWriter *w, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < w->cpus->len; i++)
    ok = stream_finish (w, g_ptr_array_index (w->cpus, i), error);
  for (guint i = 0; ok && i < 2; i++)
    {
      gint id = i == 0 ? TTV_LTT_STREAM_PROCESSES : TTV_LTT_STREAM_INTERRUPTS;
      WStream *s = get_stream (w, id, error);   /* creates empty files */
      ok = s && stream_finish (w, s, error);
    }
  g_autofree guint32 *checksums = g_new0 (guint32, w->facilities->len + 1);
  ok = ok && write_eventdefs (w, checksums, error);
  if (ok)
    {
      WStream *fs = stream_new (w, "control/facilities", 0, error);
      ok = fs != NULL;
      for (guint i = 0; ok && i < w->facilities->len; i++)
        {
          WFacility *f = g_ptr_array_index (w->facilities, i);
          TtvScalar v[3] = { TTV_SCALAR_STRING (f->name), TTV_SCALAR_UINT (checksums[i]),
                             TTV_SCALAR_UINT (CODES_PER_FACILITY * (i + 1)) };
          ok = stream_write (w, fs, TTV_LTT_CODE_FACILITY_LOAD, w->facility_load_type, 0, v, 3, error);
        }
      ok = ok && stream_finish (w, fs, error);
      stream_free (fs);
    }
  ok = ok && write_system (w, error);
  writer_free (w);
  return ok;
}

void
ttv_ltt_writer_abort (TtvLttWriter *w)
{
  if (w)
    writer_free (w);
}
