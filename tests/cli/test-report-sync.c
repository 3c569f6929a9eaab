/* test-report-sync.c: clock synchronization of several machines (issue 19,
 * docs/multi-machine.md) as a user runs it: ttv-gen --machines writes
 * machines with known clocks that exchange packets, ttv-report --sync must
 * find each clock within the bounds it reports; bad input (one direction,
 * no packets, one machine) gets a clear message; the hull fit on its own. */
#include "ttv-test-util.h"
#include "ttv-history-private.h"
#include "ttv-sync.h"

#include <math.h>
#include <string.h>

#ifndef TTV_REPORT_PATH
#error "TTV_REPORT_PATH must be defined by the build"
#endif
#ifndef TTV_GEN_PATH
#error "TTV_GEN_PATH must be defined by the build"
#endif

static char *net;        /* three machines node-1..3 talking both ways */
static char *one_way;    /* two machines, node-1 sends only */
/* The same clocks, the packets as net_dev_queue / net_if_receive_skb with
 * their headers, among UDP and ARP traffic: two machines (CTF 1.8,
 * big-endian 32-bit), three (CTF 2, node-3 over IPv6), and two without TCP. */
static char *net_dev2, *net_dev3, *no_tcp;
/* The same clocks in LTTng 0.x traces with the net channel of kernels
 * patched for synchronization: three machines (TCP), and two among UDP and
 * ARP traffic (big-endian 32-bit). */
static char *lttng3, *lttng2;
/* The same events in LTT traces (seed 000's format): three machines, and
 * two among UDP and ARP traffic (big-endian 32-bit). */
static char *ltt3, *ltt2;

static char *
machine_dir (const char *root, guint k)
{
  return g_strdup_printf ("%s/node-%u", root, k);
}

/* The machines of kernels patched for synchronization in @format (ltt or
 * lttng): three (TCP), and two among UDP and ARP traffic (big-endian
 * 32-bit), in *@three and *@two. */
static void
generate_patched_kernels (const char *format, char **three, char **two)
{
  g_autofree char *name3 = g_strdup_printf ("%s-3", format), *name2 = g_strdup_printf ("%s-2", format);
  *three = ttv_test_dup_tmp_path (name3);
  *two = ttv_test_dup_tmp_path (name2);
  const char *a[] = { TTV_GEN_PATH, "-q", "-f", format, "--machines", "3", "--clock-offset", "-0.75",
                      "--clock-drift", "35", "-d", "0.25", "-c", "2", "-p", "8", "--host", "node", "-o", *three, NULL };
  g_free (ttv_test_run_ok (a));
  const char *b[] = { TTV_GEN_PATH, "-q", "-f", format, "--machines", "2", "--net-events", "dev-xmit-mixed",
                      "--clock-offset", "-0.75", "--clock-drift", "35", "-d", "0.2", "-c", "1", "-p", "5", "--host",
                      "node", "--endian", "big", "--arch-size", "ILP32", "-o", *two, NULL };
  g_free (ttv_test_run_ok (b));
}

static void
setup (void)
{
  net = ttv_test_dup_tmp_path ("net");
  one_way = ttv_test_dup_tmp_path ("one-way");
  const char *a[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--machines", "3", "--clock-offset", "-0.75",
                      "--clock-drift", "35", "-d", "0.25", "-c", "2", "-p", "8", "--host", "node", "-o", net, NULL };
  g_free (ttv_test_run_ok (a));
  const char *b[] = { TTV_GEN_PATH, "-q", "-f", "ctf2", "--machines", "2", "--one-way", "-d", "0.05", "-c", "1",
                      "-p", "5", "--host", "node", "-o", one_way, NULL };
  g_free (ttv_test_run_ok (b));
  net_dev2 = ttv_test_dup_tmp_path ("net-dev-2");
  net_dev3 = ttv_test_dup_tmp_path ("net-dev-3");
  no_tcp = ttv_test_dup_tmp_path ("no-tcp");
  const char *c[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--machines", "2", "--net-events", "net-dev", "--clock-offset",
                      "-0.75", "--clock-drift", "35", "-d", "0.2", "-c", "1", "-p", "5", "--host", "node",
                      "--endian", "big", "--arch-size", "ILP32", "-o", net_dev2, NULL };
  g_free (ttv_test_run_ok (c));
  const char *d[] = { TTV_GEN_PATH, "-q", "-f", "ctf2", "--machines", "3", "--net-events", "net-dev", "--clock-offset",
                      "-0.75", "--clock-drift", "35", "-d", "0.2", "-c", "1", "-p", "5", "--host", "node", "-o",
                      net_dev3, NULL };
  g_free (ttv_test_run_ok (d));
  const char *e[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--machines", "2", "--net-events", "net-dev-no-tcp", "-d",
                      "0.05", "-c", "1", "-p", "5", "--host", "node", "-o", no_tcp, NULL };
  g_free (ttv_test_run_ok (e));
  generate_patched_kernels ("lttng", &lttng3, &lttng2);
  generate_patched_kernels ("ltt", &ltt3, &ltt2);
}

/* Machine k's clock: local = true + offset + drift (true - epoch). */
typedef struct {
  double offset_ns, drift;
} Clock;

static Clock
clock_of (guint k)
{
  return (Clock) { -0.75e9 * (k - 1), 35e-6 * (k - 1) };
}

static const double epoch = 1700000000e9;

/* The time on @ref's clock of the instant @k's clock reads @local. */
static double
to_reference (Clock ref, Clock k, double local)
{
  double true_time = epoch + (local - epoch - k.offset_ns) / (1 + k.drift);
  return true_time + ref.offset_ns + ref.drift * (true_time - epoch);
}

typedef struct {
  char quality[32];
  double origin;                        /* ns */
  double offset, offset_min, offset_max;  /* ns */
  double drift, drift_min, drift_max;   /* ppm */
} Reported;

/* The section of --sync's output about the trace @dir. */
static gboolean
parse_section (const char *out, const char *dir, Reported *r)
{
  g_autofree char *head = g_strdup_printf ("\n%s (", dir);
  const char *p = strstr (out, head);
  if (p == NULL)
    return FALSE;
  p = strstr (p, "): ") + 3;
  sscanf (p, "%31[a-z]", r->quality);
  const char *o = strstr (p, "offset at ");
  const char *d = strstr (p, "drift: ");
  if (o == NULL || d == NULL)
    return TRUE;
  double origin_s;
  g_assert_cmpint (sscanf (o, "offset at %lf: %lf s, between %lf and %lf s", &origin_s, &r->offset, &r->offset_min,
                           &r->offset_max), ==, 4);
  r->origin = origin_s * 1e9;
  r->offset *= 1e9;
  r->offset_min *= 1e9;
  r->offset_max *= 1e9;
  if (sscanf (d, "drift: %lf ppm, between %lf and %lf ppm", &r->drift, &r->drift_min, &r->drift_max) != 3)
    r->drift_min = r->drift_max = r->drift;
  return TRUE;
}

/* --sync on @order (machine numbers) of @root finds every clock within
 * its bounds; its output. */
static char *
check_sync (const char *root, const guint *order, guint n)
{
  const char *argv[8] = { TTV_REPORT_PATH, "--sync" };
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (dirs, machine_dir (root, order[i]));
      argv[2 + i] = g_ptr_array_index (dirs, i);
    }
  g_autofree char *out = ttv_test_run_ok (argv);
  if (g_test_verbose ())
    g_printerr ("%s", out);
  g_autofree char *first = g_strdup_printf ("reference machine node-%u\n", order[0]);
  g_assert_nonnull (strstr (out, first));
  g_autofree char *with_newline = g_strconcat ("\n", out, NULL);
  Clock ref = clock_of (order[0]);
  for (guint i = 0; i < n; i++)
    {
      Reported r = { 0 };
      g_assert_true (parse_section (with_newline, g_ptr_array_index (dirs, i), &r));
      if (i == 0)
        {
          g_assert_cmpstr (r.quality, ==, "reference");
          continue;
        }
      g_assert_cmpstr (r.quality, ==, "accurate");
      Clock k = clock_of (order[i]);
      double want_offset = to_reference (ref, k, r.origin) - r.origin;
      double want_drift = ((1 + ref.drift) / (1 + k.drift) - 1) * 1e6;
      if (g_test_verbose ())
        g_printerr ("node-%u: offset %.0f in [%.0f, %.0f], drift %.4f in [%.4f, %.4f]\n", order[i], want_offset,
                    r.offset_min, r.offset_max, want_drift, r.drift_min, r.drift_max);
      g_assert_cmpfloat (want_offset, >=, r.offset_min);
      g_assert_cmpfloat (want_offset, <=, r.offset_max);
      g_assert_cmpfloat (r.offset, >=, r.offset_min);
      g_assert_cmpfloat (r.offset, <=, r.offset_max);
      /* a packet takes 30 µs at least: the bounds cannot be closer than
       * that; through another machine, both machines' bounds add up */
      g_assert_cmpfloat (r.offset_max - r.offset_min, >, 60000);
      g_assert_cmpfloat (r.offset_max - r.offset_min, <, 500000);
      g_assert_cmpfloat (want_drift, >=, r.drift_min);
      g_assert_cmpfloat (want_drift, <=, r.drift_max);
      g_assert_cmpfloat (r.drift_min, <, r.drift_max);
    }
  return g_steal_pointer (&out);
}

static void
test_truth_within_bounds (void)
{
  static const guint forward[] = { 1, 2, 3 }, backward[] = { 3, 1, 2 };
  g_free (check_sync (net, forward, 3));
  /* another reference: the corrections are relative to the first trace */
  g_free (check_sync (net, backward, 3));
}

/* The same from lttng-modules' net_dev events: TCP over IPv4 and IPv6
 * matched, the UDP and ARP packets among them ignored. */
static void
test_net_dev_within_bounds (void)
{
  static const guint two[] = { 1, 2 }, three[] = { 1, 2, 3 }, backward[] = { 3, 2, 1 };
  g_autofree char *a = check_sync (net_dev2, two, 2);
  g_assert_nonnull (strstr (a, " other packets (not TCP over IPv4 or IPv6) ignored\n"));
  g_free (check_sync (net_dev3, three, 3));
  g_free (check_sync (net_dev3, backward, 3));

  /* the same TCP packets as inet_sock events: the same matches, the same fit */
  g_autofree char *inet = ttv_test_dup_tmp_path ("inet-sock-2");
  const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--machines", "2", "--clock-offset", "-0.75", "--clock-drift",
                        "35", "-d", "0.2", "-c", "1", "-p", "5", "--host", "node", "--endian", "big", "--arch-size",
                        "ILP32", "-o", inet, NULL };
  g_free (ttv_test_run_ok (gen));
  g_autofree char *b = check_sync (inet, two, 2);
  g_auto (GStrv) la = g_strsplit (a, "\n", -1), lb = g_strsplit (b, "\n", -1);
  g_assert_cmpstr (la[0], ==, lb[0]);   /* packets matched, sent, received */
  g_assert_cmpuint (g_strv_length (la), ==, g_strv_length (lb) + 1);
  for (guint i = 1; lb[i]; i++)
    {
      /* past the line on the other packets; the traces' paths aside */
      const char *x = strchr (la[i + 1], '('), *y = strchr (lb[i], '(');
      g_assert_cmpstr (x ? x : la[i + 1], ==, y ? y : lb[i]);
    }
}

static void
test_bad_input (void)
{
  g_autofree char *a1 = machine_dir (one_way, 1), *a2 = machine_dir (one_way, 2);
  g_autofree char *n1 = machine_dir (net, 1);
  g_autofree char *nt1 = machine_dir (no_tcp, 1), *nt2 = machine_dir (no_tcp, 2);
  /* one direction only: no bound from the other side */
  const char *argv[] = { TTV_REPORT_PATH, "--sync", a1, a2, NULL };
  g_auto (TtvTestRun) r = { 0 };
  ttv_test_run (&r, NULL, NULL, argv);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "node-2): failed, 47 packets from and 0 to node-1: "
                                   "no packet to the reference machine was received\n"));
  g_assert_nonnull (strstr (r.err, "machine node-2 cannot be synchronized: no packet to the reference"));

  /* traces without packet events, a single machine */
  g_autofree char *plain1 = ttv_test_dup_tmp_path ("plain1"), *plain2 = ttv_test_dup_tmp_path ("plain2");
  const char *g1[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--host", "p1", "-n", "2000", "-o", plain1, NULL };
  const char *g2[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--host", "p2", "-n", "2000", "-o", plain2, NULL };
  g_free (ttv_test_run_ok (g1));
  g_free (ttv_test_run_ok (g2));
  const TtvTestBadRun bad[] = {
    { { "--sync", plain1, plain2 }, 2, "No network packet events to synchronize with" },
    { { "--sync", n1 }, 2, "Synchronization needs traces of two machines or more: these traces record one machine (node-1)" },
    { { "--sync", a1, plain2 }, 2, "No packet sent by one machine was received by another (49 sent, 0 received)" },
    { { "--sync", nt1, nt2 }, 2, "No TCP packet to synchronize with: none of the " },
  };
  ttv_test_assert_runs_fail (TTV_REPORT_PATH, bad, G_N_ELEMENTS (bad));
}

/* A TCP net_dev packet of a jsonl line: its headers name it on both sides
 * (the skb address differs). */
static gboolean
parse_net_dev_packet (const char *line, gint64 *time, gboolean *receive, char **key)
{
  const char *h = strstr (line, "\"network_header\":");
  if (h == NULL || strstr (h, "\"tcp\"") == NULL
      || sscanf (line, "{\"time_ns\":%" G_GINT64_FORMAT, time) != 1)
    return FALSE;
  *receive = strstr (line, "\"event\":\"net_if_receive_skb\"") != NULL;
  *key = g_strdup (h);
  return TRUE;
}

/* A packet event of a jsonl line: FALSE for other events. */
static gboolean
parse_packet (const char *line, gint64 *time, gboolean *receive, char **key)
{
  if (strstr (line, "\"event\":\"net_") != NULL)
    return parse_net_dev_packet (line, time, receive, key);
  const char *ev = strstr (line, "\"event\":\"inet_sock_local_");
  const char *f = strstr (line, "\"saddr\":");
  if (ev == NULL || f == NULL || sscanf (line, "{\"time_ns\":%" G_GINT64_FORMAT, time) != 1)
    return FALSE;
  *receive = strncmp (ev + strlen ("\"event\":\"inet_sock_local_"), "in\"", 3) == 0;
  const char *end = strstr (f, ",\"flags\"");
  *key = g_strndup (f, (gsize) (end - f));
  return TRUE;
}

/* An LTTng 0.x packet event of a jsonl line: net.dev_xmit_extended when it
 * leaves; net.dev_receive, then net.tcpv4_rcv_extended of the same skb,
 * when it arrives (at the first's time, kept in @arrivals by trace and skb). */
static gboolean
parse_lttng0_packet (const char *line, GHashTable *arrivals, gint64 *time, gboolean *receive, char **key)
{
  const char *trace = strstr (line, "\"trace\":"), *skb = strstr (line, "\"skb\":");
  if (sscanf (line, "{\"time_ns\":%" G_GINT64_FORMAT, time) != 1 || trace == NULL || skb == NULL)
    return FALSE;
  g_autofree char *where = g_strdup_printf ("%.*s/%" G_GUINT64_FORMAT, (int) strcspn (trace, ","), trace,
                                            g_ascii_strtoull (skb + strlen ("\"skb\":"), NULL, 10));
  if (strstr (line, "\"event\":\"net.dev_receive\"") != NULL)
    {
      g_hash_table_insert (arrivals, g_steal_pointer (&where), g_memdup2 (time, sizeof *time));
      return FALSE;
    }
  *receive = strstr (line, "\"event\":\"net.tcpv4_rcv_extended\"") != NULL;
  if (*receive)
    {
      gint64 *arrived = g_hash_table_lookup (arrivals, where);
      g_assert_nonnull (arrived);
      *time = *arrived;
    }
  else if (strstr (line, "\"event\":\"net.dev_xmit_extended\"") == NULL
           || strstr (line, "\"transport_protocol\":6,") == NULL)
    return FALSE;
  *key = g_strdup (strstr (line, "\"saddr\":"));
  return TRUE;
}

/* Runs ttv-report with @args and the @n machines of @root; its jsonl lines. */
static char **
report_machine_lines (const char *root, guint n, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, g_strdup (TTV_REPORT_PATH));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  for (guint k = 1; k <= n; k++)
    g_ptr_array_add (argv, machine_dir (root, k));
  g_ptr_array_add (argv, NULL);
  g_auto (TtvTestRun) r = { 0 };
  ttv_test_run (&r, NULL, NULL, (const char *const *) argv->pdata);
  g_assert_cmpint (r.status, ==, 0);
  return g_strsplit (r.out, "\n", -1);
}

static char **
report_lines (const char *const *args)
{
  return report_machine_lines (net, 3, args);
}

/* Each matched packet: how many arrived before they left (in the times
 * printed), and how many pairs there were. */
static guint
count_inversions (char **lines, guint *n_pairs)
{
  g_autoptr (GHashTable) sent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) received = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gint64 last = G_MININT64;
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      gint64 t;
      gboolean receive;
      char *key;
      if (!parse_packet (lines[i], &t, &receive, &key))
        continue;
      g_assert_cmpint (t, >=, last);        /* merged in corrected time */
      last = t;
      g_hash_table_insert (receive ? received : sent, key, g_memdup2 (&t, sizeof t));
    }
  g_autoptr (GHashTable) arrivals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      gint64 t;
      gboolean receive;
      char *key;
      if (strstr (lines[i], "\"event\":\"net.") && parse_lttng0_packet (lines[i], arrivals, &t, &receive, &key))
        g_hash_table_insert (receive ? received : sent, key, g_memdup2 (&t, sizeof t));
    }
  guint inversions = 0;
  *n_pairs = 0;
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, received);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      gint64 *s = g_hash_table_lookup (sent, key);
      if (s == NULL)
        continue;
      (*n_pairs)++;
      inversions += *(gint64 *) value <= *s;
    }
  return inversions;
}

/* --sync corrects what is printed: every reception after its emission
 * (they are not before it); seeking by time finds the same events. */
static void
test_causality (void)
{
  static const char *const raw_args[] = { "-f", "jsonl", "-d", "inet_sock_local_out,inet_sock_local_in", NULL };
  static const char *const sync_args[] = { "--sync", "-f", "jsonl", "-d", "inet_sock_local_out,inet_sock_local_in",
                                           NULL };
  g_auto (GStrv) raw = report_lines (raw_args);
  g_auto (GStrv) synced = report_lines (sync_args);
  guint n_raw, n_synced;
  g_assert_cmpuint (count_inversions (raw, &n_raw), >, 100);
  g_assert_cmpuint (count_inversions (synced, &n_synced), ==, 0);
  g_assert_cmpuint (n_synced, ==, n_raw);
  g_assert_cmpuint (n_synced, >, 900);

  /* a window by --start and --end: the same lines as in the whole */
  gint64 t0;
  gboolean receive;
  g_autofree char *key = NULL;
  guint mid = g_strv_length (synced) / 2;
  g_assert_true (parse_packet (synced[mid], &t0, &receive, &key));
  g_autofree char *from = ttv_test_dup_seconds (t0), *to = ttv_test_dup_seconds (t0 + 20000000);
  const char *const window_args[] = { "--sync", "-f", "jsonl", "-d", "inet_sock_local_out,inet_sock_local_in",
                                      "--start", from, "--end", to, NULL };
  g_auto (GStrv) window = report_lines (window_args);
  guint n = 0;
  for (guint i = 0; synced[i] && synced[i][0]; i++)
    {
      gint64 t;
      g_free (key);
      key = NULL;
      if (!parse_packet (synced[i], &t, &receive, &key) || t < t0 || t > t0 + 20000000)
        continue;
      g_assert_nonnull (window[n]);
      g_assert_cmpstr (window[n], ==, synced[i]);
      n++;
    }
  g_assert_cmpuint (n, >, 20);
  g_assert_true (window[n] == NULL || window[n][0] == 0);
}

/* The three machines of @root printed with the packet events @events, raw
 * and after --sync: receptions before their emissions, then none; the
 * same packets, more than @min_pairs. */
static void
check_causality (const char *root, const char *events, guint min_pairs)
{
  const char *const raw_args[] = { "-f", "jsonl", "-d", events, NULL };
  const char *const sync_args[] = { "--sync", "-f", "jsonl", "-d", events, NULL };
  g_auto (GStrv) raw = report_machine_lines (root, 3, raw_args);
  g_auto (GStrv) synced = report_machine_lines (root, 3, sync_args);
  guint n_raw, n_synced;
  g_assert_cmpuint (count_inversions (raw, &n_raw), >, 100);
  g_assert_cmpuint (count_inversions (synced, &n_synced), ==, 0);
  g_assert_cmpuint (n_synced, ==, n_raw);
  g_assert_cmpuint (n_synced, >, min_pairs);
}

/* The same with net_dev events, on three machines: the TCP packets. */
static void
test_net_dev_causality (void)
{
  check_causality (net_dev3, "net_dev_queue,net_if_receive_skb", 600);
}

/* The same from LTTng 0.x traces of kernels patched for synchronization:
 * two and three machines, any reference; UDP and ARP traffic ignored. */
static void
test_lttng0_within_bounds (void)
{
  static const guint two[] = { 1, 2 }, backward2[] = { 2, 1 }, three[] = { 1, 2, 3 }, backward[] = { 3, 1, 2 };
  g_free (check_sync (lttng3, three, 3));
  g_free (check_sync (lttng3, backward, 3));
  g_autofree char *a = check_sync (lttng2, two, 2);
  g_assert_nonnull (strstr (a, " other packets (not TCP over IPv4 or IPv6) ignored\n"));
  g_free (check_sync (lttng2, backward2, 2));
}

/* After --sync, every TCP reception (dev_receive of the skb that
 * tcpv4_rcv_extended takes) is after its dev_xmit_extended. */
static void
test_lttng0_causality (void)
{
  check_causality (lttng3, "dev_xmit_extended,dev_receive,tcpv4_rcv_extended", 900);
}

/* The same events in LTT traces (facility "net"): the matcher reads them by
 * name, whatever the format. */
static void
test_ltt_within_bounds (void)
{
  static const guint two[] = { 1, 2 }, three[] = { 1, 2, 3 }, backward[] = { 3, 1, 2 };
  g_free (check_sync (ltt3, three, 3));
  g_free (check_sync (ltt3, backward, 3));
  g_autofree char *a = check_sync (ltt2, two, 2);
  g_assert_nonnull (strstr (a, " other packets (not TCP over IPv4 or IPv6) ignored\n"));
}

static void
test_ltt_causality (void)
{
  check_causality (ltt3, "dev_xmit_extended,dev_receive,tcpv4_rcv_extended", 900);
}

/* Replaces @from by @to (of the same length) everywhere in @path. */
static void
patch_file (const char *path, const char *from, const char *to)
{
  g_autofree char *data = NULL;
  gsize len, n = strlen (from), hits = 0;
  g_assert_cmpuint (strlen (to), ==, n);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  for (char *p = data; p + n <= data + len; p++)
    if (memcmp (p, from, n) == 0)
      {
        memcpy (p, to, n);
        hits++;
      }
  g_assert_cmpuint (hits, >, 0);
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
}

/* A copy of lttng-3's two first machines whose marker formats say @from as @to. */
static char *
patched_lttng0 (const char *name, const char *from, const char *to)
{
  g_autofree char *root = ttv_test_dup_tmp_path (name);
  for (guint k = 1; k <= 2; k++)
    {
      g_autofree char *src = machine_dir (lttng3, k), *dst = machine_dir (root, k);
      ttv_test_copy_dir (src, dst);
      g_autofree char *facilities = g_build_filename (dst, "control", "facilities_0", NULL);
      patch_file (facilities, from, to);
    }
  return g_steal_pointer (&root);
}

/* Packet events without the fields to match them by, or of another type:
 * a message that says which, never a crash. */
static void
test_lttng0_odd_fields (void)
{
  g_autofree char *wrong = patched_lttng0 ("lttng-wrong-type", "seq %u ack_seq", "seq %s ack_seq");
  g_autofree char *missing = patched_lttng0 ("lttng-missing", "skb %p saddr", "skx %p saddr");
  g_autofree char *w1 = machine_dir (wrong, 1), *w2 = machine_dir (wrong, 2);
  g_autofree char *m1 = machine_dir (missing, 1), *m2 = machine_dir (missing, 2);
  const TtvTestBadRun bad[] = {
    /* (the quotes around the field's name depend on the locale) */
    { { "--sync", w1, w2 }, 2, " is not an integer (LTTng 0.x kernels patched for synchronization record "
                               "net.dev_xmit_extended, net.dev_receive and net.tcpv4_rcv_extended" },
    { { "--sync", m1, m2 }, 2, "No network packet events to synchronize with: net.tcpv4_rcv_extended has no field " },
  };
  ttv_test_assert_runs_fail (TTV_REPORT_PATH, bad, G_N_ELEMENTS (bad));
}

/* @out with the copy's name as the original's. */
static char *
as_original (const char *out)
{
  g_auto (GStrv) parts = g_strsplit (out, "node-2-copy", -1);
  return g_strjoinv ("node-2", parts);
}

/* --offset shifts one trace's times, alone or with --sync. */
static void
test_manual_offset (void)
{
  g_autofree char *n2 = machine_dir (net, 2);
  const char *plain[] = { TTV_REPORT_PATH, "-f", "jsonl", "-n", "5", n2, NULL };
  const char *shifted[] = { TTV_REPORT_PATH, "-f", "jsonl", "-n", "5", "--offset", "node-2=-1.25", n2, NULL };
  g_autofree char *a = ttv_test_run_ok (plain), *b = ttv_test_run_ok (shifted);
  g_auto (GStrv) la = g_strsplit (a, "\n", -1), lb = g_strsplit (b, "\n", -1);
  for (guint i = 0; i < 5; i++)
    {
      gint64 ta, tb;
      g_assert_cmpint (sscanf (la[i], "{\"time_ns\":%" G_GINT64_FORMAT, &ta), ==, 1);
      g_assert_cmpint (sscanf (lb[i], "{\"time_ns\":%" G_GINT64_FORMAT, &tb), ==, 1);
      g_assert_cmpint (ta - tb, ==, 1250000000);
    }
  /* the manual offset of node-3 replaces --sync's: its packets come out of order again */
  static const char *const args[] = { "--sync", "--offset", "node-3=0", "-f", "jsonl", "-d",
                                      "inet_sock_local_out,inet_sock_local_in", NULL };
  g_auto (GStrv) lines = report_lines (args);
  guint n_pairs;
  g_assert_cmpuint (count_inversions (lines, &n_pairs), >, 100);

  /* saved with the bookmarks: later reports (and the viewer) use it */
  g_autofree char *copy = ttv_test_dup_tmp_path ("node-2-copy");
  ttv_test_copy_dir (n2, copy);
  const char *save[] = { TTV_REPORT_PATH, "--offset", "node-2=-1.25", "--save-offsets", copy, NULL };
  g_autofree char *saved = ttv_test_run_ok (save);
  g_assert_nonnull (strstr (saved, "clock t - 1.250000000 s saved in "));
  g_autofree char *file = g_build_filename (copy, ".ttv-bookmarks.xml", NULL);
  g_autofree char *xml = NULL;
  g_assert_true (g_file_get_contents (file, &xml, NULL, NULL));
  g_assert_nonnull (strstr (xml, "<clock offset=\"-1.250000000\"/>"));
  const char *later[] = { TTV_REPORT_PATH, "-f", "jsonl", "-n", "5", copy, NULL };
  g_autofree char *c = ttv_test_run_ok (later);
  g_autofree char *c_orig = as_original (c);
  g_assert_cmpstr (c_orig, ==, b);
  /* --offset replaces it for one run; --offset 0 saved removes it */
  const char *zero[] = { TTV_REPORT_PATH, "-f", "jsonl", "-n", "5", "--offset", "node-2=0", copy, NULL };
  g_autofree char *d = ttv_test_run_ok (zero);
  g_autofree char *d_orig = as_original (d);
  g_assert_cmpstr (d_orig, ==, a);
  const char *unsave[] = { TTV_REPORT_PATH, "--offset", "node-2=0", "--save-offsets", copy, NULL };
  g_free (ttv_test_run_ok (unsave));
  g_free (xml);
  g_assert_true (g_file_get_contents (file, &xml, NULL, NULL));
  g_assert_null (strstr (xml, "<clock"));

  g_autofree char *n1 = machine_dir (net, 1);
  const TtvTestBadRun bad[] = {
    { { "--save-offsets", n1 }, 2, "--save-offsets saves the offsets --offset gives" },
    { { "--sync", "--save-offsets", "--offset", "node-1=1", n1 }, 2, "--save-offsets saves" },
    { { "--offset", "node-9=1", n1 }, 2, "--offset: no trace is named" },
    { { "--offset", "node-1", n1 }, 2, "is not TRACE=SECONDS" },
    { { "--offset", "node-1=soon", n1 }, 2, "is not TRACE=SECONDS" },
    { { "--offset", "=1", n1 }, 2, "is not TRACE=SECONDS" },
  };
  ttv_test_assert_runs_fail (TTV_REPORT_PATH, bad, G_N_ELEMENTS (bad));
}

/* The state history (and the analyses' caches beside it) of a corrected
 * traceset is another file: its times differ. */
static void
test_cache_key (void)
{
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  for (guint k = 1; k <= 2; k++)
    {
      g_autofree char *dir = machine_dir (net, k);
      g_assert_true (ttv_traceset_add_path (ts, dir, NULL));
    }
  TtvHistoryOptions opt = { .cache_dir = "/cache" };
  g_autofree char *plain = ttv_history_cache_path (ts, &opt);
  TtvClockCorrection c = { .origin = 1, .offset_ns = -5e8, .drift = 1e-5 };
  ttv_traceset_set_clock_correction (ts, 1, &c);
  g_autofree char *corrected = ttv_history_cache_path (ts, &opt);
  g_assert_cmpstr (plain, !=, corrected);
  ttv_traceset_set_clock_correction (ts, 1, NULL);
  g_autofree char *again = ttv_history_cache_path (ts, &opt);
  g_assert_cmpstr (plain, ==, again);
}

/* The fit on its own: exact bounds, crossing hulls, too few packets. */
static void
test_fit (void)
{
  /* true line: v = 1000 + 1e-4 u; lower points 50 below it, upper 50 above */
  TtvSyncPoint lower[4], upper[4];
  for (guint i = 0; i < 4; i++)
    {
      double u = i * 1e6;
      lower[i] = (TtvSyncPoint) { u, 1000 + 1e-4 * u - 50 - 10 * (i % 2) };
      upper[i] = (TtvSyncPoint) { u + 5e5, 1000 + 1e-4 * (u + 5e5) + 50 + 10 * (i % 2) };
    }
  TtvSyncFit fit;
  ttv_sync_fit (lower, 4, upper, 4, &fit);
  g_assert_cmpint (fit.quality, ==, TTV_SYNC_ACCURATE);
  g_assert_cmpfloat (fit.drift_min, <=, 1e-4);
  g_assert_cmpfloat (fit.drift_max, >=, 1e-4);
  g_assert_cmpfloat (fit.offset_min, <=, 1000);
  g_assert_cmpfloat (fit.offset_max, >=, 1000);
  g_assert_cmpfloat (fabs (fit.offset - 1000), <, 100);
  /* every point on its side of the estimate */
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpfloat (fit.offset + fit.drift * lower[i].u, >, lower[i].v);
      g_assert_cmpfloat (fit.offset + fit.drift * upper[i].u, <, upper[i].v);
    }

  /* a packet that arrived before it left (in any linear clock): the hulls cross */
  TtvSyncPoint crossing[4];
  memcpy (crossing, upper, sizeof upper);
  crossing[1].v = lower[1].v - 500;
  crossing[2].v = lower[2].v - 500;
  ttv_sync_fit (lower, 4, crossing, 4, &fit);
  g_assert_cmpint (fit.quality, ==, TTV_SYNC_FAIL);
  g_assert_nonnull (strstr (fit.reason, "hulls cross"));

  /* one packet each way: the offset is bounded, the drift is not */
  ttv_sync_fit (lower, 1, upper, 1, &fit);
  g_assert_cmpint (fit.quality, ==, TTV_SYNC_APPROXIMATE);
  g_assert_cmpfloat (fit.drift, ==, 0);
  g_assert_cmpfloat (fit.offset_min, <, fit.offset_max);

  /* no packet one way */
  ttv_sync_fit (lower, 4, upper, 0, &fit);
  g_assert_cmpint (fit.quality, ==, TTV_SYNC_FAIL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  setup ();
  g_test_add_func ("/cli/sync/fit", test_fit);
  g_test_add_func ("/cli/sync/truth-within-bounds", test_truth_within_bounds);
  g_test_add_func ("/cli/sync/bad-input", test_bad_input);
  g_test_add_func ("/cli/sync/causality", test_causality);
  g_test_add_func ("/cli/sync/manual-offset", test_manual_offset);
  g_test_add_func ("/cli/sync/cache-key", test_cache_key);
  g_test_add_func ("/cli/sync/net-dev/within-bounds", test_net_dev_within_bounds);
  g_test_add_func ("/cli/sync/net-dev/causality", test_net_dev_causality);
  g_test_add_func ("/cli/sync/lttng0/within-bounds", test_lttng0_within_bounds);
  g_test_add_func ("/cli/sync/lttng0/causality", test_lttng0_causality);
  g_test_add_func ("/cli/sync/lttng0/odd-fields", test_lttng0_odd_fields);
  g_test_add_func ("/cli/sync/ltt/within-bounds", test_ltt_within_bounds);
  g_test_add_func ("/cli/sync/ltt/causality", test_ltt_causality);
  return g_test_run ();
}
