/* ttv-stats-oracle.c: statistics recomputed from ttv-report's JSON lines
 * (see ttv-stats-oracle.h).  Deliberately shares nothing with libttv's
 * state: its own JSON reader, its own reading of the kernel events. */
#include "ttv-stats-oracle.h"
#include "ttv-test-util.h"

#include <gio/gio.h>
#include <string.h>

/* --- A JSON line ------------------------------------------------------------ */

typedef struct {
  gboolean is_string;
  gint64 number;
  char *string;
} Value;

typedef struct {
  gint64 time;
  gint cpu;                  /* -1 when the line has none */
  char *name;
  GHashTable *fields;        /* name -> Value * (numbers and strings only) */
} Event;

static void
value_free (Value *v)
{
  g_free (v->string);
  g_free (v);
}

static void
skip_space (const char **p)
{
  while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
    (*p)++;
}

static char *
parse_string (const char **p)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_assert_cmpint (**p, ==, '"');
  for ((*p)++; **p != '"'; (*p)++)
    {
      g_assert_cmpint (**p, !=, '\0');
      if (**p != '\\')
        {
          g_string_append_c (s, **p);
          continue;
        }
      (*p)++;
      switch (**p)
        {
        case 'n': g_string_append_c (s, '\n'); break;
        case 't': g_string_append_c (s, '\t'); break;
        case 'r': g_string_append_c (s, '\r'); break;
        case 'b': g_string_append_c (s, '\b'); break;
        case 'f': g_string_append_c (s, '\f'); break;
        case 'u':
          {
            char hex[5] = { 0 };
            memcpy (hex, *p + 1, 4);
            g_string_append_unichar (s, (gunichar) g_ascii_strtoull (hex, NULL, 16));
            *p += 4;
          }
          break;
        default: g_string_append_c (s, **p); break;   /* \" \\ \/ */
        }
    }
  (*p)++;
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* A value of any kind; numbers and strings are returned, the rest skipped
 * (NULL). */
static Value *
parse_value (const char **p)
{
  skip_space (p);
  if (**p == '"')
    {
      Value *v = g_new0 (Value, 1);
      v->is_string = TRUE;
      v->string = parse_string (p);
      return v;
    }
  if (**p == '{' || **p == '[')
    {
      /* Objects and arrays are skipped, but for an enum's
       * {"value": N, "labels": [...]}: its first label, else its number. */
      char close = **p == '{' ? '}' : ']';
      Value *number = NULL, *label = NULL;
      for ((*p)++, skip_space (p); **p != close; skip_space (p))
        {
          g_autofree char *key = NULL;
          if (close == '}')
            {
              key = parse_string (p);
              skip_space (p);
              g_assert_cmpint (*(*p)++, ==, ':');
            }
          skip_space (p);
          if (key && strcmp (key, "labels") == 0 && **p == '[')
            {
              (*p)++;
              skip_space (p);
              if (**p == '"')
                {
                  label = g_new0 (Value, 1);
                  label->is_string = TRUE;
                  label->string = parse_string (p);
                }
              (*p)--;
              *p = strchr (*p, ']');
              g_assert_nonnull (*p);
              (*p)++;
            }
          else
            {
              Value *v = parse_value (p);
              if (v && key && strcmp (key, "value") == 0 && number == NULL)
                number = v;
              else if (v)
                value_free (v);
            }
          skip_space (p);
          if (**p == ',')
            (*p)++;
        }
      (*p)++;
      if (label)
        {
          if (number)
            value_free (number);
          return label;
        }
      return number;
    }
  if (**p == '-' || g_ascii_isdigit (**p))
    {
      Value *v = g_new0 (Value, 1);
      char *end = NULL;
      /* Unsigned values above G_MAXINT64 (addresses) saturate: never used. */
      v->number = g_ascii_strtoll (*p, &end, 10);
      g_assert_true (end != *p);
      *p = end;
      while (**p == '.' || **p == 'e' || **p == 'E' || **p == '+' || **p == '-' || g_ascii_isdigit (**p))
        (*p)++;
      return v;
    }
  /* true, false, null */
  while (g_ascii_isalpha (**p))
    (*p)++;
  return NULL;
}

static void
event_clear (Event *ev)
{
  g_free (ev->name);
  g_hash_table_unref (ev->fields);
}

static void
parse_event (const char *line, Event *ev)
{
  const char *p = line;

  ev->cpu = -1;
  ev->time = 0;
  ev->name = NULL;
  ev->fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) value_free);
  skip_space (&p);
  g_assert_cmpint (*p++, ==, '{');
  for (skip_space (&p); *p != '}'; skip_space (&p))
    {
      g_autofree char *key = parse_string (&p);

      skip_space (&p);
      g_assert_cmpint (*p++, ==, ':');
      skip_space (&p);
      if (strcmp (key, "fields") == 0 && *p == '{')
        {
          for (p++, skip_space (&p); *p != '}'; skip_space (&p))
            {
              char *name = parse_string (&p);
              Value *v;

              skip_space (&p);
              g_assert_cmpint (*p++, ==, ':');
              v = parse_value (&p);
              if (v)
                g_hash_table_replace (ev->fields, name, v);
              else
                g_free (name);
              skip_space (&p);
              if (*p == ',')
                p++;
            }
          p++;
        }
      else
        {
          g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) value_free);
          Value *v = parse_value (&p);

          if (v)
            g_ptr_array_add (keep, v);
          if (v && strcmp (key, "time_ns") == 0)
            ev->time = v->number;
          else if (v && strcmp (key, "cpu") == 0)
            ev->cpu = (gint) v->number;
          else if (v && v->is_string && strcmp (key, "event") == 0)
            ev->name = g_strdup (v->string);
        }
      skip_space (&p);
      if (*p == ',')
        p++;
    }
  g_assert_nonnull (ev->name);
}

static const Value *
field (const Event *ev, const char *name)
{
  return g_hash_table_lookup (ev->fields, name);
}

static guint32
field_u32 (const Event *ev, const char *name)
{
  const Value *v = field (ev, name);

  if (!v || v->is_string)
    g_error ("event %s at %" G_GINT64_FORMAT ": no number %s", ev->name, ev->time, name);
  return (guint32) v->number;
}

/* --- What the kernel events mean ---------------------------------------------
 * LTT and LTTng 0.x (facility/channel "core", as ttv-gen writes them) and
 * LTTng 2.x (lttng-modules' names: sched_switch, syscall_entry_NAME or
 * sys_NAME, irq_handler_entry, softirq_entry; trap_entry and trap_exit as
 * ttv-gen writes them). */

enum { BASE, SYSCALL, TRAP, IRQ, SOFTIRQ, N_MODES };
static const char *const mode_keys[] = { "base", "syscall", "trap", "irq", "softirq" };
/* include/linux/interrupt.h */
static const char *const softirq_names[] = {
  "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};
#define MAX_NESTING 16    /* frames of a task, its base mode included */

typedef struct {
  int mode;
  guint32 id;              /* IRQ or soft IRQ number */
  char *syscall;           /* owned: the syscall's name */
  gint64 entry;
} Frame;

typedef struct {
  gboolean known;          /* a scheduler switch told what runs */
  guint32 running;
  gint64 since;            /* the last change of what runs on it, or of its mode */
  GArray *interrupts;      /* owned: Frame, the IRQs and soft IRQs it is in, whatever runs */
} Cpu;

typedef struct {
  gint64 start, end;
  GHashTable *rows;        /* key -> TtvOracleRow * */
  GHashTable *cpus;        /* cpu -> Cpu * */
  GHashTable *tasks;       /* task_key() -> GArray of Frame (above the base mode) */
  GHashTable *irq_names;   /* irq -> name (last seen) */
  gint64 last_time;
} Oracle;

static void
row_free (TtvOracleRow *row)
{
  g_free (row->name);
  g_free (row);
}

GHashTable *
ttv_stats_oracle_rows_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) row_free);
}

TtvOracleRow *
ttv_stats_oracle_row (GHashTable *rows, const char *key)
{
  TtvOracleRow *r = g_hash_table_lookup (rows, key);

  if (!r)
    {
      r = g_new0 (TtvOracleRow, 1);
      r->min = r->max = -1;
      g_hash_table_insert (rows, g_strdup (key), r);
    }
  return r;
}

static TtvOracleRow *
row (Oracle *o, const char *format, ...) G_GNUC_PRINTF (2, 3);

static TtvOracleRow *
row (Oracle *o, const char *format, ...)
{
  va_list ap;
  g_autofree char *key = NULL;

  va_start (ap, format);
  key = g_strdup_vprintf (format, ap);
  va_end (ap);
  return ttv_stats_oracle_row (o->rows, key);
}

/* The idle task, pid 0, is one task per CPU. */
static gint64
task_key (guint32 pid, gint cpu)
{
  return pid == 0 ? ((gint64) 1 << 40) + cpu : (gint64) pid;
}

static GArray *
task_frames (Oracle *o, guint32 pid, gint cpu)
{
  gint64 key = task_key (pid, cpu);
  GArray *frames = g_hash_table_lookup (o->tasks, &key);

  if (!frames)
    {
      frames = g_array_new (FALSE, FALSE, sizeof (Frame));
      g_hash_table_insert (o->tasks, g_memdup2 (&key, sizeof key), frames);
    }
  return frames;
}

static Cpu *
cpu_get (Oracle *o, gint cpu)
{
  Cpu *c = g_hash_table_lookup (o->cpus, GINT_TO_POINTER (cpu));

  if (!c)
    {
      c = g_new0 (Cpu, 1);
      c->interrupts = g_array_new (FALSE, FALSE, sizeof (Frame));
      g_hash_table_insert (o->cpus, GINT_TO_POINTER (cpu), c);
    }
  return c;
}

static void
cpu_free (Cpu *c)
{
  g_array_unref (c->interrupts);
  g_free (c);
}

/* Ends the stretch of @cpu at @t: what ran gets the time inside the window. */
static void
account (Oracle *o, gint cpu, gint64 t)
{
  Cpu *c = cpu_get (o, cpu);
  gint64 from = MAX (c->since, o->start);

  if (c->known && t > from)
    {
      GArray *frames = task_frames (o, c->running, cpu);
      int mode = frames->len ? g_array_index (frames, Frame, frames->len - 1).mode : BASE;
      gint64 d = t - from;

      if (c->running == 0 && mode == BASE)
        row (o, "cpu/%d/idle", cpu)->total += d;
      else
        {
          row (o, "cpu/%d", cpu)->total += d;
          row (o, "cpu/%d/%s", cpu, mode_keys[mode])->total += d;
          row (o, "process/%u", c->running)->total += d;
          row (o, "process/%u/%s", c->running, mode_keys[mode])->total += d;
        }
    }
  c->since = t;
}

static void
add_duration (TtvOracleRow *r, gint64 d)
{
  r->count++;
  r->total += d;
  r->min = r->min < 0 ? d : MIN (r->min, d);
  r->max = MAX (r->max, d);
}

static gboolean
is_interrupt (int mode)
{
  return mode == IRQ || mode == SOFTIRQ;
}

/* Ends @frames from index @from up at @t; each frame's duration counts
 * when @report (interrupts are counted once, from the CPU's frames; a
 * task's copy of them is not). */
static void
end_frames (Oracle *o, GArray *frames, guint from, gint64 t, gboolean report)
{
  while (frames->len > from)
    {
      Frame *f = &g_array_index (frames, Frame, frames->len - 1);

      if (t >= o->start && (report || !is_interrupt (f->mode)))
        {
          if (f->mode == SYSCALL)
            add_duration (row (o, "syscall/%s", f->syscall), t - f->entry);
          else if (f->mode == IRQ)
            add_duration (row (o, "irq/%u", f->id), t - f->entry);
          else if (f->mode == SOFTIRQ)
            add_duration (row (o, "softirq/%u", f->id), t - f->entry);
        }
      g_free (f->syscall);
      g_array_set_size (frames, frames->len - 1);
    }
}

/* Index + 1 of the innermost frame of @frames in @mode (and with @id when
 * @any_id is FALSE), or 0. */
static guint
find_frame (GArray *frames, int mode, guint32 id, gboolean any_id)
{
  guint i;

  for (i = frames->len; i > 0; i--)
    {
      const Frame *f = &g_array_index (frames, Frame, i - 1);

      if (f->mode == mode && (any_id || f->id == id))
        break;
    }
  return i;
}

/* Index + 1 of the outermost frame of @frames in @mode, or 0. */
static guint
find_frame_outermost (GArray *frames, int mode)
{
  for (guint i = 0; i < frames->len; i++)
    if (g_array_index (frames, Frame, i).mode == mode)
      return i + 1;
  return 0;
}

/* Linux runs no soft IRQ inside another on one CPU and no IRQ line inside
 * itself: such an entry means the first one's exit was lost, and the
 * first ends there (on the CPU, and in the task's copy). */
static void
end_stale_interrupt (Oracle *o, Cpu *c, GArray *task, int mode, guint32 id, gint64 t)
{
  guint i = find_frame (c->interrupts, mode, id, mode == SOFTIRQ);

  if (i)
    end_frames (o, c->interrupts, i - 1, t, TRUE);
  if (task && (i = find_frame (task, mode, id, mode == SOFTIRQ)) != 0)
    end_frames (o, task, i - 1, t, FALSE);
}

static void
push (Oracle *o, gint cpu, gint64 t, int mode, guint32 id, const char *syscall)
{
  Cpu *c = cpu_get (o, cpu);
  GArray *frames = c->known ? task_frames (o, c->running, cpu) : NULL;
  Frame f = { mode, id, NULL, t };

  account (o, cpu, t);
  if (is_interrupt (mode))
    {
      end_stale_interrupt (o, c, frames, mode, id, t);
      g_array_append_val (c->interrupts, f);
    }
  /* The running task's frames give the mode its CPU time counts in. */
  if (!frames || frames->len + 1 >= MAX_NESTING)
    return;
  f.syscall = g_strdup (syscall);
  g_array_append_val (frames, f);
}

/* Leaves the innermost frame of @mode; frames above it lost their exit
 * event and end here too. */
static void
pop (Oracle *o, gint cpu, gint64 t, int mode)
{
  Cpu *c = cpu_get (o, cpu);
  GArray *frames;
  guint i;

  account (o, cpu, t);
  if (is_interrupt (mode) && (i = find_frame (c->interrupts, mode, 0, TRUE)) != 0)
    end_frames (o, c->interrupts, i - 1, t, TRUE);
  if (!c->known)
    return;
  frames = task_frames (o, c->running, cpu);
  if ((i = find_frame (frames, mode, 0, TRUE)) != 0)
    end_frames (o, frames, i - 1, t, FALSE);
}

static void
switch_to (Oracle *o, gint cpu, gint64 t, guint32 next)
{
  Cpu *c = cpu_get (o, cpu);
  guint i;

  account (o, cpu, t);
  /* No task switch happens inside a hard IRQ: IRQs still open lost their
   * exit event. */
  if ((i = find_frame_outermost (c->interrupts, IRQ)) != 0)
    end_frames (o, c->interrupts, i - 1, t, TRUE);
  if (c->known && (i = find_frame_outermost (task_frames (o, c->running, cpu), IRQ)) != 0)
    end_frames (o, task_frames (o, c->running, cpu), i - 1, t, FALSE);
  c->known = TRUE;
  c->running = next;
}

static gboolean
name_after (const char *name, const char *prefix, const char **rest)
{
  if (!g_str_has_prefix (name, prefix) || !name[strlen (prefix)])
    return FALSE;
  *rest = name + strlen (prefix);
  return TRUE;
}

/* A soft IRQ vector: a number, or its name where the trace's type is an
 * enumeration (LTT). */
static guint32
field_vec (const Event *ev, const char *name)
{
  const Value *v = field (ev, name);

  for (guint i = 0; v && v->is_string && i < G_N_ELEMENTS (softirq_names); i++)
    if (strcmp (v->string, softirq_names[i]) == 0)
      return i;
  return field_u32 (ev, name);
}

static void
apply (Oracle *o, const Event *ev)
{
  const char *n = ev->name, *rest;
  gint cpu = ev->cpu;
  gint64 t = ev->time;

  if (cpu < 0)
    return;
  if (strcmp (n, "core.sched_switch") == 0)
    switch_to (o, cpu, t, field_u32 (ev, "next_pid"));
  else if (strcmp (n, "sched_switch") == 0)
    switch_to (o, cpu, t, field_u32 (ev, "next_tid"));
  else if (strcmp (n, "core.syscall_entry") == 0)
    {
      const Value *id = field (ev, "syscall_id");
      g_autofree char *name = id->is_string ? g_strdup (id->string)
                                            : g_strdup_printf ("syscall_%" G_GINT64_FORMAT, id->number);
      push (o, cpu, t, SYSCALL, 0, name);
    }
  else if (name_after (n, "syscall_entry_", &rest) || name_after (n, "compat_syscall_entry_", &rest)
           || name_after (n, "sys_", &rest))
    push (o, cpu, t, SYSCALL, 0, rest);
  else if (strcmp (n, "core.syscall_exit") == 0 || strcmp (n, "exit_syscall") == 0
           || g_str_has_prefix (n, "syscall_exit_") || g_str_has_prefix (n, "compat_syscall_exit_"))
    pop (o, cpu, t, SYSCALL);
  else if (strcmp (n, "core.trap_entry") == 0 || strcmp (n, "trap_entry") == 0)
    push (o, cpu, t, TRAP, 0, NULL);
  else if (strcmp (n, "core.trap_exit") == 0 || strcmp (n, "trap_exit") == 0)
    pop (o, cpu, t, TRAP);
  else if (strcmp (n, "core.irq_entry") == 0)
    push (o, cpu, t, IRQ, field_u32 (ev, "irq_id"), NULL);
  else if (strcmp (n, "irq_handler_entry") == 0)
    {
      const Value *name = field (ev, "name");
      guint32 irq = field_u32 (ev, "irq");

      if (name && name->is_string && name->string[0])
        g_hash_table_replace (o->irq_names, GUINT_TO_POINTER (irq), g_strdup (name->string));
      push (o, cpu, t, IRQ, irq, NULL);
    }
  else if (strcmp (n, "core.irq_exit") == 0 || strcmp (n, "irq_handler_exit") == 0)
    pop (o, cpu, t, IRQ);
  else if (strcmp (n, "core.soft_irq_entry") == 0)
    push (o, cpu, t, SOFTIRQ, field_vec (ev, "softirq_id"), NULL);
  else if (strcmp (n, "softirq_entry") == 0)
    push (o, cpu, t, SOFTIRQ, field_vec (ev, "vec"), NULL);
  else if (strcmp (n, "core.soft_irq_exit") == 0 || strcmp (n, "softirq_exit") == 0)
    pop (o, cpu, t, SOFTIRQ);
}

/* What ran on each CPU from its last change to @t. */
static void
account_all (Oracle *o, gint64 t)
{
  GHashTableIter it;
  gpointer cpu;

  g_hash_table_iter_init (&it, o->cpus);
  while (g_hash_table_iter_next (&it, &cpu, NULL))
    account (o, GPOINTER_TO_INT (cpu), t);
}

static void
frames_free (GArray *frames)
{
  for (guint i = 0; i < frames->len; i++)
    g_free (g_array_index (frames, Frame, i).syscall);
  g_array_unref (frames);
}

static void
oracle_init (Oracle *o, gint64 start, gint64 end)
{
  memset (o, 0, sizeof *o);
  o->start = start;
  o->end = end;
  o->rows = ttv_stats_oracle_rows_new ();
  o->cpus = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) cpu_free);
  o->tasks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) frames_free);
  o->irq_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  o->last_time = G_MININT64;
}

/* One event for the window of @o. */
static void
oracle_event (Oracle *o, const Event *ev, gboolean *past_end)
{
  if (ev->time > o->end)
    {
      *past_end = TRUE;
      return;
    }
  o->last_time = ev->time;
  apply (o, ev);
  if (ev->time >= o->start)
    {
      Cpu *c = cpu_get (o, ev->cpu);

      row (o, "traceset")->count++;
      row (o, "type/%s", ev->name)->count++;
      row (o, "cpu/%d", ev->cpu)->count++;
      if (c->known)
        row (o, "process/%u", c->running)->count++;
    }
}

/* The CPU time of what still runs, and the names of what ran; returns the
 * rows, freeing the rest of @o. */
static GHashTable *
oracle_finish (Oracle *o, gboolean past_end)
{
  GHashTableIter it;
  gpointer key, value;

  if (o->last_time != G_MININT64)
    account_all (o, past_end ? o->end : o->last_time);
  g_hash_table_iter_init (&it, o->rows);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      TtvOracleRow *r = value;
      guint64 n;

      if (g_str_has_prefix (key, "irq/"))
        {
          n = g_ascii_strtoull ((char *) key + 4, NULL, 10);
          r->name = g_strdup (g_hash_table_lookup (o->irq_names, GUINT_TO_POINTER ((guint) n)));
        }
      else if (g_str_has_prefix (key, "softirq/"))
        {
          n = g_ascii_strtoull ((char *) key + 8, NULL, 10);
          r->name = n < G_N_ELEMENTS (softirq_names) ? g_strdup (softirq_names[n]) : NULL;
        }
    }
  g_hash_table_unref (o->cpus);
  g_hash_table_unref (o->tasks);
  g_hash_table_unref (o->irq_names);
  return o->rows;
}

GPtrArray *
ttv_stats_oracle_compute_windows_here (const char *report, const char *trace, const gint64 *bounds,
                                       guint n_windows, gint64 *first, gint64 *last)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  const char *lsan = g_getenv ("LSAN_OPTIONS");
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GDataInputStream) in = NULL;
  g_autofree Oracle *o = g_new0 (Oracle, n_windows);
  g_autofree gboolean *past_end = g_new0 (gboolean, n_windows);
  GPtrArray *windows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  gint64 first_time = G_MAXINT64, last_time = G_MININT64;
  char *line;

  /* The GUI tests' leak checks unwind every allocation whole (to tell
   * GTK's process-long caches from leaks): ttv-report, which makes none of
   * those, prints the trace many times faster with the usual unwinder. */
  if (lsan && strstr (lsan, "fast_unwind_on_malloc=0"))
    {
      g_autofree char *fast = g_strconcat (lsan, ":fast_unwind_on_malloc=1", NULL);

      g_subprocess_launcher_setenv (launcher, "LSAN_OPTIONS", fast, TRUE);
    }
  proc = g_subprocess_launcher_spawn (launcher, &error, report, "--format=jsonl", trace, NULL);
  g_assert_no_error (error);
  for (guint w = 0; w < n_windows; w++)
    oracle_init (&o[w], bounds[2 * w], bounds[2 * w + 1]);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  g_buffered_input_stream_set_buffer_size (G_BUFFERED_INPUT_STREAM (in), 1 << 16);
  while ((line = g_data_input_stream_read_line (in, NULL, NULL, &error)) != NULL)
    {
      Event ev;

      parse_event (line, &ev);
      g_free (line);
      first_time = MIN (first_time, ev.time);
      last_time = MAX (last_time, ev.time);
      for (guint w = 0; w < n_windows; w++)
        oracle_event (&o[w], &ev, &past_end[w]);
      event_clear (&ev);
    }
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);
  if (first)
    *first = first_time;
  if (last)
    *last = last_time;
  for (guint w = 0; w < n_windows; w++)
    g_ptr_array_add (windows, oracle_finish (&o[w], past_end[w]));
  return windows;
}

/* --- In a process of its own --------------------------------------------------- */

/* What ttv-stats-oracle prints: "span FIRST LAST", then per window a line
 * "window" and a row a line: KEY COUNT TOTAL MIN MAX [NAME], tab separated. */
void
ttv_stats_oracle_append_windows (GPtrArray *windows, gint64 first, gint64 last, GString *out)
{
  g_string_append_printf (out, "span\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n", first, last);
  for (guint w = 0; w < windows->len; w++)
    {
      GHashTableIter it;
      gpointer key, value;

      g_string_append (out, "window\n");
      g_hash_table_iter_init (&it, windows->pdata[w]);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          const TtvOracleRow *r = value;

          g_string_append_printf (out, "%s\t%" G_GUINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT
                                  "\t%" G_GINT64_FORMAT "%s%s\n", (char *) key, r->count, r->total, r->min,
                                  r->max, r->name ? "\t" : "", r->name ? r->name : "");
        }
    }
}

GPtrArray *
ttv_stats_oracle_compute_windows (const char *report, const char *trace, const gint64 *bounds,
                                  guint n_windows, gint64 *first, gint64 *last)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) span = NULL;
  GPtrArray *windows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  GHashTable *rows = NULL;

  g_ptr_array_add (argv, g_strdup (TTV_STATS_ORACLE_PATH));
  g_ptr_array_add (argv, g_strdup (report));
  g_ptr_array_add (argv, g_strdup (trace));
  for (guint i = 0; i < 2 * n_windows; i++)
    g_ptr_array_add (argv, g_strdup_printf ("%" G_GINT64_FORMAT, bounds[i]));
  g_ptr_array_add (argv, NULL);
  text = ttv_test_run_ok ((const char *const *) argv->pdata);
  lines = g_strsplit (text, "\n", -1);
  span = g_strsplit (lines[0], "\t", 3);
  g_assert_cmpstr (span[0], ==, "span");
  g_assert_cmpuint (g_strv_length (span), ==, 3);
  if (first)
    *first = g_ascii_strtoll (span[1], NULL, 10);
  if (last)
    *last = g_ascii_strtoll (span[2], NULL, 10);
  for (guint i = 1; lines[i] && *lines[i]; i++)
    {
      g_auto (GStrv) f = NULL;
      TtvOracleRow *r;

      if (strcmp (lines[i], "window") == 0)
        {
          rows = ttv_stats_oracle_rows_new ();
          g_ptr_array_add (windows, rows);
          continue;
        }
      f = g_strsplit (lines[i], "\t", 6);
      g_assert_nonnull (rows);
      g_assert_cmpuint (g_strv_length (f), >=, 5);
      r = ttv_stats_oracle_row (rows, f[0]);
      r->count = g_ascii_strtoull (f[1], NULL, 10);
      r->total = g_ascii_strtoll (f[2], NULL, 10);
      r->min = g_ascii_strtoll (f[3], NULL, 10);
      r->max = g_ascii_strtoll (f[4], NULL, 10);
      r->name = g_strdup (f[5]);
    }
  g_assert_cmpuint (windows->len, ==, n_windows);
  return windows;
}

GPtrArray *
ttv_stats_oracle_compute_whole_and_window (const char *report, const char *trace, gint64 *a, gint64 *b)
{
  gint64 first, last, oracle_first, oracle_last;
  GPtrArray *windows;

  ttv_test_trace_span (trace, &first, &last);
  *a = first + (last - first) * 3 / 10;
  *b = first + (last - first) * 6 / 10;
  {
    const gint64 bounds[] = { G_MININT64, G_MAXINT64, *a, *b };

    windows = ttv_stats_oracle_compute_windows (report, trace, bounds, 2, &oracle_first, &oracle_last);
  }
  g_assert_cmpint (oracle_first, ==, first);
  g_assert_cmpint (oracle_last, ==, last);
  return windows;
}

GHashTable *
ttv_stats_oracle_compute (const char *report, const char *trace, gint64 start, gint64 end,
                          gint64 *first, gint64 *last)
{
  const gint64 bounds[] = { start, end };
  g_autoptr (GPtrArray) windows = ttv_stats_oracle_compute_windows (report, trace, bounds, 1, first, last);

  return g_hash_table_ref (windows->pdata[0]);
}

gint64
ttv_stats_oracle_parse_seconds (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, ".", 2);
  char *end = NULL;
  gint64 s, ns;

  g_assert_nonnull (parts[0]);
  g_assert_nonnull (parts[1]);
  g_assert_cmpuint (strlen (parts[1]), ==, 9);
  s = g_ascii_strtoll (parts[0], &end, 10);
  g_assert_true (end && !*end);
  ns = g_ascii_strtoll (parts[1], &end, 10);
  g_assert_true (end && !*end);
  return s * 1000000000 + ns;
}

/* --- Comparison -------------------------------------------------------------- */

static const TtvOracleRow zero = { 0, 0, -1, -1, NULL };

const TtvOracleRow *
ttv_stats_oracle_lookup (GHashTable *rows, const char *key)
{
  const TtvOracleRow *r = g_hash_table_lookup (rows, key);
  return r ? r : &zero;
}

void
ttv_stats_oracle_assert_same (GHashTable *got, GHashTable *want, const char *what)
{
  GHashTable *sides[2] = { got, want };
  guint checked = 0;

  for (guint s = 0; s < 2; s++)
    {
      GHashTableIter it;
      gpointer key;

      g_hash_table_iter_init (&it, sides[s]);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          const TtvOracleRow *g = ttv_stats_oracle_lookup (got, key), *w = ttv_stats_oracle_lookup (want, key);

          if (g->count != w->count || g->total != w->total || g->min != w->min || g->max != w->max)
            g_error ("%s: %s: ttv says count %" G_GUINT64_FORMAT " total %" G_GINT64_FORMAT
                     " min %" G_GINT64_FORMAT " max %" G_GINT64_FORMAT "; the events say %" G_GUINT64_FORMAT
                     " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, what, (char *) key,
                     g->count, g->total, g->min, g->max, w->count, w->total, w->min, w->max);
          if (w->name)
            g_assert_cmpstr (g->name, ==, w->name);
          checked++;
        }
    }
  g_test_message ("%s: %u rows equal", what, checked / 2);
}

void
ttv_stats_oracle_assert_sums (GHashTable *rows)
{
  static const char *const modes[] = { "base", "syscall", "trap", "irq", "softirq" };
  GHashTableIter it;
  gpointer key, value;
  gint64 busy = 0, cpu_time = 0;

  g_hash_table_iter_init (&it, rows);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const TtvOracleRow *r = value;
      gint64 sum = 0;
      gboolean cpu = g_str_has_prefix (key, "cpu/"), process = g_str_has_prefix (key, "process/");

      if ((!cpu && !process) || strchr (strchr (key, '/') + 1, '/'))
        continue;
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          g_autofree char *mkey = g_strdup_printf ("%s/%s", (char *) key, modes[m]);
          sum += ttv_stats_oracle_lookup (rows, mkey)->total;
        }
      g_assert_cmpint (sum, ==, r->total);
      *(cpu ? &busy : &cpu_time) += r->total;
    }
  g_assert_cmpint (busy, ==, cpu_time);
  g_assert_cmpint (busy, >, 0);
}
