/* ttv-gen.c: writes realistic synthetic traces from the simulated kernel
 * (src/libttv/sim), deterministic from a seed; for tests, benchmarks and demos. */
#include "ttv-config.h"

#include "ttv-cli-text-option.h"
#include "ttv-ctf-sim.h"
#include "ttv-ltt-sim.h"
#include "ttv-lttng-sim.h"
#include "ttv-sim.h"
#include "ttv-sim-net.h"
#include "ttv-error.h"
#include "ttv-locale.h"
#include "ttv-remove-tree.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_IO = 1, EXIT_USAGE = 2 };

/* What the writer of any format needs. */
typedef struct {
  TtvSimOptions sim;
  TtvByteOrder byte_order;
  TtvLttArchSize arch_size;
  guint32 block_size;
  guint flight_blocks;          /* 0: keep everything */
  const char *host;             /* the traced machine's host name */
} GenOptions;

typedef struct {
  guint64 n_events;
  TtvTime first, last;
} GenStats;

/* --- LTT (seed 000) ------------------------------------------------------- */

/* The simulation @sim (@o's otherwise) of host @host in @dir, with
 * @network's packets when not NULL (ttv-gen --machines). */
static gboolean
write_ltt (const TtvSimOptions *sim_options, const GenOptions *o, const char *host, const char *dir,
           const GArray *network, GenStats *stats, GError **error)
{
  g_autoptr (TtvSim) sim = ttv_sim_new (sim_options, error);
  if (!sim)
    return FALSE;

  guint max_id = 0;
  for (guint i = 0; i < ttv_sim_get_n_cpus (sim); i++)
    max_id = MAX (max_id, ttv_sim_get_cpu_id (sim, i));
  TtvLttWriterOptions wo = {
    .byte_order = o->byte_order,
    .arch_size = o->arch_size,
    .block_size = o->block_size,
    .cycles_per_second = 1000000000u,
    .start_time = sim_options->start_time,
    .n_cpu_slots = max_id + 1,
    .max_blocks_per_cpu = o->flight_blocks,
    .node_name = host,
    .description = "Synthetic trace of a simulated Linux kernel (ttv-gen)",
  };
  TtvLttSimStats s = { 0 };
  if (network ? !ttv_ltt_write_simulation_network (dir, sim, &wo, network, &s, error)
              : !ttv_ltt_write_simulation (dir, sim, &wo, NULL, NULL, &s, error))
    return FALSE;
  stats->n_events = s.n_events;
  stats->first = s.first;
  stats->last = s.last;
  return TRUE;
}

static gboolean
generate_ltt (const GenOptions *o, const char *dir, GenStats *stats, GError **error)
{
  return write_ltt (&o->sim, o, o->host, dir, NULL, stats, error);
}

/* --- LTTng 0.x (seed 001) -------------------------------------------------- */

/* The simulation @sim (@o's otherwise) in @dir, with @network's packets
 * when not NULL (ttv-gen --machines). */
static gboolean
write_lttng (const TtvSimOptions *sim, const GenOptions *o, const char *dir, const GArray *network,
             GenStats *stats, GError **error)
{
  guint arch = o->arch_size == TTV_LTT_ARCH_LP64 || o->arch_size == TTV_LTT_ARCH_ILP64 ? 8 : 4;
  TtvLttngWriterOptions wo = {
    .byte_order = o->byte_order,
    .arch_size = arch,
    .alignment = arch,
    .buf_size = o->block_size,
    .max_blocks_per_cpu = o->flight_blocks,
  };
  TtvLttngSimStats s = { 0 };
  if (network ? !ttv_lttng_write_simulation_network (dir, sim, &wo, network, &s, error)
              : !ttv_lttng_write_simulation (dir, sim, &wo, &s, error))
    return FALSE;
  stats->n_events = s.n_events;
  stats->first = s.first;
  stats->last = s.last;
  return TRUE;
}

static gboolean
generate_lttng (const GenOptions *o, const char *dir, GenStats *stats, GError **error)
{
  return write_lttng (&o->sim, o, dir, NULL, stats, error);
}

/* --- CTF 1.8 (LTTng 2.x kernel trace layout) ------------------------------- */

static TtvCtfWriterOptions
ctf_writer_options (const GenOptions *o, const char *host, TtvCtfMetadataFormat metadata)
{
  TtvCtfWriterOptions wo = {
    .byte_order = o->byte_order,
    .header = TTV_CTF_HEADER_COMPACT,
    .packet_size = o->block_size,
    .long_bits = o->sim.long_bits,
    .hostname = host,
    .metadata = metadata,
  };
  return wo;
}

static gboolean
write_ctf (const GenOptions *o, const char *dir, TtvCtfMetadataFormat metadata, GenStats *stats,
           GError **error)
{
  if (o->flight_blocks)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("--flight-recorder is not supported with --format ctf or ctf2"));
      return FALSE;
    }
  g_autoptr (TtvSim) sim = ttv_sim_new (&o->sim, error);
  if (!sim)
    return FALSE;
  TtvCtfWriterOptions wo = ctf_writer_options (o, o->host, metadata);
  TtvCtfSimStats s = { 0 };
  if (!ttv_ctf_write_simulation (dir, sim, &wo, NULL, NULL, &s, error))
    return FALSE;
  stats->n_events = s.n_events;
  stats->first = s.first;
  stats->last = s.last;
  return TRUE;
}

static gboolean
generate_ctf (const GenOptions *o, const char *dir, GenStats *stats, GError **error)
{
  return write_ctf (o, dir, TTV_CTF_METADATA_TSDL, stats, error);
}

/* --- CTF 2 (LTTng 2.15's default) ----------------------------------------- */

static gboolean
generate_ctf2 (const GenOptions *o, const char *dir, GenStats *stats, GError **error)
{
  return write_ctf (o, dir, TTV_CTF_METADATA_CTF2, stats, error);
}

/* One entry per output format. */
typedef struct {
  const char *name;
  gboolean (*generate) (const GenOptions *o, const char *dir, GenStats *stats, GError **error);
} GenFormat;

static const GenFormat formats[] = {
  { "ltt", generate_ltt },
  { "lttng", generate_lttng },
  { "ctf", generate_ctf },
  { "ctf2", generate_ctf2 },
};

/* --- Archives ------------------------------------------------------------- */

typedef enum { OUT_DIR, OUT_TAR, OUT_TAR_GZ } OutKind;

static OutKind
output_kind (const char *path)
{
  if (g_str_has_suffix (path, ".tar.gz") || g_str_has_suffix (path, ".tgz"))
    return OUT_TAR_GZ;
  if (g_str_has_suffix (path, ".tar"))
    return OUT_TAR;
  return OUT_DIR;
}

static char *
archive_base_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  static const char * const suffixes[] = { ".tar.gz", ".tgz", ".tar" };
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (base, suffixes[i]) && strlen (base) > strlen (suffixes[i]))
      return g_strndup (base, strlen (base) - strlen (suffixes[i]));
  return g_strdup ("trace");
}

static gboolean
archive_failed (struct archive *a, const char *path, GError **error)
{
  g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE, _("%s: cannot write: %s"),
               path, archive_error_string (a) ? archive_error_string (a) : g_strerror (errno));
  return FALSE;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Adds @dir (on disk) as @name/... in sorted order, so archives are reproducible. */
static gboolean
pack_dir (struct archive *a, const char *archive_path, const char *dir, const char *name,
          GError **error)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, error);
  if (!d)
    return FALSE;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *n;
  while ((n = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (n));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *child = names->pdata[i];
      g_autofree char *path = g_build_filename (dir, child, NULL);
      g_autofree char *member = g_strconcat (name, "/", child, NULL);
      GStatBuf st;
      if (g_lstat (path, &st) != 0)
        {
          int saved = errno;
          g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE, _("%s: %s"), path,
                       g_strerror (saved));
          return FALSE;
        }
      struct archive_entry *e = archive_entry_new ();
      archive_entry_set_pathname (e, member);
      archive_entry_set_mtime (e, 0, 0);
      if (S_ISDIR (st.st_mode))
        {
          archive_entry_set_filetype (e, AE_IFDIR);
          archive_entry_set_perm (e, 0755);
          gboolean ok = archive_write_header (a, e) == ARCHIVE_OK;
          archive_entry_free (e);
          if (!ok)
            return archive_failed (a, archive_path, error);
          if (!pack_dir (a, archive_path, path, member, error))
            return FALSE;
          continue;
        }
      archive_entry_set_filetype (e, AE_IFREG);
      archive_entry_set_perm (e, 0644);
      archive_entry_set_size (e, st.st_size);
      gboolean ok = archive_write_header (a, e) == ARCHIVE_OK;
      archive_entry_free (e);
      if (!ok)
        return archive_failed (a, archive_path, error);
      int fd = g_open (path, O_RDONLY, 0);
      if (fd < 0)
        {
          int saved = errno;
          g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE, _("%s: %s"), path,
                       g_strerror (saved));
          return FALSE;
        }
      char buf[65536];
      ssize_t got;
      while ((got = read (fd, buf, sizeof buf)) > 0)
        if (archive_write_data (a, buf, (size_t) got) != got)
          {
            close (fd);
            return archive_failed (a, archive_path, error);
          }
      close (fd);
      if (got < 0)
        {
          int saved = errno;
          g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE, _("%s: %s"), path,
                       g_strerror (saved));
          return FALSE;
        }
    }
  return TRUE;
}

/* Writes @dir as @archive_path (through a temporary file renamed over it). */
static gboolean
pack (const char *dir, const char *archive_path, OutKind kind, GError **error)
{
  g_autofree char *name = archive_base_name (archive_path);
  g_autofree char *tmp = g_strconcat (archive_path, ".part", NULL);
  struct archive *a = archive_write_new ();
  archive_write_set_format_pax_restricted (a);
  if (kind == OUT_TAR_GZ)
    archive_write_add_filter_gzip (a);
  gboolean ok = archive_write_open_filename (a, tmp) == ARCHIVE_OK;
  if (!ok)
    archive_failed (a, archive_path, error);
  if (ok)
    {
      struct archive_entry *e = archive_entry_new ();
      archive_entry_set_pathname (e, name);
      archive_entry_set_filetype (e, AE_IFDIR);
      archive_entry_set_perm (e, 0755);
      archive_entry_set_mtime (e, 0, 0);
      ok = archive_write_header (a, e) == ARCHIVE_OK;
      archive_entry_free (e);
      if (!ok)
        archive_failed (a, archive_path, error);
    }
  ok = ok && pack_dir (a, archive_path, dir, name, error);
  if (ok && archive_write_close (a) != ARCHIVE_OK)
    ok = archive_failed (a, archive_path, error);
  archive_write_free (a);
  if (ok && g_rename (tmp, archive_path) != 0)
    {
      int saved = errno;
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE, _("%s: cannot write: %s"),
                   archive_path, g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (tmp);
  return ok;
}

static guint
count_files (const char *path)
{
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  const char *n;
  guint count = 0;
  while (d && (n = g_dir_read_name (d)))
    {
      g_autofree char *child = g_build_filename (path, n, NULL);
      count += g_file_test (child, G_FILE_TEST_IS_DIR) ? count_files (child) : 1;
    }
  return count;
}

/* --- Command line ------------------------------------------------------------ */

static char *opt_format = NULL;
static char *opt_seed = NULL;
static gint opt_cpus = -1;
static char *opt_cpu_ids = NULL;
static gint opt_processes = -1;
static gint64 opt_events = -1;
static char *opt_duration = NULL;
static gint64 opt_block_size = -1;
static char *opt_endian = NULL;
static char *opt_arch = NULL;
static gint64 opt_flight = -1;
static char *opt_start = NULL;
static char *opt_host = NULL;
static char *opt_output = NULL;
static gboolean opt_quiet = FALSE;
static gboolean opt_replace = FALSE;
static gboolean opt_probe = FALSE;
static gboolean opt_softirq_raise = FALSE;
static gint opt_machines = 1;
static char *opt_clock_offset = NULL;
static char *opt_clock_drift = NULL;
static gboolean opt_one_way = FALSE;
static char *opt_net_events = NULL;

#define DEFAULT_FLIGHT_BLOCKS 8

static gboolean
parse_flight (const char *name, const char *value, gpointer data, GError **error)
{
  if (value == NULL)
    {
      opt_flight = DEFAULT_FLIGHT_BLOCKS;
      return TRUE;
    }
  guint64 n;
  if (!g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT32, &n, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--flight-recorder: “%s” is not a number of blocks (1 or more)"), value);
      return FALSE;
    }
  opt_flight = (gint64) n;
  return TRUE;
}

static const GOptionEntry entries[] = {
  { "format", 'f', 0, G_OPTION_ARG_FILENAME, &opt_format, N_("Trace format to write: ltt (default), lttng (LTTng 0.x), ctf (CTF 1.8, LTTng 2.x kernel) or ctf2 (CTF 2, LTTng 2.15 kernel)"), N_("FORMAT") },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
    N_("Where to write: a directory (must not exist or be empty), or an archive ending in .tar.gz, .tgz or .tar"), N_("PATH") },
  { "seed", 's', 0, G_OPTION_ARG_FILENAME, &opt_seed, N_("Random seed; the same seed and options give the same trace (default 1)"), N_("N") },
  { "cpus", 'c', 0, G_OPTION_ARG_INT, &opt_cpus, N_("Number of CPUs, ids 0..N-1 (default 4)"), N_("N") },
  { "cpu-ids", 0, 0, G_OPTION_ARG_FILENAME, &opt_cpu_ids, N_("CPU ids, increasing, sparse allowed (e.g. 0,1,2,4,6,7)"), N_("LIST") },
  { "processes", 'p', 0, G_OPTION_ARG_INT, &opt_processes, N_("Number of live processes the machine keeps (default 50)"), N_("M") },
  { "events", 'n', 0, G_OPTION_ARG_INT64, &opt_events, N_("Number of events to write (default 1000000, or no limit with --duration)"), N_("N") },
  { "duration", 'd', 0, G_OPTION_ARG_FILENAME, &opt_duration, N_("Traced time span, in seconds (e.g. 2.5)"), N_("SECONDS") },
  { "start-time", 0, 0, G_OPTION_ARG_FILENAME, &opt_start, N_("Time of the trace start, in seconds since the epoch (default 1700000000)"), N_("T") },
  { "host", 0, 0, G_OPTION_ARG_FILENAME, &opt_host,
    N_("Host name of the simulated machine (default ttv-gen; ltt, ctf and ctf2; with --machines, lttng too, as the traces' directory names): traces of different hosts opened together are different machines"), N_("NAME") },
  { "block-size", 'b', 0, G_OPTION_ARG_INT64, &opt_block_size, N_("Block size in bytes (default 65536)"), N_("BYTES") },
  { "endian", 0, 0, G_OPTION_ARG_FILENAME, &opt_endian, N_("Byte order of the traced machine: little (default) or big"), N_("ORDER") },
  { "arch-size", 0, 0, G_OPTION_ARG_FILENAME, &opt_arch, N_("Integer, long and pointer sizes: LP32, ILP32, LP64 (default) or ILP64"), N_("SIZE") },
  { "flight-recorder", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (gpointer) parse_flight,
    N_("Keep only the last BLOCKS blocks of each CPU (default 8), as a flight recorder does"), N_("BLOCKS") },
  { "replace", 0, 0, G_OPTION_ARG_NONE, &opt_replace,
    N_("Replace an existing output (a directory only if it holds a trace: info/system.xml, metadata, or the clocks of --machines)"), NULL },
  { "probe", 0, 0, G_OPTION_ARG_NONE, &opt_probe,
    N_("Add the probe: three threads on a CPU of their own with known latencies, disk time and wakeup chain"), NULL },
  { "softirq-raise", 0, 0, G_OPTION_ARG_NONE, &opt_softirq_raise, N_("Write soft IRQ raises (soft_irq_raise)"), NULL },
  { "machines", 0, 0, G_OPTION_ARG_INT, &opt_machines,
    N_("Simulate N machines talking over a network (ltt, lttng, ctf and ctf2): the output directory gets a trace per machine and a file “clocks” with each machine's clock"), N_("N") },
  { "clock-offset", 0, 0, G_OPTION_ARG_FILENAME, &opt_clock_offset,
    N_("With --machines: machine k's clock is k times this many seconds ahead of true time (default 0.25; may be negative)"), N_("SECONDS") },
  { "clock-drift", 0, 0, G_OPTION_ARG_FILENAME, &opt_clock_drift,
    N_("With --machines: machine k's clock runs k times this many parts per million fast (default 40; may be negative)"), N_("PPM") },
  { "one-way", 0, 0, G_OPTION_ARG_NONE, &opt_one_way,
    N_("With --machines: only the first machine sends (synchronization then fails: for tests)"), NULL },
  { "net-events", 0, 0, G_OPTION_ARG_FILENAME, &opt_net_events,
    N_("With --machines: the packets' events: inet-sock (inet_sock_local_out/in, TCP only; default), net-dev (net_dev_queue/net_if_receive_skb with IP and TCP headers as lttng-modules writes them, IPv6 to machines 3 and up, and UDP and ARP traffic) or net-dev-no-tcp (only the UDP and ARP traffic); with --format ltt or lttng: dev-xmit (net.dev_xmit_extended, net.dev_receive and net.tcpv4_rcv_extended of LTT and LTTng 0.x kernels patched for synchronization, TCP only; default) or dev-xmit-mixed (besides, IPv6 to machines 3 and up, and UDP and ARP traffic)"), N_("EVENTS") },
  { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opt_quiet, N_("Print nothing but errors"), NULL },
  { NULL }
};

/* The options whose values are text (declared as bytes: see the header). */
static const TtvTextOption text_options[] = {
  { "--format", &opt_format, NULL }, { "--seed", &opt_seed, NULL }, { "--cpu-ids", &opt_cpu_ids, NULL },
  { "--duration", &opt_duration, NULL }, { "--start-time", &opt_start, NULL }, { "--host", &opt_host, NULL },
  { "--endian", &opt_endian, NULL }, { "--arch-size", &opt_arch, NULL },
  { "--clock-offset", &opt_clock_offset, NULL }, { "--clock-drift", &opt_clock_drift, NULL },
  { "--net-events", &opt_net_events, NULL },
};

static gboolean
usage_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
usage_error (GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  char *message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, message);
  g_free (message);
  return FALSE;
}

static gboolean
parse_cpu_ids (const char *text, GArray *ids, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i]; i++)
    {
      guint64 id;
      g_strstrip (parts[i]);
      if (!g_ascii_string_to_unsigned (parts[i], 10, 0, 65535, &id, NULL))
        return usage_error (error, _("--cpu-ids: “%s” is not a CPU id (0 to 65535)"), parts[i]);
      if (ids->len > 0 && id <= g_array_index (ids, guint, ids->len - 1))
        return usage_error (error, _("--cpu-ids: ids must be strictly increasing (“%s”)"), text);
      guint v = (guint) id;
      g_array_append_val (ids, v);
    }
  if (ids->len == 0 || ids->len > TTV_SIM_MAX_CPUS)
    return usage_error (error, _("--cpu-ids: give 1 to %u ids"), TTV_SIM_MAX_CPUS);
  return TRUE;
}

static gboolean
parse_seconds (const char *option, const char *text, TtvTime *out, GError **error)
{
  g_autoptr (GError) local = NULL;
  if (!ttv_time_parse (text, out, &local) || *out < 0)
    return usage_error (error, _("%s: “%s” is not a time in seconds (such as 2 or 0.5)"),
                        option, text);
  return TRUE;
}

/* Turns the parsed options into GenOptions; usage errors name the option. */
static gboolean
build_options (GenOptions *o, GArray *cpu_ids, const GenFormat **format, GError **error)
{
  memset (o, 0, sizeof *o);
  ttv_sim_options_init (&o->sim);
  o->sim.seed = 1;
  o->byte_order = TTV_BYTE_ORDER_LITTLE;
  o->arch_size = TTV_LTT_ARCH_LP64;

  *format = NULL;
  const char *fname = opt_format ? opt_format : "ltt";
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (fname, formats[i].name) == 0)
      *format = &formats[i];
  if (!*format)
    return usage_error (error, _("--format: unknown format “%s” (known: ltt, lttng, ctf, ctf2)"), fname);

  if (!opt_output || !*opt_output)
    return usage_error (error, _("-o/--output: say where to write the trace"));

  o->sim.probe = opt_probe;
  o->sim.softirq_raise = opt_softirq_raise;
  if (opt_seed && !g_ascii_string_to_unsigned (opt_seed, 10, 0, G_MAXUINT64, &o->sim.seed, NULL))
    return usage_error (error, _("--seed: “%s” is not a non-negative integer"), opt_seed);

  if (opt_cpu_ids)
    {
      if (!parse_cpu_ids (opt_cpu_ids, cpu_ids, error))
        return FALSE;
      if (opt_cpus >= 0 && (guint) opt_cpus != cpu_ids->len)
        return usage_error (error, _("--cpus: %d does not match the %u ids of --cpu-ids"),
                            opt_cpus, cpu_ids->len);
      o->sim.cpu_ids = (const guint *) cpu_ids->data;
      o->sim.n_cpus = cpu_ids->len;
    }
  else if (opt_cpus != -1)
    {
      if (opt_cpus < 1 || opt_cpus > TTV_SIM_MAX_CPUS)
        return usage_error (error, _("--cpus: %d is not between 1 and %u"), opt_cpus, TTV_SIM_MAX_CPUS);
      o->sim.n_cpus = (guint) opt_cpus;
    }

  if (opt_processes != -1)
    {
      if (opt_processes < 1 || opt_processes > 1000000)
        return usage_error (error, _("--processes: %d is not between 1 and 1000000"), opt_processes);
      o->sim.n_processes = (guint) opt_processes;
    }

  if (opt_duration)
    {
      if (!parse_seconds ("--duration", opt_duration, &o->sim.duration, error))
        return FALSE;
      if (o->sim.duration == 0)
        return usage_error (error, _("--duration: must be more than 0"));
      o->sim.max_events = 0;
    }
  if (opt_events != -1)
    {
      if (opt_events < 1)
        return usage_error (error, _("--events: %" PRId64 " is not a positive number"), opt_events);
      o->sim.max_events = (guint64) opt_events;
    }

  if (opt_start)
    {
      if (!parse_seconds ("--start-time", opt_start, &o->sim.start_time, error))
        return FALSE;
      if (o->sim.start_time == 0 || o->sim.start_time / TTV_NSEC_PER_SEC > G_MAXUINT32 / 2)
        return usage_error (error, _("--start-time: “%s” is out of range (1 to 2147483647 s)"), opt_start);
    }

  o->host = "ttv-gen";
  if (opt_host)
    {
      if (*opt_host == '\0' || strpbrk (opt_host, "\"<>&\n\\") || !g_utf8_validate (opt_host, -1, NULL))
        return usage_error (error, _("--host: “%s” is not a host name"), opt_host);
      if (strcmp ((*format)->name, "lttng") == 0 && opt_machines <= 1)
        return usage_error (error, _("--host: LTTng 0.x traces do not record a host name (with --machines it names their directories)"));
      o->host = opt_host;
    }

  if (opt_block_size != -1)
    {
      if (opt_block_size < 256 || opt_block_size > (1 << 30))
        return usage_error (error, _("--block-size: %" PRId64 " is not between 256 and 1073741824"),
                            opt_block_size);
      o->block_size = (guint32) opt_block_size;
    }

  if (opt_endian)
    {
      if (g_ascii_strcasecmp (opt_endian, "little") == 0)
        o->byte_order = TTV_BYTE_ORDER_LITTLE;
      else if (g_ascii_strcasecmp (opt_endian, "big") == 0)
        o->byte_order = TTV_BYTE_ORDER_BIG;
      else
        return usage_error (error, _("--endian: “%s” is neither little nor big"), opt_endian);
    }

  if (opt_arch)
    {
      static const char * const names[] = { "LP32", "ILP32", "LP64", "ILP64" };
      guint i;
      for (i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_ascii_strcasecmp (opt_arch, names[i]) == 0)
          break;
      if (i == G_N_ELEMENTS (names))
        return usage_error (error, _("--arch-size: “%s” is not LP32, ILP32, LP64 or ILP64"), opt_arch);
      o->arch_size = (TtvLttArchSize) i;
    }
  gboolean wide = o->arch_size == TTV_LTT_ARCH_LP64 || o->arch_size == TTV_LTT_ARCH_ILP64;
  o->sim.pointer_bits = wide ? 64 : 32;
  o->sim.long_bits = wide ? 64 : 32;

  if (opt_flight != -1)
    o->flight_blocks = (guint) opt_flight;

  if (opt_replace && output_kind (opt_output) == OUT_DIR
      && g_file_test (opt_output, G_FILE_TEST_EXISTS))
    {
      g_autofree char *system = g_build_filename (opt_output, "info", "system.xml", NULL);
      g_autoptr (GDir) d = g_dir_open (opt_output, 0, NULL);
      gboolean empty = d && g_dir_read_name (d) == NULL;
      g_autofree char *metadata = g_build_filename (opt_output, "metadata", NULL);
      g_autofree char *clocks = g_build_filename (opt_output, "clocks", NULL);
      if (!empty && !g_file_test (system, G_FILE_TEST_IS_REGULAR)
          && !g_file_test (metadata, G_FILE_TEST_IS_REGULAR) && !g_file_test (clocks, G_FILE_TEST_IS_REGULAR))
        return usage_error (error, _("--replace: %s is not a trace directory; not replacing it"),
                            opt_output);
    }
  return TRUE;
}

/* --- Several machines on a network ------------------------------------------ */

typedef struct {
  double offset_s;
  double drift_ppm;
} MachineClocks;

static gboolean
parse_signed (const char *option, const char *text, double limit, double *out, GError **error)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (v) || fabs (v) > limit)
    return usage_error (error, _("%s: “%s” is not a number between -%g and %g"), option, text, limit, limit);
  *out = v;
  return TRUE;
}

static char *
machine_host (const GenOptions *o, guint k)
{
  return g_strdup_printf ("%s-%u", o->host, k + 1);
}

static gboolean
count_only (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *values,
            guint n_values, GError **error)
{
  return TRUE;
}

/* The true time the traces cover: --duration, or the time the first
 * machine takes to write its --events (a run without writing). */
static gboolean
machines_span (const GenOptions *o, TtvTime *span, GError **error)
{
  if (o->sim.duration)
    {
      *span = o->sim.duration;
      return TRUE;
    }
  g_autoptr (TtvSim) sim = ttv_sim_new (&o->sim, error);
  if (!sim || !ttv_sim_run (sim, count_only, NULL, error))
    return FALSE;
  *span = ttv_sim_get_time (sim) - o->sim.start_time;
  return TRUE;
}

static gboolean
write_clocks (const char *dir, const GenOptions *o, const TtvSimClock *clocks, guint n, GError **error)
{
  g_autoptr (GString) text = g_string_new ("# ttv-gen --machines: each machine's clock against true time:\n"
                                           "# local = true + offset + drift * (true - epoch)\n");
  char t[32];
  g_string_append_printf (text, "epoch %s\n", ttv_time_to_string (o->sim.start_time, t, sizeof t));
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *host = machine_host (o, k);
      char offset[G_ASCII_DTOSTR_BUF_SIZE], drift[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (offset, sizeof offset, "%.9f", (double) clocks[k].offset_ns / 1e9);
      g_ascii_formatd (drift, sizeof drift, "%.6f", clocks[k].drift * 1e6);
      g_string_append_printf (text, "machine %s offset %s s drift %s ppm\n", host, offset, drift);
    }
  g_autofree char *path = g_build_filename (dir, "clocks", NULL);
  if (!g_file_set_contents (path, text->str, (gssize) text->len, error))
    return FALSE;
  if (!opt_quiet)
    g_print ("%s", text->str);
  return TRUE;
}

static gboolean
build_machine_options (const GenOptions *o, const GenFormat *format, MachineClocks *mc, GError **error)
{
  if (opt_machines == 1)
    {
      if (opt_clock_offset || opt_clock_drift || opt_one_way || opt_net_events)
        return usage_error (error, _("--clock-offset, --clock-drift, --one-way and --net-events need --machines"));
      return TRUE;
    }
  if (opt_machines < 2 || opt_machines > 16)
    return usage_error (error, _("--machines: %d is not between 1 and 16"), opt_machines);
  /* LTT and LTTng 0.x kernels write the same packet events, not lttng-modules'. */
  gboolean lttng = strcmp (format->name, "lttng") == 0 || strcmp (format->name, "ltt") == 0;
  if (o->flight_blocks)
    return usage_error (error, _("--flight-recorder is not supported with --machines"));
  if (output_kind (opt_output) != OUT_DIR)
    return usage_error (error, _("--machines: the output is a directory (one trace per machine)"));
  if (opt_clock_offset && !parse_signed ("--clock-offset", opt_clock_offset, 100000, &mc->offset_s, error))
    return FALSE;
  if (opt_clock_drift && !parse_signed ("--clock-drift", opt_clock_drift, 1000, &mc->drift_ppm, error))
    return FALSE;
  /* LTTng 0.x kernels and lttng-modules have different packet events. */
  static const char *const ctf_events[] = { "inet-sock", "net-dev", "net-dev-no-tcp", NULL };
  static const char *const lttng_events[] = { "dev-xmit", "dev-xmit-mixed", NULL };
  if (opt_net_events && lttng && !g_strv_contains (lttng_events, opt_net_events))
    return usage_error (error, _("--net-events: “%s” is not dev-xmit or dev-xmit-mixed (the events of --format ltt "
                                 "and lttng)"),
                        opt_net_events);
  if (opt_net_events && !lttng && !g_strv_contains (ctf_events, opt_net_events))
    return usage_error (error, _("--net-events: “%s” is not inet-sock, net-dev or net-dev-no-tcp"),
                        opt_net_events);
  return TRUE;
}

/* A trace per machine in @dir/HOST-k, with the packets between them. */
static gboolean
generate_machines (const GenOptions *o, const GenFormat *format, const MachineClocks *mc,
                   const char *dir, GenStats *stats, GError **error)
{
  guint n = (guint) opt_machines;
  TtvTime span;
  if (!machines_span (o, &span, error))
    return FALSE;
  g_autofree TtvSimClock *clocks = g_new0 (TtvSimClock, n);
  for (guint k = 1; k < n; k++)
    {
      clocks[k].offset_ns = (gint64) llround (mc->offset_s * 1e9 * k);
      clocks[k].drift = mc->drift_ppm * 1e-6 * k;
    }
  TtvSimNetOptions no = {
    .n_machines = n, .clocks = clocks, .epoch = o->sim.start_time, .span = span,
    .seed = o->sim.seed, .one_way = opt_one_way,
    .mixed = opt_net_events && (g_str_has_prefix (opt_net_events, "net-dev")
                                || strcmp (opt_net_events, "dev-xmit-mixed") == 0),
    .no_tcp = g_strcmp0 (opt_net_events, "net-dev-no-tcp") == 0,
  };
  TtvCtfNetEvents events = no.mixed ? TTV_CTF_NET_DEV : TTV_CTF_NET_INET_SOCK;
  g_autoptr (GPtrArray) network = ttv_sim_net_schedule (&no);
  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("%s: cannot create: %s"), dir,
                   g_strerror (saved));
      return FALSE;
    }
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *host = machine_host (o, k);
      g_autofree char *sub = g_build_filename (dir, host, NULL);
      TtvSimOptions so = o->sim;
      so.seed = o->sim.seed + k;
      so.start_time = ttv_sim_clock_local (&clocks[k], o->sim.start_time, o->sim.start_time);
      so.duration = ttv_sim_clock_local (&clocks[k], o->sim.start_time, o->sim.start_time + span) - so.start_time;
      so.max_events = 0;
      GenStats s = { 0 };
      if (strcmp (format->name, "lttng") == 0)
        {
          if (!write_lttng (&so, o, sub, g_ptr_array_index (network, k), &s, error))
            return FALSE;
        }
      else if (strcmp (format->name, "ltt") == 0)
        {
          if (!write_ltt (&so, o, host, sub, g_ptr_array_index (network, k), &s, error))
            return FALSE;
        }
      else
        {
          TtvCtfWriterOptions wo = ctf_writer_options (o, host, strcmp (format->name, "ctf2") == 0
                                                                  ? TTV_CTF_METADATA_CTF2 : TTV_CTF_METADATA_TSDL);
          TtvCtfSimStats cs = { 0 };
          g_autoptr (TtvSim) sim = ttv_sim_new (&so, error);
          if (!sim || !ttv_ctf_write_simulation_network (sub, sim, &wo, g_ptr_array_index (network, k), events, &cs, error))
            return FALSE;
          s = (GenStats) { cs.n_events, cs.first, cs.last };
        }
      stats->first = k == 0 ? s.first : MIN (stats->first, s.first);
      stats->last = MAX (stats->last, s.last);
      stats->n_events += s.n_events;
    }
  return write_clocks (dir, o, clocks, n, error);
}

int
main (int argc, char **argv)
{
  ttv_locale_init ();

  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("- write a synthetic trace"));
  g_option_context_set_summary (ctx,
    _("Simulates a Linux machine (CPUs, processes forking, exec'ing and exiting,\n"
      "system calls, page faults, interrupts, soft interrupts, disk and network I/O)\n"
      "and writes what a kernel tracer would have recorded.  The same options and\n"
      "seed always give byte-identical files."));
  g_option_context_set_description (ctx,
    _("Exit status: 0 on success, 1 if writing failed, 2 for wrong arguments.\n\n"
      "Example: ttv-gen --cpu-ids 0,1,2,4 --processes 50 --events 200000 -o trace.tar.gz"));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)
      || !ttv_text_options_to_utf8 (text_options, G_N_ELEMENTS (text_options), &error))
    {
      g_printerr ("ttv-gen: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (argc > 1)
    {
      g_printerr (_("ttv-gen: unexpected argument “%s” (the output goes after -o)\n"), argv[1]);
      return EXIT_USAGE;
    }

  GenOptions o;
  const GenFormat *format;
  g_autoptr (GArray) cpu_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  MachineClocks clocks = { 0.25, 40 };
  if (!build_options (&o, cpu_ids, &format, &error) || !build_machine_options (&o, format, &clocks, &error))
    {
      g_printerr ("ttv-gen: %s\n", error->message);
      return EXIT_USAGE;
    }

  OutKind kind = output_kind (opt_output);
  g_autofree char *work_root = NULL;   /* temporary directory for archives */
  g_autofree char *dir = NULL;
  if (kind == OUT_DIR)
    {
      dir = g_strdup (opt_output);
      if (opt_replace)
        ttv_remove_tree (dir);   /* checked to be a trace by build_options() */
    }
  else
    {
      g_autofree char *parent = g_path_get_dirname (opt_output);
      g_autofree char *base = g_path_get_basename (opt_output);
      g_autofree char *tmpl = g_strdup_printf ("%s/.%s.XXXXXX", parent, base);
      if (g_mkdtemp (tmpl) != NULL)
        work_root = g_steal_pointer (&tmpl);
      else
        {
          int saved = errno;
          g_printerr (_("ttv-gen: %s: cannot create a temporary directory: %s\n"), parent,
                      g_strerror (saved));
          return EXIT_IO;
        }
      g_autofree char *name = archive_base_name (opt_output);
      dir = g_build_filename (work_root, name, NULL);
    }

  GenStats stats = { 0 };
  gboolean ok = opt_machines > 1 ? generate_machines (&o, format, &clocks, dir, &stats, &error)
                                 : format->generate (&o, dir, &stats, &error);
  guint n_files = ok ? count_files (dir) : 0;
  if (ok && kind != OUT_DIR)
    ok = pack (dir, opt_output, kind, &error);
  if (work_root)
    ttv_remove_tree (work_root);
  if (!ok)
    {
      g_printerr ("ttv-gen: %s\n", error->message);
      return g_error_matches (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT) ? EXIT_USAGE
                                                                                   : EXIT_IO;
    }

  if (!opt_quiet)
    {
      char a[32], b[32];
      g_print (_("ttv-gen: wrote %" PRIu64 " events in %u files (%s, %s .. %s) to %s\n"),
               stats.n_events, n_files, format->name, ttv_time_to_string (stats.first, a, sizeof a),
               ttv_time_to_string (stats.last, b, sizeof b), opt_output);
    }
  return EXIT_OK;
}
