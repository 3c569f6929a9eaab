/* ttv-process-memory.c: reading /proc/self/status (see the header). */
#include "ttv-process-memory.h"

#include <string.h>

gint64
ttv_process_status_kib (const char *field)
{
  g_autofree char *status = NULL;
  g_autofree char *key = g_strconcat ("\n", field, NULL);

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  /* At a line's start: "VmRSS:" must not match inside another name. */
  const char *line = g_str_has_prefix (status, field) ? status - 1 : strstr (status, key);
  return line ? g_ascii_strtoll (line + 1 + strlen (field), NULL, 10) : -1;
}
