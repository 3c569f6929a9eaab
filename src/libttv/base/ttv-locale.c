/* ttv-locale.c: locale and catalogue set-up shared by every ttv program
 * (see ttv-locale.h). */
#include "ttv-config.h"

#include "ttv-locale.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <string.h>

/* TRUE when the running executable lies in the build tree it was built in:
 * then it is run uninstalled (from a developer's tree or by the tests), and
 * the installed catalogue may be missing or stale. */
gboolean
ttv_running_from_build_tree (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  size_t root_len = strlen (TTV_BUILD_ROOT);

  return exe != NULL && strncmp (exe, TTV_BUILD_ROOT, root_len) == 0 && exe[root_len] == G_DIR_SEPARATOR;
}

const char *
ttv_locale_dir (void)
{
  return ttv_running_from_build_tree () ? TTV_BUILD_LOCALEDIR : TTV_LOCALEDIR;
}

void
ttv_locale_init (void)
{
  setlocale (LC_ALL, "");
  /* Numbers stay C ('.' before decimals, no digit grouping) in every
   * language: times are seconds.nanoseconds as babeltrace2 and Trace
   * Compass write them, what the rulers and tables show must read back in
   * the time entries and filters, and exported JSON, SVG and CSV must not
   * change with the user's language. */
  setlocale (LC_NUMERIC, "C");
  bindtextdomain (GETTEXT_PACKAGE, ttv_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
