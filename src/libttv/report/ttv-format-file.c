/* ttv-format-file.c: renders events with a parsed format file (see
 * ttv-format-file.h); the template is chosen once per event type. */
#include "ttv-format-file-private.h"
#include "ttv-glob.h"
#include "ttv-hook-groups.h"

#include <stdlib.h>
#include <string.h>

static TtvFormatTemplate no_template;

void
ttv_format_file_free (TtvFormatFile *ff)
{
  if (ff == NULL)
    return;
  g_ptr_array_unref (ff->templates);
  ttv_format_template_free (ff->default_template);
  g_ptr_array_unref (ff->timers);
  g_hash_table_unref (ff->cache);
  g_string_free (ff->scratch, TRUE);
  g_free (ff);
}

guint
ttv_format_file_get_n_templates (const TtvFormatFile *ff)
{
  return ff->templates->len;
}

gboolean
ttv_format_file_has_default (const TtvFormatFile *ff)
{
  return ff->default_template != NULL;
}

void
ttv_format_file_add_timers (const TtvFormatFile *ff, TtvTimerSet *timers)
{
  for (guint i = 0; i + 1 < ff->timers->len; i += 2)
    ttv_timer_set_add (timers, g_ptr_array_index (ff->timers, i), g_ptr_array_index (ff->timers, i + 1));
}

/* The node of @path ("a.b[2]") under @root (an element of a text array
 * is made in @scratch), or NULL. */
static const TtvValue *
find_node (const TtvDecoder *dec, gint32 root, const char *path, TtvValue *scratch)
{
  if (root < 0)
    return NULL;
  const TtvValue *v = ttv_decoder_get (dec, (guint32) root);
  const char *s = path;
  while (*s)
    {
      if (*s == '[')
        {
          char *end;
          guint64 idx = g_ascii_strtoull (s + 1, &end, 10);
          if (*end != ']' || (v->type->kind != TTV_TYPE_ARRAY && v->type->kind != TTV_TYPE_SEQUENCE)
              || idx >= ttv_value_get_n_elements (v))
            return NULL;
          v = ttv_decoder_get_element (dec, v, (guint32) idx, scratch);
          s = end + 1;
        }
      else
        {
          const char *e = s;
          while (*e && *e != '.' && *e != '[')
            e++;
          gboolean found = FALSE;
          if (v->type->kind == TTV_TYPE_STRUCT || v->type->kind == TTV_TYPE_VARIANT)
            for (guint32 i = 0; i < v->n_children && !found; i++)
              {
                const TtvValue *child = ttv_decoder_get (dec, v->first_child + i);
                if (child->name && strlen (child->name) == (gsize) (e - s)
                    && memcmp (child->name, s, (gsize) (e - s)) == 0)
                  {
                    v = child;
                    found = TRUE;
                  }
              }
          if (!found)
            return NULL;
          s = e;
        }
      if (*s == '.')
        s++;
    }
  return v;
}

/* The value as conditions compare it: enum label, decimal, text. */
static void
value_text (const TtvDecoder *dec, const TtvValue *v, GString *out)
{
  if (v->type->kind == TTV_TYPE_STRING)
    g_string_append (out, v->v.string.str);
  else if (v->type->kind == TTV_TYPE_ENUM && ttv_type_enum_label (v->type, v->v.u))
    g_string_append (out, ttv_type_enum_label (v->type, v->v.u));
  else
    {
      gint64 i;
      if (v->type->kind != TTV_TYPE_FLOAT && ttv_value_get_int (v, &i))
        {
          guint64 u;
          if (!v->type->is_signed && ttv_value_get_uint (v, &u))
            g_string_append_printf (out, "%" G_GUINT64_FORMAT, u);
          else
            g_string_append_printf (out, "%" G_GINT64_FORMAT, i);
        }
      else
        ttv_decoder_append_node (dec, v, TTV_VALUE_STYLE_PLAIN, out);
    }
}

static void render (TtvFormatFile *ff, GArray *pieces, const TtvEvent *ev, const TtvDecoder *dec,
                    gint32 root, const TtvState *state, GString *out);

static void
render_var (const char *name, const TtvEvent *ev, const TtvDecoder *dec, gint32 root,
            const TtvState *state, GString *out)
{
  const TtvProcessState *proc = state ? ttv_state_get_event_process (state, ev->tracefile->cpu) : NULL;
  if (g_str_equal (name, "$name"))
    g_string_append (out, ev->type->full_name);
  else if (g_str_equal (name, "$facility"))
    g_string_append (out, ev->type->facility ? ev->type->facility : "-");
  else if (g_str_equal (name, "$id"))
    {
      char id[TTV_EVENT_ID_LEN];
      g_string_append (out, ttv_event_type_format_id (ev->type, id));
    }
  else if (g_str_equal (name, "$cpu"))
    {
      if (ev->tracefile->cpu >= 0)
        g_string_append_printf (out, "%d", ev->tracefile->cpu);
      else
        g_string_append (out, ev->tracefile->name);
    }
  else if (g_str_equal (name, "$fields"))
    {
      if (root >= 0)
        ttv_decoder_append_value (dec, (guint32) root, TTV_VALUE_STYLE_PLAIN, out);
    }
  else if (proc == NULL)
    g_string_append_c (out, '-');
  else if (g_str_equal (name, "$pid"))
    g_string_append_printf (out, "%" G_GINT64_FORMAT, ttv_process_state_get_tgid (proc));
  else if (g_str_equal (name, "$tid"))
    g_string_append_printf (out, "%u", proc->pid);
  else if (g_str_equal (name, "$exec"))
    g_string_append (out, proc->name ? g_quark_to_string (proc->name) : "-");
  else if (g_str_equal (name, "$svc"))
    {
      const char *svc = ttv_state_get_event_syscall (state, ev->tracefile->cpu);
      g_string_append (out, svc ? svc : "-");
    }
  else if (g_str_equal (name, "$mode"))
    g_string_append (out, ttv_exec_mode_name (ttv_process_state_get_mode (proc)));
}

static void
render (TtvFormatFile *ff, GArray *pieces, const TtvEvent *ev, const TtvDecoder *dec, gint32 root,
        const TtvState *state, GString *out)
{
  for (guint i = 0; i < pieces->len; i++)
    {
      const TtvFormatPiece *piece = &g_array_index (pieces, TtvFormatPiece, i);
      const TtvValue *v;
      TtvValue scratch;
      switch (piece->kind)
        {
        case PIECE_TEXT:
          g_string_append (out, piece->text);
          break;
        case PIECE_VAR:
          render_var (piece->text, ev, dec, root, state, out);
          break;
        case PIECE_FIELD:
          v = find_node (dec, root, piece->text, &scratch);
          if (v == NULL)
            g_string_append_c (out, '?');
          else
            {
              guint64 u;
              if (piece->hex && (v->type->kind == TTV_TYPE_INTEGER || v->type->kind == TTV_TYPE_ENUM)
                  && ttv_value_get_uint (v, &u))
                g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", u);
              else
                ttv_decoder_append_node (dec, v, TTV_VALUE_STYLE_PLAIN, out);
            }
          break;
        case PIECE_COND:
          {
            v = find_node (dec, root, piece->text, &scratch);
            g_autoptr (GString) value = g_string_new (NULL);
            if (v)
              value_text (dec, v, value);
            for (guint k = 0; k < piece->cases->len; k++)
              {
                TtvFormatCase *fc = g_ptr_array_index (piece->cases, k);
                if (fc->pattern == NULL || (v && ttv_glob_match (fc->pattern, value->str)))
                  {
                    render (ff, fc->pieces, ev, dec, root, state, out);
                    break;
                  }
              }
            break;
          }
        }
    }
}

static TtvFormatTemplate *
choose (TtvFormatFile *ff, const TtvEventType *type)
{
  TtvFormatTemplate *t = g_hash_table_lookup (ff->cache, type);
  if (t)
    return t == &no_template ? NULL : t;
  for (guint i = 0; i < ff->templates->len && t == NULL; i++)
    {
      TtvFormatTemplate *cand = g_ptr_array_index (ff->templates, i);
      for (guint j = 0; j < cand->patterns->len && t == NULL; j++)
        if (ttv_event_type_matches_pattern (type, g_ptr_array_index (cand->patterns, j)))
          t = cand;
    }
  if (t == NULL)
    t = ff->default_template;
  g_hash_table_insert (ff->cache, (gpointer) type, t ? t : &no_template);
  return t;
}

gboolean
ttv_format_file_append (TtvFormatFile *ff, const TtvEvent *ev, const TtvDecoder *dec, gint32 root,
                        const TtvState *state, GString *out)
{
  TtvFormatTemplate *t = choose (ff, ev->type);
  if (t == NULL)
    return FALSE;
  render (ff, t->pieces, ev, dec, root, state, out);
  return TRUE;
}
