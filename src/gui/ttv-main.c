/* ttv-main.c: the entry point of the desktop viewer `ttv` (see docs/ttv.1):
 * sets up translations and runs the GtkApplication; the first-paint bench hook. */
#include "ttv-config.h"

#include "ttv-application.h"
#include "ttv-locale.h"
#include "ttv-mapping-guard.h"
#include "ttv-pass-memory.h"
#include "ttv-render.h"

#include <glib/gi18n.h>

int
main (int argc, char **argv)
{
  g_autoptr (TtvApplication) app = NULL;

  /* Before any thread starts. */
  ttv_pass_memory_init ();
  /* TTV_BENCH_FIRST_PAINT=1: the event list prints the time from here to
   * its first drawn rows as one JSON line, then quits (bench/gui-open). */
  if (g_getenv ("TTV_BENCH_FIRST_PAINT"))
    {
      g_autofree char *t0 = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_monotonic_time ());
      g_setenv ("TTV_BENCH_T0", t0, TRUE);
    }
  /* The views draw with cairo, never with OpenGL: without this, GDK on X11
   * loads the GL driver at start (on Mesa, LLVM: some 55 MB of the
   * viewer's memory for nothing).  The user's own setting wins. */
  g_setenv ("GDK_GL", "disable", FALSE);
  /* GTK would take the whole locale again, numbers included. */
  gtk_disable_setlocale ();
  ttv_locale_init ();
  ttv_mapping_guard_install ("ttv");
  g_set_application_name ("ttv");
  /* ttv --render VIEW ...: an image file, no window, no application. */
  if (ttv_render_requested (argc, argv))
    return ttv_render_main (argc, argv);
  gtk_window_set_default_icon_name ("org.ttv.Viewer");

  app = ttv_application_new ();
  g_application_set_option_context_description (G_APPLICATION (app), ttv_render_help ());
  return g_application_run (G_APPLICATION (app), argc, argv);
}
