/* ttv-analysis-registry.c: every analysis ttv knows, in the order
 * ttv-report --analysis lists them (see ttv-analysis.h). */
#include "ttv-analysis.h"
#include "ttv-callstack.h"
#include "ttv-kernel-analyses.h"
#include "ttv-memory-analysis.h"
#include "ttv-symbols-analysis.h"

const TtvAnalysisClass * const *
ttv_analysis_list (void)
{
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
  return classes;
}
