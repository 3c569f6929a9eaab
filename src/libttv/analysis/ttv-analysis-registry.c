/* ttv-analysis-registry.c: every analysis ttv knows, in the order reports
 * and menus list them.  An analysis is added here (and nowhere else) to
 * reach ttv-report --analysis and the viewer's analysis pass. */
#include "ttv-callstack.h"
#include "ttv-kernel-analyses.h"
#include "ttv-memory-analysis.h"
#include "ttv-symbols-analysis.h"

static const TtvAnalysisClass *const classes[] = {
  &ttv_cpu_usage_analysis,
  &ttv_syscall_analysis,
  &ttv_sched_analysis,
  &ttv_irq_analysis,
  &ttv_block_analysis,
  &ttv_futex_analysis,
  &ttv_callstack_analysis,
  &ttv_memory_analysis,
  &ttv_symbols_analysis,
  NULL
};

const TtvAnalysisClass *const *
ttv_analysis_list_classes (void)
{
  return classes;
}

const TtvAnalysisClass *
ttv_analysis_find_class (const char *name)
{
  for (guint i = 0; classes[i]; i++)
    if (g_str_equal (classes[i]->name, name))
      return classes[i];
  return NULL;
}
