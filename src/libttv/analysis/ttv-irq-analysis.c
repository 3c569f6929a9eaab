/* ttv-irq-analysis.c: the "irq" analysis: every IRQ handler and soft IRQ
 * from entry to exit, and each soft IRQ's raise to the entry that serves
 * it, per CPU.  See ttv-kernel-analyses.h. */
#include "ttv-kernel-context.h"

#include <glib/gi18n-lib.h>

#include <string.h>

G_STATIC_ASSERT (sizeof (TtvIrqRecord) == 40);

#define MAX_CPU 4096
#define MAX_VECTORS 32

static const TtvAnalysisColumn irq_columns[] = {
  { "start", N_("Entry"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvIrqRecord, start), NULL },
  { "end", N_("Exit"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvIrqRecord, end), NULL },
  { "duration", N_("Duration"), TTV_COLUMN_DURATION, -1, NULL },
  { "irq", N_("IRQ"), TTV_COLUMN_UINT, G_STRUCT_OFFSET (TtvIrqRecord, irq), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvIrqRecord, name), NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvIrqRecord, machine), NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvIrqRecord, cpu), NULL },
  { "tid", N_("Interrupted TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvIrqRecord, tid), NULL },
};

static const TtvAnalysisColumn softirq_columns[] = {
  { "start", N_("Entry"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvIrqRecord, start), NULL },
  { "end", N_("Exit"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvIrqRecord, end), NULL },
  { "duration", N_("Duration"), TTV_COLUMN_DURATION, -1, NULL },
  { "vec", N_("Vector"), TTV_COLUMN_UINT, G_STRUCT_OFFSET (TtvIrqRecord, irq), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvIrqRecord, name), NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvIrqRecord, machine), NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvIrqRecord, cpu), NULL },
  { "tid", N_("Interrupted TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvIrqRecord, tid), NULL },
};

static const TtvAnalysisColumn raise_columns[] = {
  { "start", N_("Raised"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvIrqRecord, start), NULL },
  { "end", N_("Entry"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvIrqRecord, end), NULL },
  { "duration", N_("Latency"), TTV_COLUMN_DURATION, -1, NULL },
  { "vec", N_("Vector"), TTV_COLUMN_UINT, G_STRUCT_OFFSET (TtvIrqRecord, irq), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvIrqRecord, name), NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvIrqRecord, machine), NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvIrqRecord, cpu), NULL },
  { "tid", N_("Interrupted TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvIrqRecord, tid), NULL },
};

#define IRQ_SPEC(name, columns) \
  { name, sizeof (TtvIrqRecord), columns, G_N_ELEMENTS (columns), { -1, -1 }, \
    G_STRUCT_OFFSET (TtvIrqRecord, irq), FALSE, TRUE }

static const TtvAnalysisTableSpec irqs_spec = IRQ_SPEC ("irqs", irq_columns);
static const TtvAnalysisTableSpec softirqs_spec = IRQ_SPEC ("softirqs", softirq_columns);
static const TtvAnalysisTableSpec raises_spec = IRQ_SPEC ("raises", raise_columns);

static const TtvAnalysisTableSpec *const tables[] = { &irqs_spec, &softirqs_spec, &raises_spec };

typedef TtvTime Raised[MAX_CPU][MAX_VECTORS];

typedef struct {
  TtvAnalysisBuilder *b;
  TtvTableBuilder *irqs, *softirqs, *raises;
  /* Per machine, CPU and vector, the first raise not served yet (0:
   * none): Raised *, owned, made when the machine first raises one. */
  GPtrArray *raised;
  GArray *machine_names;   /* per machine: guint32 string of its name (none with one machine) */
} Irq;

/* The machine selected in @state (the event's), as records name it. */
static guint
machine_of (const TtvState *state)
{
  return MIN (ttv_state_get_machine (state), TTV_ANALYSIS_MAX_MACHINES - 1);
}

static guint32
machine_name (Irq *q, guint machine)
{
  return ttv_kernel_machine_name (q->machine_names, machine);
}

static gpointer
irq_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  TtvAnalysisBuilder *b = ttv_analysis_pass_get_builder (pass);
  Irq *q = g_new0 (Irq, 1);
  q->b = b;
  q->irqs = ttv_analysis_builder_get_table (b, 0);
  q->softirqs = ttv_analysis_builder_get_table (b, 1);
  q->raises = ttv_analysis_builder_get_table (b, 2);
  q->raised = g_ptr_array_new_with_free_func (g_free);
  q->machine_names = ttv_kernel_machine_names (b);
  return q;
}

static void
irq_free (gpointer data)
{
  Irq *q = data;
  g_ptr_array_unref (q->raised);
  g_array_unref (q->machine_names);
  g_free (q);
}

static guint32
vector_name (Irq *q, guint32 vec)
{
  return ttv_analysis_builder_intern (q->b, ttv_kernel_model_get_softirq_name (vec));
}

static void
irq_before_event (gpointer data, const TtvAnalysisEvent *ev)
{
  Irq *q = data;
  gint cpu = ev->event->tracefile->cpu;
  if (cpu < 0 || cpu >= MAX_CPU || (ev->action != TTV_KM_SOFTIRQ_RAISE && ev->action != TTV_KM_SOFTIRQ_ENTRY))
    return;
  gint64 vec;
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SOFTIRQ_VEC, &vec) || vec < 0
      || vec >= MAX_VECTORS)
    return;
  guint machine = machine_of (ev->state);
  if (machine >= q->raised->len)
    g_ptr_array_set_size (q->raised, machine + 1);
  if (q->raised->pdata[machine] == NULL)
    q->raised->pdata[machine] = g_new0 (Raised, 1);
  TtvTime *raised = &(*(Raised *) q->raised->pdata[machine])[cpu][vec];
  if (ev->action == TTV_KM_SOFTIRQ_RAISE)
    {
      /* Raised again before it ran: the first raise is what waits. */
      if (*raised == 0)
        *raised = ev->event->time;
      return;
    }
  if (*raised == 0)
    return;
  const TtvProcessState *p = ttv_state_get_running (ev->state, cpu);
  TtvIrqRecord r = { *raised, ev->event->time, cpu, (guint32) vec, vector_name (q, (guint32) vec),
                     p ? p->pid : TTV_PID_NONE, machine_name (q, machine), 0 };
  ttv_table_builder_push (q->raises, &r);
  *raised = 0;
}

static void
on_frame_end (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *frame, TtvTime end)
{
  Irq *q = data;
  if (frame->mode != TTV_MODE_IRQ && frame->mode != TTV_MODE_SOFTIRQ)
    return;
  /* The state calls with the event's machine selected. */
  const TtvState *state = ttv_analysis_builder_get_state (q->b);
  TtvIrqRecord r = { frame->entry, end, cpu, frame->id, TTV_ANALYSIS_NO_STRING, pid,
                     machine_name (q, machine_of (state)), 0 };
  if (frame->mode == TTV_MODE_IRQ)
    {
      const TtvIrqState *irq = ttv_state_get_irq (state, frame->id, FALSE);
      if (irq && irq->name)
        r.name = ttv_analysis_builder_intern_quark (q->b, irq->name);
      ttv_table_builder_push (q->irqs, &r);
    }
  else
    {
      r.name = vector_name (q, frame->id);
      ttv_table_builder_push (q->softirqs, &r);
    }
}

static void
name_group (Irq *q, const char *table, guint machine, guint32 id, guint32 name)
{
  /* As ttv_analysis_get_machine_group_name reads them. */
  g_autofree char *key = machine == 0 ? g_strdup_printf ("name/%s/%u", table, id)
                                      : g_strdup_printf ("name/%s/%u@%u", table, id, machine);
  ttv_analysis_builder_set_value (q->b, key, name);
}

/* The names of the lines and vectors, for the statistics by number. */
static void
irq_finish (gpointer data, TtvTime end)
{
  Irq *q = data;
  /* Each machine's lines by their own names (the state's of that machine). */
  TtvState *state = (TtvState *) ttv_analysis_builder_get_state (q->b);
  guint selected = ttv_state_get_machine (state);
  guint n = MIN (ttv_state_get_n_machines (state), TTV_ANALYSIS_MAX_MACHINES);
  for (guint m = 0; m < n; m++)
    {
      ttv_state_select_machine (state, m);
      g_autoptr (GPtrArray) irqs = ttv_state_list_irqs (state, FALSE);
      for (guint i = 0; i < irqs->len; i++)
        {
          const TtvIrqState *irq = g_ptr_array_index (irqs, i);
          if (irq->name)
            name_group (q, "irqs", m, irq->id, ttv_analysis_builder_intern_quark (q->b, irq->name));
        }
      for (guint32 vec = 0; ttv_kernel_model_get_softirq_name (vec); vec++)
        {
          name_group (q, "softirqs", m, vec, vector_name (q, vec));
          name_group (q, "raises", m, vec, vector_name (q, vec));
        }
    }
  ttv_state_select_machine (state, selected);
}

static const TtvStateObserver irq_observer = { .frame_end = on_frame_end };

const TtvAnalysisClass ttv_irq_analysis = {
  .name = "irq",
  .title = N_("IRQs"),
  .description = N_("IRQ and soft IRQ durations and rates, and soft IRQ raise to entry latency"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .needs_state = TRUE,
  .attach = irq_attach,
  .finish = irq_finish,
  .free = irq_free,
  .tables = tables,
  .n_tables = G_N_ELEMENTS (tables),
  .version = 2,
  .observer = &irq_observer,
  .before_event = irq_before_event,
};
