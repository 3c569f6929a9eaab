/* ttv-formats.c: the registry of trace readers, in probe order.
 * Adding a format is one line here and a folder under formats/. */
#include "ttv-trace.h"
#include "ttv-ltt.h"
#include "ttv-ctf.h"
#include "ttv-lttng.h"
/* formats includes */

#include <string.h>

static const TtvFormatClass * const formats[] = {
  &ttv_ltt_format_class,
  &ttv_ctf_format_class,
  &ttv_lttng_format_class,
  /* formats */
  NULL,
};

const TtvFormatClass * const *
ttv_formats_list (void)
{
  return formats;
}

const TtvFormatClass *
ttv_format_find (const char *name)
{
  for (const TtvFormatClass * const *f = formats; *f; f++)
    if (strcmp ((*f)->name, name) == 0)
      return *f;
  return NULL;
}
