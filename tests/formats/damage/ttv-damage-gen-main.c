/* ttv-damage-gen-main.c: the damaged-trace generator as a program, for
 * campaigns beyond the suite: writes every damaged variant of a trace.
 *   usage: ttv-damage-gen -f ltt|lttng|ctf [-s SEED] [-n FLIPS] -o OUTDIR TRACE
 * (ctf: CTF 1.8 or 2, metadata plain or in packets)
 * OUTDIR/NNN holds variant NNN, OUTDIR/list.txt says what each one is and
 * whether it certainly loses events. */
#include "ttv-damage-gen.h"

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  char *format = NULL, *out = NULL;
  gint seed = 1, flips = 8;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Format of TRACE: ltt, lttng or ctf (CTF 1.8 or 2)", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Folder to write the variants in (made)", "DIR" },
    { "seed", 's', 0, G_OPTION_ARG_INT, &seed, "Seed of the bit flips (default 1)", "N" },
    { "flips", 'n', 0, G_OPTION_ARG_INT, &flips, "Bit flips per tracefile (default 8)", "N" },
    { NULL },
  };
  g_autoptr (GOptionContext) oc = g_option_context_new ("TRACE — write damaged copies of a trace");
  g_autoptr (GError) error = NULL;
  g_option_context_add_main_entries (oc, entries, NULL);
  if (!g_option_context_parse (oc, &argc, &argv, &error) || argc != 2 || format == NULL || out == NULL
      || flips < 0)
    {
      fprintf (stderr, "ttv-damage-gen: %s\n", error ? error->message : "usage: -f FORMAT -o DIR TRACE");
      return 2;
    }
  g_autoptr (GPtrArray) variants = ttv_damage_list (argv[1], format, (guint32) seed, (guint) flips);
  if (g_mkdir_with_parents (out, 0755) != 0)
    {
      perror (out);
      return 1;
    }
  g_autoptr (GString) list = g_string_new (NULL);
  for (guint i = 0; i < variants->len; i++)
    {
      const TtvDamageVariant *v = variants->pdata[i];
      g_autofree char *name = g_strdup_printf ("%03u", i);
      g_autofree char *dir = g_build_filename (out, name, NULL);
      if (!ttv_damage_write (argv[1], v, dir, &error))
        {
          fprintf (stderr, "ttv-damage-gen: %s\n", error->message);
          return 1;
        }
      g_string_append_printf (list, "%s\t%s\t%s\n", name, v->loses_events ? "loses-events" : "may-lose-events",
                              v->name);
    }
  g_autofree char *list_path = g_build_filename (out, "list.txt", NULL);
  if (!g_file_set_contents (list_path, list->str, (gssize) list->len, &error))
    {
      fprintf (stderr, "ttv-damage-gen: %s\n", error->message);
      return 1;
    }
  g_free (format);
  g_free (out);
  return 0;
}
