/* ttv-lttng-control.c: the initial system state of an LTTng 0.x trace, from
 * the process and interrupt events of control/processes_N and control/interrupts_N. */
#include "ttv-lttng.h"
#include "ttv-lttng-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* LTTng 0.x markers carry no enum labels: process states are numbered as
 * the seed 000 process state enum (the one LTT traces and ttv-gen use). */
static const char * const process_state_names[] = {
  "Running", "WaitInterruptible", "WaitUninterruptible", "Zombie", "Traced", "Paging",
};

static guint32
field_u32 (const TtvDecoder *d, const TtvValue *root, const char *name)
{
  const TtvValue *v = ttv_decoder_get_field (d, root, name);
  guint64 u = 0;
  if (v)
    ttv_value_get_uint (v, &u);
  return (guint32) u;
}

static char *
field_dup_string (const TtvDecoder *d, const TtvValue *root, const char *name)
{
  const TtvValue *v = ttv_decoder_get_field (d, root, name);
  return v && v->type->kind == TTV_TYPE_STRING ? g_strdup (v->v.string.str) : NULL;
}

static gboolean
load_file (TtvTrace *trace, TtvLttngTrace *priv, const char *path, GError **error)
{
  g_autoptr (TtvLttngFile) f = ttv_lttng_file_open (path, error);
  if (f == NULL)
    return FALSE;
  /* A tracefile that is not one of the trace's, to run a cursor over it. */
  TtvTracefile tf = { .trace = trace, .name = (char *) path, .cpu = -1, .priv = f };
  TtvCursor *c = ttv_lttng_cursor_new (&tf, error);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  TtvEvent ev;
  GError *local = NULL;
  gboolean ok = TRUE;
  while (ok && ttv_lttng_cursor_next (c, &ev, &local))
    {
      gboolean is_process = strcmp (ev.type->name, "process") == 0;
      if (!is_process && strcmp (ev.type->name, "interrupt") != 0)
        continue;
      ttv_decoder_reset (d);
      gint32 r = ttv_lttng_decode_fields (&ev, d, &local);
      if (r < 0)
        break;
      const TtvValue *root = ttv_decoder_get (d, (guint32) r);
      if (is_process)
        {
          TtvTraceProcess p = { .time = ev.time, .name = field_dup_string (d, root, "name") };
#define U(field) (p.field = field_u32 (d, root, #field))
          U (pid); U (ppid); U (tracer_pid); U (uid); U (euid); U (suid); U (fsuid);
          U (gid); U (egid); U (sgid); U (fsgid); U (state);
#undef U
          if (ttv_decoder_get_field (d, root, "state") && p.state < G_N_ELEMENTS (process_state_names))
            p.state_name = process_state_names[p.state];
          g_array_append_val (priv->processes, p);
        }
      else
        {
          TtvTraceInterrupt i = {
            .time = ev.time,
            .number = field_u32 (d, root, "number"),
            .count = field_u32 (d, root, "count"),
            .controller = field_dup_string (d, root, "controller"),
            .name = field_dup_string (d, root, "name"),
          };
          g_array_append_val (priv->interrupts, i);
        }
    }
  if (local)
    {
      g_propagate_error (error, local);
      ok = FALSE;
    }
  ttv_lttng_cursor_free (c);
  return ok;
}

static gint
compare_numbered (gconstpointer a, gconstpointer b)
{
  const char *x = *(const char * const *) a, *y = *(const char * const *) b;
  guint64 nx = g_ascii_strtoull (strrchr (x, '_') + 1, NULL, 10);
  guint64 ny = g_ascii_strtoull (strrchr (y, '_') + 1, NULL, 10);
  return nx < ny ? -1 : nx > ny;
}

/* Whether @name is one of @prefixes followed by digits alone. */
static gboolean
is_numbered (const char *name, const char * const *prefixes)
{
  for (; *prefixes; prefixes++)
    {
      const char *n = g_str_has_prefix (name, *prefixes) ? name + strlen (*prefixes) : NULL;
      char *end = NULL;
      if (n && g_ascii_isdigit (*n) && (g_ascii_strtoull (n, &end, 10), *end == '\0'))
        return TRUE;
    }
  return FALSE;
}

GPtrArray *
ttv_lttng_control_list_numbered (GDir *dir, const char * const *prefixes)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while (dir && (name = g_dir_read_name (dir)))
    if (is_numbered (name, prefixes))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_numbered);
  return names;
}

gboolean
ttv_lttng_control_read (TtvTrace *trace, TtvLttngTrace *priv, GError **error)
{
  priv->processes = ttv_trace_processes_new ();
  priv->interrupts = ttv_trace_interrupts_new ();
  g_autofree char *control = g_build_filename (trace->path, "control", NULL);
  g_autoptr (GDir) dir = g_dir_open (control, 0, NULL);
  static const char * const prefixes[] = { "processes_", "interrupts_", NULL };
  g_autoptr (GPtrArray) names = ttv_lttng_control_list_numbered (dir, prefixes);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (control, g_ptr_array_index (names, i), NULL);
      if (!load_file (trace, priv, path, error))
        return FALSE;
    }
  return TRUE;
}

const GArray *
ttv_lttng_control_get_processes (const TtvTrace *trace)
{
  if (trace->format != &ttv_lttng_format_class || trace->priv == NULL)
    return NULL;
  return ((const TtvLttngTrace *) trace->priv)->processes;
}

const GArray *
ttv_lttng_control_get_interrupts (const TtvTrace *trace)
{
  if (trace->format != &ttv_lttng_format_class || trace->priv == NULL)
    return NULL;
  return ((const TtvLttngTrace *) trace->priv)->interrupts;
}
