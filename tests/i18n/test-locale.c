/* test-locale.c: the programs in French (TAP).  ttv-report on the damaged
 * traces of tests/data/traces/bad, with LANGUAGE=fr and with a real
 * fr_FR.UTF-8 locale (generated in the build tree: LOCPATH), says the same
 * thing as in English, in French; machine-readable output does not change
 * with the language; ttv_locale_init() keeps C numbers and finds the build
 * tree's catalogue. */
#include "ttv-config.h"

#include "ttv-ctf-writer.h"
#include "ttv-locale.h"
#include "ttv-test-util.h"
#include "ttv-time.h"

#include <glib.h>
#include <glib/gi18n-lib.h>
#include <langinfo.h>
#include <locale.h>
#include <string.h>

/* The committed traces the reports run on. */
#define TRACES_DIR TTV_TEST_SRCDIR "/data/traces"

/* The languages a run can ask for. */
typedef enum {
  LANG_ENGLISH,       /* LC_ALL=C */
  LANG_LANGUAGE_FR,   /* LC_ALL=C.UTF-8 LANGUAGE=fr: no French locale needed */
  LANG_FR_FR,         /* LANG=fr_FR.UTF-8 from LOCPATH: numbers and all */
} Lang;

static char **
environment_for (Lang lang)
{
  char **env = g_get_environ ();
  env = g_environ_unsetenv (env, "LC_ALL");
  env = g_environ_unsetenv (env, "LANGUAGE");
  env = g_environ_unsetenv (env, "LC_MESSAGES");
  env = g_environ_unsetenv (env, "LC_NUMERIC");
  switch (lang)
    {
    case LANG_ENGLISH:
      return g_environ_setenv (env, "LC_ALL", "C", TRUE);
    case LANG_LANGUAGE_FR:
      env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
      return g_environ_setenv (env, "LANGUAGE", "fr", TRUE);
    case LANG_FR_FR:
      env = g_environ_setenv (env, "LOCPATH", g_getenv ("TTV_TEST_LOCPATH"), TRUE);
      return g_environ_setenv (env, "LANG", "fr_FR.UTF-8", TRUE);
    }
  g_assert_not_reached ();
}

/* Runs ttv-report @args (NULL-terminated) in @lang from the source tree's
 * tests/data/traces, so that paths in messages are the same in each run. */
static void
run_report (TtvTestRun *r, Lang lang, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) env = environment_for (lang);

  g_ptr_array_add (argv, (gpointer) TTV_REPORT_PATH);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  ttv_test_run (r, TRACES_DIR, env, (const char *const *) argv->pdata);
}

#define RUN(r, lang, ...) run_report (r, lang, (const char *const[]) { __VA_ARGS__, NULL })

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The runs of digits in @text, sorted: the numbers a message reports
 * (offsets, sizes, ids), whatever order the language puts them in. */
static char *
sorted_numbers (const char *text)
{
  g_autoptr (GRegex) digits = g_regex_new ("[0-9]+", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);

  g_regex_match (digits, text, 0, &match);
  while (g_match_info_matches (match))
    {
      g_ptr_array_add (found, g_match_info_fetch (match, 0));
      g_match_info_next (match, NULL);
    }
  g_ptr_array_sort (found, compare_strings);
  g_ptr_array_add (found, NULL);
  return g_strjoinv (" ", (char **) found->pdata);
}

/* Every damaged trace, and a path that does not exist: the French run
 * fails as the English one does, with the same numbers and paths, in
 * French ("x : y" where English writes "x: y"), and no English line left. */
static void
check_bad_traces (Lang lang)
{
  g_autoptr (GDir) dir = g_dir_open (TRACES_DIR "/bad", 0, NULL);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    g_ptr_array_add (paths, g_strdup_printf ("bad/%s", name));
  g_ptr_array_add (paths, g_strdup ("bad/no-such-trace"));
  g_assert_cmpuint (paths->len, >=, 4);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      g_auto (TtvTestRun) en = { 0 };
      g_auto (TtvTestRun) fr = { 0 };

      RUN (&en, LANG_ENGLISH, path);
      RUN (&fr, lang, path);
      g_test_message ("%s:\n  %s  %s", path, en.err, fr.err);
      g_assert_cmpstr (en.err, !=, "");
      g_assert_cmpint (fr.status, ==, en.status);
      g_assert_cmpstr (fr.out, ==, en.out);
      g_assert_null (strstr (en.err, " : "));
      g_assert_nonnull (strstr (fr.err, " : "));
      g_auto (GStrv) en_lines = g_strsplit (en.err, "\n", -1);
      for (guint l = 0; en_lines[l]; l++)
        if (*en_lines[l])
          g_assert_null (strstr (fr.err, en_lines[l]));
      g_autofree char *en_numbers = sorted_numbers (en.err);
      g_autofree char *fr_numbers = sorted_numbers (fr.err);
      g_assert_cmpstr (fr_numbers, ==, en_numbers);
    }
}

static void
test_report_language_fr (gconstpointer unused)
{
  check_bad_traces (LANG_LANGUAGE_FR);
}

static void
test_report_fr_fr (gconstpointer unused)
{
  check_bad_traces (LANG_FR_FR);
}

/* What scripts read (JSON lines, statistics with their decimals, the
 * density, the state) is the same bytes in French: numbers keep their
 * '.', and the statistics tree its names as written. */
static void
test_report_machine_output (gconstpointer unused)
{
  static const char *const cases[][5] = {
    { "-f", "jsonl", "good/small-ltt", NULL },
    { "--stats", "good/small-ltt", NULL },
    { "--stats", "-f", "csv", "good/small-ltt", NULL },
    { "--stats-tables", "good/small-ltt", NULL },
    { "--density", "--density-types", "good/small-ltt", NULL },
    { "--state-at", "+0.0005", "good/small-ltt", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (TtvTestRun) en = { 0 };
      g_auto (TtvTestRun) fr = { 0 };

      run_report (&en, LANG_ENGLISH, cases[i]);
      run_report (&fr, LANG_FR_FR, cases[i]);
      g_assert_cmpint (en.status, ==, 0);
      g_assert_cmpint (fr.status, ==, 0);
      g_assert_cmpstr (en.out, !=, "");
      g_assert_cmpstr (fr.out, ==, en.out);
    }
}

/* Writes a CTF trace into @dir with one event type "sample" { double
 * ratio; } and one event per value of @ratios. */
static void
write_float_trace (const char *dir, const double *ratios, guint n)
{
  TtvCtfWriterOptions options = { .clock_offset = 1700000000 * TTV_NSEC_PER_SEC };
  g_autoptr (GError) error = NULL;
  TtvCtfWriter *w = ttv_ctf_writer_new (dir, &options, &error);
  g_autoptr (TtvType) fields = ttv_type_new_struct ();

  g_assert_no_error (error);
  ttv_type_add_field (fields, "ratio", ttv_type_new_float (64, TTV_BYTE_ORDER_NATIVE, 64), NULL);
  ttv_type_finish (fields);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "sample", fields, &error), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      TtvScalar v[] = { TTV_SCALAR_FLOAT (ratios[i]) };
      g_assert_true (ttv_ctf_writer_write_event (w, 0, options.clock_offset + 1000 * (i + 1), 0, v, 1,
                                                 &error));
    }
  g_assert_true (ttv_ctf_writer_close (w, &error));
  g_assert_no_error (error);
}

/* Floating-point fields print as in C (babeltrace2 does the same), in
 * French too: "1.25", never "1,25" (which JSON and filters reject). */
static void
test_report_float_fields (gconstpointer unused)
{
  static const double ratios[] = { 1.25, -0.5, 3.75e-5 };
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = g_build_filename (dir, "floats", NULL);
  static const char *const formats[] = { "text", "jsonl" };

  write_float_trace (trace, ratios, G_N_ELEMENTS (ratios));
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_auto (TtvTestRun) en = { 0 };
      g_auto (TtvTestRun) fr = { 0 };

      RUN (&en, LANG_ENGLISH, "-f", formats[f], trace);
      RUN (&fr, LANG_FR_FR, "-f", formats[f], trace);
      g_assert_cmpint (en.status, ==, 0);
      g_assert_cmpint (fr.status, ==, 0);
      g_assert_cmpstr (fr.out, ==, en.out);
      for (guint i = 0; i < G_N_ELEMENTS (ratios); i++)
        {
          g_autofree char *c_text = g_strdup_printf ("%g", ratios[i]);
          g_assert_true (strchr (c_text, '.') != NULL);
          g_assert_nonnull (strstr (fr.out, c_text));
        }
    }
}

/* Run from the build tree, the catalogue is the one compiled there. */
static void
test_catalogue_dir (void)
{
  g_autofree char *mo = g_build_filename (ttv_locale_dir (), "fr", "LC_MESSAGES", "ttv.mo", NULL);

  g_assert_cmpstr (ttv_locale_dir (), ==, TTV_BUILD_LOCALEDIR);
  g_assert_true (g_file_test (mo, G_FILE_TEST_IS_REGULAR));
}

/* In fr_FR.UTF-8, ttv_locale_init() takes French messages and UTF-8 but
 * keeps C numbers: what ttv prints as a time reads back as one.  (Changes
 * the process locale; the runs of ttv-report set theirs.) */
static void
test_numbers_stay_c (void)
{
  TtvTime parsed = 0;
  g_autoptr (GError) error = NULL;

  /* The generated locale is one where C numbers would change.  (Not
   * newlocale(): glibc 2.36 leaks its copy of LOCPATH.) */
  g_setenv ("LOCPATH", g_getenv ("TTV_TEST_LOCPATH"), TRUE);
  g_assert_nonnull (setlocale (LC_NUMERIC, "fr_FR.UTF-8"));
  g_assert_cmpstr (localeconv ()->decimal_point, ==, ",");

  g_unsetenv ("LC_ALL");
  g_setenv ("LANG", "fr_FR.UTF-8", TRUE);
  ttv_locale_init ();
  g_assert_cmpstr (setlocale (LC_MESSAGES, NULL), ==, "fr_FR.UTF-8");
  g_assert_cmpstr (nl_langinfo (CODESET), ==, "UTF-8");
  g_assert_cmpstr (setlocale (LC_NUMERIC, NULL), ==, "C");
  g_assert_cmpstr (_("Trace Viewer"), !=, "Trace Viewer");

  g_autofree char *shown = g_strdup_printf ("%.3f", 1700000000.25);
  g_assert_cmpstr (shown, ==, "1700000000.250");
  g_assert_true (ttv_time_parse (shown, &parsed, &error));
  g_assert_no_error (error);
  g_assert_cmpint (parsed, ==, G_GINT64_CONSTANT (1700000000250000000));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/locale/catalogue-dir", test_catalogue_dir);
  /* The report tests read the committed traces and check they left them as they were. */
  ttv_test_add_guarded ("/locale/report/language-fr", TRACES_DIR, NULL, test_report_language_fr);
  ttv_test_add_guarded ("/locale/report/fr_FR", TRACES_DIR, NULL, test_report_fr_fr);
  ttv_test_add_guarded ("/locale/report/machine-output", TRACES_DIR, NULL, test_report_machine_output);
  ttv_test_add_guarded ("/locale/report/float-fields", TRACES_DIR, NULL, test_report_float_fields);
  g_test_add_func ("/locale/numbers-stay-c", test_numbers_stay_c);
  return g_test_run ();
}
