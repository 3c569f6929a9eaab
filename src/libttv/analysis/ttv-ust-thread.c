/* ttv-ust-thread.c: the thread and process of a userspace event (see
 * ttv-ust-thread.h). */
#include "ttv-ust-thread.h"

static guint32
small_id (gint64 id)
{
  return id >= 0 && id < G_MAXUINT32 ? (guint32) id : TTV_PID_NONE;
}

void
ttv_ust_thread_of (const TtvState *state, const TtvUstEvent *e, TtvUstThread *out)
{
  const TtvProcessState *p = state ? ttv_state_get_event_process (state, e->cpu) : NULL;
  out->trace = e->trace;
  out->vpid = e->vpid;
  out->name = e->procname;
  if (p)
    {
      gint64 tgid = ttv_process_state_get_tgid (p);
      out->tid = p->pid;
      out->pid = tgid >= 0 ? (guint32) tgid : small_id (e->vpid);
      if (p->name)
        out->name = g_quark_to_string (p->name);
      return;
    }
  out->tid = small_id (e->vtid);
  out->pid = small_id (e->vpid);
}
