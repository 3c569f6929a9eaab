/* ttv-ltt-control.c: the control files of an LTT trace: facilities (event code
 * ranges), processes and interrupts (initial system state for the state engine). */
#include "ttv-ltt-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

typedef struct {
  TtvLttFacility *facility;   /* weak */
  guint32 base;
  guint64 offset;             /* of the facility_load event in the file */
} Load;

void
ttv_ltt_control_clear (TtvLttTrace *lt)
{
  g_clear_pointer (&lt->processes, g_array_unref);
  g_clear_pointer (&lt->interrupts, g_array_unref);
  g_clear_pointer (&lt->codes, g_free);
  g_clear_pointer (&lt->facility_load_type, ttv_type_unref);
}

static guint64
file_offset (const TtvLttFile *f, const TtvEvent *ev)
{
  const TtvLttBlock *blk = &g_array_index (f->blocks, TtvLttBlock, ev->pos.block);
  return blk->slot * f->block_size + ev->pos.offset;
}

static gboolean
field_uint (const TtvDecoder *d, const TtvValue *root, const char *name, guint64 *out)
{
  const TtvValue *v = ttv_decoder_get_field (d, root, name);
  *out = 0;
  return v && ttv_value_get_uint (v, out);
}

static char *
field_dup_string (const TtvDecoder *d, const TtvValue *root, const char *name)
{
  const TtvValue *v = ttv_decoder_get_field (d, root, name);
  if (v == NULL || v->type->kind != TTV_TYPE_STRING)
    return NULL;
  return g_strndup (v->v.string.str, v->v.string.len);
}

/* Decodes an event's payload; errors name the file and offset. */
static const TtvValue *
decode (TtvDecoder *d, const TtvLttFile *f, const TtvEvent *ev, const TtvType *fields, GError **error)
{
  guint64 bit = ev->payload_bit;
  g_autoptr (GError) local = NULL;
  ttv_decoder_reset (d);
  gint32 root = ttv_decoder_decode (d, fields, "event.fields", ev->data, ev->data_bits, &bit, &local);
  if (root < 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: byte offset %" PRIu64 ": %s"), f->path, file_offset (f, ev),
                   local->message);
      return NULL;
    }
  return ttv_decoder_get (d, (guint32) root);
}

gboolean
ttv_ltt_control_load_facilities (TtvTrace *trace, TtvLttTrace *lt, GError **error)
{
  g_autofree char *path = g_build_filename (trace->path, "control", "facilities", NULL);
  TtvLttFile *f = ttv_ltt_file_open (path, &lt->sys, trace, error);
  if (f == NULL)
    return FALSE;

  lt->facility_load_type = ttv_ltt_facility_load_type_new (lt->sys.byte_order);
  TtvLttCode builtin[TTV_LTT_CODE_HEARTBEAT + 1];
  ttv_ltt_code_set (&builtin[TTV_LTT_CODE_FACILITY_LOAD], TTV_LTT_CODE_KIND_EVENT,
                    lt->facility_load_type, NULL);
  ttv_ltt_code_set (&builtin[TTV_LTT_CODE_BLOCK_START], TTV_LTT_CODE_KIND_BLOCK_START, NULL, NULL);
  ttv_ltt_code_set (&builtin[TTV_LTT_CODE_BLOCK_END], TTV_LTT_CODE_KIND_BLOCK_END, NULL, NULL);
  ttv_ltt_code_set (&builtin[TTV_LTT_CODE_HEARTBEAT], TTV_LTT_CODE_KIND_HEARTBEAT, NULL, NULL);

  TtvLttCursor c = { 0 };
  ttv_ltt_cursor_init (&c, f, builtin, G_N_ELEMENTS (builtin));
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  g_autoptr (GArray) loads = g_array_new (FALSE, FALSE, sizeof (Load));
  gboolean ok = TRUE;
  guint n_codes = TTV_LTT_BUILTIN_CODES;
  TtvEvent ev;
  GError *local = NULL;
  while (ok && ttv_ltt_cursor_next (&c.parent, &ev, &local))
    {
      const TtvValue *root = decode (d, f, &ev, lt->facility_load_type, error);
      if (root == NULL)
        {
          ok = FALSE;
          break;
        }
      g_autofree char *name = field_dup_string (d, root, "name");
      guint64 checksum, base;
      field_uint (d, root, "checksum", &checksum);
      field_uint (d, root, "base_code", &base);
      guint64 at = file_offset (f, &ev);
      TtvLttFacility *match = NULL, *same_name = NULL;
      for (guint i = 0; i < lt->facilities->len; i++)
        {
          TtvLttFacility *fac = g_ptr_array_index (lt->facilities, i);
          if (g_strcmp0 (fac->name, name) != 0)
            continue;
          same_name = fac;
          if (fac->checksum == checksum)
            match = fac;
        }
      if (match == NULL)
        {
          if (same_name)
            g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                         _("%s: byte offset %" PRIu64 ": facility checksum mismatch: "
                           "facility “%s” is loaded with checksum 0x%08" PRIx64 " but %s "
                           "defines it with checksum 0x%08x"),
                         path, at, name, checksum, same_name->file, same_name->checksum);
          else
            g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_MISSING,
                         _("%s: byte offset %" PRIu64 ": facility “%s” is loaded but no "
                           "eventdefs file defines it"), path, at, name ? name : "");
          ok = FALSE;
          break;
        }
      if (base < TTV_LTT_BUILTIN_CODES || base + match->events->len > 65536)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                       _("%s: byte offset %" PRIu64 ": facility “%s” has base code %"
                         PRIu64 " (must be 256 to 65536 - number of events)"),
                       path, at, name, base);
          ok = FALSE;
          break;
        }
      Load l = { match, (guint32) base, at };
      g_array_append_val (loads, l);
      n_codes = MAX (n_codes, (guint) base + match->events->len);
    }
  if (local)
    {
      g_propagate_error (error, local);
      ok = FALSE;
    }
  ttv_ltt_cursor_clear (&c);
  ttv_ltt_file_free (f);
  if (!ok)
    return FALSE;

  lt->n_codes = n_codes;
  lt->codes = g_new (TtvLttCode, n_codes);
  for (guint i = 0; i < n_codes; i++)
    ttv_ltt_code_set (&lt->codes[i], TTV_LTT_CODE_KIND_UNKNOWN, NULL, NULL);
  memcpy (lt->codes, builtin, sizeof builtin);
  /* facility_load may appear in cpu files too; it is not delivered there. */
  ttv_ltt_code_set (&lt->codes[0], TTV_LTT_CODE_KIND_SKIP, lt->facility_load_type, NULL);
  for (guint i = 0; i < loads->len; i++)
    {
      const Load *l = &g_array_index (loads, Load, i);
      TtvLttFacility *fac = l->facility;
      if (fac->event_types == NULL)
        {
          fac->event_types = g_ptr_array_new ();
          for (guint k = 0; k < fac->events->len; k++)
            {
              TtvLttEventDef *def = g_ptr_array_index (fac->events, k);
              TtvEventType *et = ttv_trace_add_event_type (trace, fac->name, def->name,
                                                           ttv_type_ref (def->fields));
              et->description = g_strdup (def->description);
              et->format_id = l->base + k;
              g_ptr_array_add (fac->event_types, et);
            }
        }
      for (guint k = 0; k < fac->events->len; k++)
        {
          TtvLttCode *code = &lt->codes[l->base + k];
          if (code->kind != TTV_LTT_CODE_KIND_UNKNOWN)
            {
              g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                           _("%s: byte offset %" PRIu64 ": the code range of facility "
                             "“%s” (base %u) overlaps another facility at code %u"),
                           path, l->offset, fac->name, l->base, l->base + k);
              return FALSE;
            }
          const TtvEventType *et = g_ptr_array_index (fac->event_types, k);
          ttv_ltt_code_set (code, TTV_LTT_CODE_KIND_EVENT, et->fields, et);
        }
    }
  return TRUE;
}

static gboolean
load_file (TtvTrace *trace, TtvLttTrace *lt, const char *name, GError **error)
{
  g_autofree char *path = g_build_filename (trace->path, "control", name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  TtvLttFile *f = ttv_ltt_file_open (path, &lt->sys, trace, error);
  if (f == NULL)
    return FALSE;
  TtvLttCursor c = { 0 };
  ttv_ltt_cursor_init (&c, f, lt->codes, lt->n_codes);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  gboolean ok = TRUE;
  TtvEvent ev;
  GError *local = NULL;
  while (ok && ttv_ltt_cursor_next (&c.parent, &ev, &local))
    {
      gboolean is_process = strcmp (ev.type->name, "process") == 0;
      if (!is_process && strcmp (ev.type->name, "interrupt") != 0)
        continue;
      const TtvValue *root = decode (d, f, &ev, ev.type->fields, error);
      if (root == NULL)
        {
          ok = FALSE;
          break;
        }
      guint64 v;
      if (is_process)
        {
          TtvTraceProcess p = { 0 };
          p.time = ev.time;
          p.name = field_dup_string (d, root, "name");
#define U(field) (field_uint (d, root, #field, &v), p.field = (guint32) v)
          U (pid); U (ppid); U (tracer_pid); U (uid); U (euid); U (suid); U (fsuid);
          U (gid); U (egid); U (sgid); U (fsgid); U (state);
#undef U
          const TtvValue *s = ttv_decoder_get_field (d, root, "state");
          if (s && s->type->kind == TTV_TYPE_ENUM)
            p.state_name = ttv_type_enum_label (s->type, s->v.u);
          g_array_append_val (lt->processes, p);
        }
      else
        {
          TtvTraceInterrupt i = { 0 };
          i.time = ev.time;
          field_uint (d, root, "number", &v);
          i.number = (guint32) v;
          field_uint (d, root, "count", &v);
          i.count = (guint32) v;
          i.controller = field_dup_string (d, root, "controller");
          i.name = field_dup_string (d, root, "name");
          g_array_append_val (lt->interrupts, i);
        }
    }
  if (local)
    {
      g_propagate_error (error, local);
      ok = FALSE;
    }
  ttv_ltt_cursor_clear (&c);
  ttv_ltt_file_free (f);
  return ok;
}

gboolean
ttv_ltt_control_load_state (TtvTrace *trace, TtvLttTrace *lt, GError **error)
{
  lt->processes = ttv_trace_processes_new ();
  lt->interrupts = ttv_trace_interrupts_new ();
  return load_file (trace, lt, "processes", error) && load_file (trace, lt, "interrupts", error);
}
