/* ttv-test-clipboard.c: prints the text of the X clipboard (what a window
 * under test copied with Ctrl+C), so that the shell tests can read a
 * dialog's message; exits 1 when there is none within 5 seconds. */
#include <gtk/gtk.h>

int
main (int argc, char **argv)
{
  g_autofree char *text = NULL;

  gtk_init (&argc, &argv);
  text = gtk_clipboard_wait_for_text (gtk_clipboard_get (GDK_SELECTION_CLIPBOARD));
  if (!text)
    return 1;
  g_print ("%s\n", text);
  return 0;
}
