/* ttv-report.c: formatting events as report lines (see ttv-report.h).
 * Fields come from the one decoder, so every format prints the same way. */
#include "ttv-report.h"
#include "formats/ctf/ttv-ctf.h"
#include "formats/ctf/ttv-ctf-text.h"

#include <string.h>

struct _TtvReportPrinter {
  TtvReportOptions options;
  TtvDecoder *decoder;       /* owned, reused for every event */
  TtvTime previous_time;     /* for the babeltrace delta */
};

TtvReportPrinter *
ttv_report_printer_new (const TtvReportOptions *options)
{
  TtvReportPrinter *p = g_new0 (TtvReportPrinter, 1);
  p->options = *options;
  p->decoder = ttv_decoder_new ();
  p->previous_time = TTV_TIME_MIN;
  return p;
}

void
ttv_report_printer_free (TtvReportPrinter *p)
{
  if (p == NULL)
    return;
  ttv_decoder_free (p->decoder);
  g_free (p);
}

static void
append_json_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      guchar c = (guchar) *s;
      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
}

static void
append_where (GString *out, const TtvReportOptions *o, const TtvEvent *ev)
{
  const TtvTracefile *tf = ev->tracefile;
  if (o->show_trace)
    g_string_append_printf (out, "%s/", tf->trace->name);
  if (tf->cpu >= 0)
    g_string_append_printf (out, "cpu%d", tf->cpu);
  else
    g_string_append (out, tf->name);
}

/* Appends the decoded fields, or a note saying why they could not be. */
static gboolean
decode (TtvReportPrinter *p, const TtvEvent *ev, gint32 *root, GError **error)
{
  ttv_decoder_reset (p->decoder);
  *root = ttv_event_decode_fields (ev, p->decoder, error);
  return *root >= 0;
}

static void
append_text (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos,
             const TtvState *state, GString *out)
{
  char buf[32];
  g_string_append (out, ttv_time_to_string (ev->time, buf, sizeof buf));
  g_string_append_c (out, ' ');
  append_where (out, &p->options, ev);
  if (p->options.show_state)
    {
      const TtvProcessState *proc = state ? ttv_state_get_running (state, ev->tracefile->cpu) : NULL;
      if (proc)
        g_string_append_printf (out, " pid %u %s %s", proc->pid,
                                proc->name ? g_quark_to_string (proc->name) : "-",
                                ttv_exec_mode_name (ttv_process_state_get_mode (proc)));
      else
        g_string_append (out, " pid - - unknown");
    }
  if (p->options.show_position && pos)
    {
      g_autofree char *token = ttv_position_to_string (pos);
      g_string_append_printf (out, " @%s", token);
    }
  g_string_append_printf (out, " %s", ev->type->full_name);
  gint32 root;
  g_autoptr (GError) error = NULL;
  if (!decode (p, ev, &root, &error))
    g_string_append_printf (out, ": <undecodable: %s>", error ? error->message : "?");
  else if (ttv_decoder_get (p->decoder, (guint32) root)->n_children > 0)
    {
      g_string_append (out, ": ");
      ttv_decoder_append_value (p->decoder, (guint32) root, TTV_VALUE_STYLE_PLAIN, out);
    }
  g_string_append_c (out, '\n');
}

static void
append_jsonl (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos,
              const TtvState *state, GString *out)
{
  char buf[32];
  const TtvTracefile *tf = ev->tracefile;
  g_string_append_printf (out, "{\"time_ns\":%" G_GINT64_FORMAT ",\"time\":\"%s\",\"trace\":", ev->time,
                          ttv_time_to_string (ev->time, buf, sizeof buf));
  append_json_string (out, tf->trace->name);
  g_string_append (out, ",\"tracefile\":");
  append_json_string (out, tf->name);
  if (tf->cpu >= 0)
    g_string_append_printf (out, ",\"cpu\":%d", tf->cpu);
  else
    g_string_append (out, ",\"cpu\":null");
  g_string_append (out, ",\"event\":");
  append_json_string (out, ev->type->full_name);
  if (pos)
    {
      g_autofree char *token = ttv_position_to_string (pos);
      g_string_append (out, ",\"position\":");
      append_json_string (out, token);
    }
  if (p->options.show_state)
    {
      const TtvProcessState *proc = state ? ttv_state_get_running (state, tf->cpu) : NULL;
      if (proc)
        {
          g_string_append_printf (out, ",\"pid\":%u,\"process\":", proc->pid);
          append_json_string (out, proc->name ? g_quark_to_string (proc->name) : "");
          g_string_append (out, ",\"mode\":");
          append_json_string (out, ttv_exec_mode_name (ttv_process_state_get_mode (proc)));
        }
      else
        g_string_append (out, ",\"pid\":null,\"process\":null,\"mode\":null");
    }
  gint32 root;
  g_autoptr (GError) error = NULL;
  g_string_append (out, ",\"fields\":");
  if (decode (p, ev, &root, &error))
    ttv_decoder_append_value (p->decoder, (guint32) root, TTV_VALUE_STYLE_JSON, out);
  else
    {
      g_string_append (out, "null,\"error\":");
      append_json_string (out, error ? error->message : "?");
    }
  g_string_append (out, "}\n");
}

void
ttv_report_printer_append_lost (TtvReportPrinter *p, const TtvTracefile *tf, const TtvLostRange *lost,
                                GString *out)
{
  char b1[32], b2[32];
  ttv_time_to_string (lost->start, b1, sizeof b1);
  ttv_time_to_string (lost->end, b2, sizeof b2);
  if (p->options.format == TTV_REPORT_JSONL)
    {
      g_string_append_printf (out, "{\"lost_events\":%" G_GUINT64_FORMAT ",\"start_ns\":%" G_GINT64_FORMAT
                              ",\"end_ns\":%" G_GINT64_FORMAT ",\"trace\":", lost->count, lost->start, lost->end);
      append_json_string (out, tf->trace->name);
      g_string_append (out, ",\"tracefile\":");
      append_json_string (out, tf->name);
      g_string_append (out, "}\n");
      return;
    }
  /* babeltrace2 prints lost events as a warning on stderr, not a line. */
  if (p->options.format == TTV_REPORT_BABELTRACE)
    return;
  g_string_append_printf (out, "%s ", b1);
  TtvEvent where = { .tracefile = (TtvTracefile *) tf };
  append_where (out, &p->options, &where);
  g_string_append_printf (out, " --- %" G_GUINT64_FORMAT " events lost between %s and %s ---\n",
                          lost->count, b1, b2);
}

void
ttv_report_printer_append (TtvReportPrinter *p, const TtvEvent *ev, const TtvPosition *pos,
                           const TtvState *state, GString *out)
{
  switch (p->options.format)
    {
    case TTV_REPORT_TEXT:
      append_text (p, ev, pos, state, out);
      break;
    case TTV_REPORT_JSONL:
      append_jsonl (p, ev, pos, state, out);
      break;
    case TTV_REPORT_BABELTRACE:
      /* Only CTF events have babeltrace2's line; others print as text. */
      if (ttv_ctf_trace_is_ctf (ev->tracefile->trace))
        ttv_ctf_append_babeltrace_line (out, ev, p->previous_time, p->decoder);
      else
        append_text (p, ev, pos, state, out);
      break;
    }
  p->previous_time = ev->time;
}
