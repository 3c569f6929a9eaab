/* ttv-cli-text-option.h: options whose values are text, for ttv-report and
 * ttv-gen.  GOption refuses a G_OPTION_ARG_STRING value that is not in the
 * locale's encoding without naming the option, so such options are declared
 * G_OPTION_ARG_FILENAME (bytes) and converted here, naming the option. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *name;             /* as the user types it: "--filter", "-d" */
  char **value;                 /* a single value, or */
  char ***values;               /* a repeated one (NULL-terminated) */
} TtvTextOption;

/* Converts every value of @options (@n of them) to UTF-8 in place; FALSE
 * with @error (TTV_USAGE_ERROR) naming the option and where its bad byte
 * is. */
gboolean ttv_text_options_to_utf8 (const TtvTextOption *options, guint n, GError **error);

G_END_DECLS
