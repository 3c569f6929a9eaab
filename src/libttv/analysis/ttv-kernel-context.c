/* ttv-kernel-context.c: names, wakers and syscall exits for the kernel
 * analyses (see ttv-kernel-context.h; file descriptors are in
 * ttv-fd-tracker.c). */
#include "ttv-kernel-context.h"

#include <string.h>

GArray *
ttv_kernel_machine_names (TtvAnalysisBuilder *b)
{
  GArray *names = g_array_new (FALSE, TRUE, sizeof (guint32));
  TtvTraceset *ts = ttv_analysis_builder_get_traceset (b);
  guint n = ttv_traceset_get_n_machines (ts);
  for (guint m = 0; m < n && n > 1; m++)
    {
      guint32 name = ttv_analysis_builder_intern (b, ttv_traceset_get_machine_name (ts, m));
      g_array_append_val (names, name);
    }
  return names;
}

guint32
ttv_kernel_machine_name (const GArray *names, guint machine)
{
  return machine < names->len ? g_array_index (names, guint32, machine) : TTV_ANALYSIS_NO_STRING;
}

guint32
ttv_kernel_thread_name (TtvAnalysisBuilder *b, const TtvState *state, guint32 pid, guint32 *tgid)
{
  const TtvProcessState *p = pid == TTV_PID_NONE ? NULL : ttv_state_get_process (state, pid);
  if (tgid)
    *tgid = p ? p->tgid : (pid == 0 ? 0 : pid);
  if (pid == 0)
    return ttv_analysis_builder_intern (b, "swapper");
  return p && p->name ? ttv_analysis_builder_intern_quark (b, p->name) : TTV_ANALYSIS_NO_STRING;
}

void
ttv_kernel_actor_on_cpu (TtvAnalysisBuilder *b, const TtvState *state, gint cpu, TtvKernelActor *out)
{
  memset (out, 0, sizeof *out);
  out->cpu = cpu;
  out->tid = TTV_PID_NONE;
  out->name = TTV_ANALYSIS_NO_STRING;
  const TtvCpuState *c = ttv_state_get_cpu (state, cpu);
  if (c && c->n_interrupts > 0)
    {
      const TtvExecFrame *f = &c->interrupts[c->n_interrupts - 1];
      out->id = f->id;
      if (f->mode == TTV_MODE_IRQ)
        {
          const TtvIrqState *irq = ttv_state_get_irq (state, f->id, FALSE);
          out->kind = TTV_WAKER_IRQ;
          if (irq && irq->name)
            out->name = ttv_analysis_builder_intern_quark (b, irq->name);
        }
      else
        {
          out->kind = TTV_WAKER_SOFTIRQ;
          out->name = ttv_analysis_builder_intern (b, ttv_kernel_model_get_softirq_name (f->id));
        }
      return;
    }
  const TtvProcessState *p = ttv_state_get_running (state, cpu);
  if (p)
    {
      out->kind = TTV_WAKER_THREAD;
      out->tid = p->pid;
      out->name = ttv_kernel_thread_name (b, state, p->pid, NULL);
    }
}

void
ttv_syscall_exit_before (TtvSyscallExit *x, const TtvAnalysisEvent *ev)
{
  x->active = ev->action == TTV_KM_SYSCALL_EXIT;
  if (!x->active)
    return;
  x->cpu = ev->event->tracefile->cpu;
  if (!ttv_kernel_model_get_int (ev->model, ev->trace, ev->event, TTV_KM_SYSCALL_RET, &x->ret))
    x->ret = 0;
}

gboolean
ttv_syscall_exit_matches (const TtvSyscallExit *x, gint cpu)
{
  return x->active && x->cpu == cpu;
}
