/* ttv-main.c: the entry point of the desktop viewer `ttv` (see docs/ttv.1):
 * sets up translations and runs the GtkApplication. */
#include "ttv-config.h"

#include "ttv-application.h"

#include <glib/gi18n.h>
#include <locale.h>

int
main (int argc, char **argv)
{
  g_autoptr (TtvApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, TTV_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name ("ttv");
  gtk_window_set_default_icon_name ("org.ttv.Viewer");

  app = ttv_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
