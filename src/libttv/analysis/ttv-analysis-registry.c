/* ttv-analysis-registry.c: every analysis ttv knows, in the order
 * ttv-report --analysis lists them (see ttv-analysis.h). */
#include "ttv-analysis.h"
#include "ttv-callstack.h"
#include "ttv-memory-analysis.h"

const TtvAnalysisClass * const *
ttv_analysis_list (void)
{
  static const TtvAnalysisClass *const classes[] = {
    &ttv_callstack_analysis_class,
    &ttv_memory_analysis_class,
    NULL
  };
  return classes;
}
