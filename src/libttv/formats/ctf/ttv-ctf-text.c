/* ttv-ctf-text.c: babeltrace2's text.pretty line format (default options,
 * --clock-gmt) for CTF events; see ttv-ctf-text.h. */
#include "ttv-ctf-text.h"
#include "ttv-ctf.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

/* Packet context members babeltrace2 does not show (they have a meaning). */
static const char *const packet_meaning[] = {
  "timestamp_begin", "timestamp_end", "events_discarded", "content_size", "packet_size",
  "packet_seq_num", NULL,
};

static gboolean
is_text (const TtvType *t)
{
  const TtvType *e = t->element;
  return e && (e->kind == TTV_TYPE_INTEGER || e->kind == TTV_TYPE_ENUM) && e->size_bits == 8
         && e->align_bits == 8 && e->encoding == TTV_ENCODING_UTF8;
}

/* babeltrace2 keeps in its trace model only what has no special meaning:
 * integers mapped to a clock vanish, and compounds with nothing left. */
static gboolean
visible (const TtvType *t)
{
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      return t->clock_name == NULL;
    case TTV_TYPE_ENUM:
      return t->container == NULL || t->container->clock_name == NULL;
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      return visible (t->element);
    case TTV_TYPE_STRUCT:
    case TTV_TYPE_VARIANT:
      if (t->fields->len == 0)
        return TRUE;
      for (guint i = 0; i < t->fields->len; i++)
        if (visible (((const TtvField *) g_ptr_array_index (t->fields, i))->type))
          return TRUE;
      return FALSE;
    default:
      return TRUE;
    }
}

static void
append_escaped (GString *out, const char *s, gsize len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      switch (s[i])
        {
        /* As babeltrace2's print_escape_string: quotes, backslash and '?'
         * escaped, other control characters as \xNN. */
        case '\\': g_string_append (out, "\\\\"); break;
        case '\'': g_string_append (out, "\\'"); break;
        case '"': g_string_append (out, "\\\""); break;
        case '?': g_string_append (out, "\\?"); break;
        case '\x1b': g_string_append (out, "\\e"); break;
        case '\a': g_string_append (out, "\\a"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\v': g_string_append (out, "\\v"); break;
        default:
          if ((guchar) s[i] < 0x20 || s[i] == 0x7f)
            g_string_append_printf (out, "\\x%02x", (guchar) s[i]);
          else
            g_string_append_c (out, s[i]);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static void
append_integer (GString *out, const TtvType *t, guint64 raw)
{
  guint len = t->size_bits;
  switch (t->base)
    {
    case 2:
      g_string_append (out, "0b");
      for (guint i = len; i-- > 0;)
        g_string_append_c (out, (raw >> i) & 1 ? '1' : '0');
      break;
    case 8:
      if (t->is_signed && len < 64)
        {
          guint rounded = ((len - 1) / 3 + 1) * 3;
          if (rounded < 64)
            raw &= (G_GUINT64_CONSTANT (1) << rounded) - 1;
        }
      g_string_append_printf (out, "0%" PRIo64, raw);
      break;
    case 16:
      if (len < 64)
        {
          guint rounded = (len + 3) & ~3u;
          if (rounded < 64)
            raw &= (G_GUINT64_CONSTANT (1) << rounded) - 1;
        }
      g_string_append_printf (out, "0x%" PRIX64, raw);
      break;
    default:
      if (t->is_signed)
        g_string_append_printf (out, "%" PRId64, (gint64) raw);
      else
        g_string_append_printf (out, "%" PRIu64, raw);
      break;
    }
}

static gboolean
mapping_hit (const TtvType *t, const TtvEnumMapping *m, guint64 raw)
{
  return t->is_signed ? ((gint64) raw >= (gint64) m->start && (gint64) raw <= (gint64) m->end)
                      : (raw >= m->start && raw <= m->end);
}

static void
append_enum (GString *out, const TtvType *t, guint64 raw)
{
  g_string_append (out, "( ");
  guint printed = 0;
  /* Labels in order of first appearance; a label may have several ranges. */
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
      gboolean first = TRUE, hit = FALSE;
      for (guint j = 0; j < t->mappings->len && first; j++)
        {
          const TtvEnumMapping *o = &g_array_index (t->mappings, TtvEnumMapping, j);
          if (strcmp (o->label, m->label) != 0)
            continue;
          if (j < i)
            first = FALSE;
          else if (mapping_hit (t, o, raw))
            hit = TRUE;
        }
      if (!first || !hit)
        continue;
      if (printed++)
        g_string_append (out, ", ");
      append_escaped (out, m->label, strlen (m->label));
    }
  if (printed == 0)
    g_string_append (out, "<unknown>");
  g_string_append (out, " : container = ");
  append_integer (out, t->container ? t->container : t, raw);
  g_string_append (out, " )");
}

static void append_value (GString *out, const TtvDecoder *d, const TtvValue *v);

static void
append_struct (GString *out, const TtvDecoder *d, const TtvValue *v, const char *const *hide)
{
  g_string_append_c (out, '{');
  guint printed = 0;
  for (guint32 i = 0; i < v->n_children; i++)
    {
      const TtvValue *c = ttv_decoder_get (d, v->first_child + i);
      if (!visible (c->type))
        continue;
      if (hide && c->name && g_strv_contains (hide, c->name))
        continue;
      g_string_append (out, printed++ ? ", " : " ");
      g_string_append_printf (out, "%s = ", c->name ? c->name : "");
      append_value (out, d, c);
    }
  g_string_append (out, " }");
}

static void
append_value (GString *out, const TtvDecoder *d, const TtvValue *v)
{
  const TtvType *t = v->type;
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      append_integer (out, t, v->v.u);
      break;
    case TTV_TYPE_ENUM:
      append_enum (out, t, v->v.u);
      break;
    case TTV_TYPE_FLOAT:
      g_string_append_printf (out, "%g", v->v.f);
      break;
    case TTV_TYPE_STRING:
      append_escaped (out, v->v.string.str, v->v.string.len);
      break;
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      if (ttv_type_is_text_array (t))
        {
          const char *text = v->v.string.str;
          append_escaped (out, text, text ? strnlen (text, v->v.string.len) : 0);
          break;
        }
      if (is_text (t))
        {
          GString *s = g_string_new_len (NULL, 0);
          for (guint32 i = 0; i < v->n_children; i++)
            {
              char ch = (char) ttv_decoder_get (d, v->first_child + i)->v.u;
              if (ch == '\0')
                break;
              g_string_append_c (s, ch);
            }
          append_escaped (out, s->str, s->len);
          g_string_free (s, TRUE);
          break;
        }
      g_string_append_c (out, '[');
      for (guint32 i = 0; i < v->n_children; i++)
        {
          g_string_append_printf (out, "%s[%u] = ", i ? ", " : " ", i);
          append_value (out, d, ttv_decoder_get (d, v->first_child + i));
        }
      g_string_append (out, " ]");
      break;
    case TTV_TYPE_STRUCT:
      append_struct (out, d, v, NULL);
      break;
    case TTV_TYPE_VARIANT:
      g_string_append (out, "{ ");
      if (v->n_children == 1)
        append_value (out, d, ttv_decoder_get (d, v->first_child));
      g_string_append (out, " }");
      break;
    }
}

static void
append_time (GString *out, TtvTime t)
{
  gint64 sec = t / TTV_NSEC_PER_SEC, ns = t % TTV_NSEC_PER_SEC;
  if (ns < 0)
    {
      ns += TTV_NSEC_PER_SEC;
      sec--;
    }
  time_t tt = (time_t) sec;
  struct tm tm;
  if (gmtime_r (&tt, &tm) == NULL)
    memset (&tm, 0, sizeof tm);
  g_string_append_printf (out, "[%02d:%02d:%02d.%09" PRId64 "] ", tm.tm_hour, tm.tm_min, tm.tm_sec, ns);
}

void
ttv_ctf_append_babeltrace_line (GString *out, const TtvEvent *event, TtvTime previous_time,
                                TtvDecoder *decoder)
{
  g_return_if_fail (out != NULL && event != NULL && decoder != NULL);
  append_time (out, event->time);
  if (previous_time == TTV_TIME_MIN)
    g_string_append (out, "(+?.\?\?\?\?\?\?\?\?\?) ");
  else
    {
      guint64 delta = (guint64) event->time - (guint64) previous_time;
      g_string_append_printf (out, "(+%" PRIu64 ".%09" PRIu64 ") ", delta / 1000000000u,
                              delta % 1000000000u);
    }
  const char *host = ttv_trace_get_info (event->tracefile->trace, "hostname");
  if (host)
    g_string_append_printf (out, "%s ", host);
  g_string_append_printf (out, "%s: ", event->type->full_name);

  gint32 sctx = -1, ectx = -1, pctx = -1;
  g_autoptr (GError) error = NULL;
  gint32 payload = ttv_ctf_event_decode_contexts (event, decoder, &sctx, &ectx, &pctx, &error);
  if (payload < 0)
    {
      g_string_append_printf (out, "<error: %s>\n", error ? error->message : "?");
      return;
    }
  gboolean first = TRUE;
  if (pctx >= 0)
    {
      const TtvValue *v = ttv_decoder_get (decoder, (guint32) pctx);
      gboolean any = v->n_children == 0;
      for (guint32 i = 0; i < v->n_children && !any; i++)
        {
          const TtvValue *c = ttv_decoder_get (decoder, v->first_child + i);
          any = visible (c->type) && !g_strv_contains (packet_meaning, c->name);
        }
      if (any)
        {
          append_struct (out, decoder, v, packet_meaning);
          first = FALSE;
        }
    }
  gint32 scopes[] = { sctx, ectx, payload };
  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    {
      if (scopes[i] < 0)
        continue;
      const TtvValue *v = ttv_decoder_get (decoder, (guint32) scopes[i]);
      if (!visible (v->type))
        continue;
      if (!first)
        g_string_append (out, ", ");
      first = FALSE;
      append_struct (out, decoder, v, NULL);
    }
  g_string_append_c (out, '\n');
}
