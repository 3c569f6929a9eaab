/* ttv-sim-net.h: simulated machines that talk over a network, each with its own
 * clock (offset and drift from true time); ttv-gen --machines and the sync tests use it. */
#pragma once

#include "ttv-time.h"

#include <glib.h>

G_BEGIN_DECLS

/* A machine's clock: local = true + offset + drift * (true - epoch). */
typedef struct {
  gint64 offset_ns;
  double drift;                 /* rate error, e.g. 50e-6 for +50 ppm */
} TtvSimClock;

TtvTime ttv_sim_clock_local (const TtvSimClock *clock, TtvTime epoch, TtvTime true_time);

typedef struct {
  guint n_machines;             /* 2 or more */
  const TtvSimClock *clocks;    /* [n_machines]; clocks[0] is usually exact */
  TtvTime epoch;                /* true start time of the traces */
  TtvTime span;                 /* true time the traces cover */
  TtvTime interval_ns;          /* time between two messages of one direction (default 1 ms) */
  guint64 seed;
  gboolean one_way;             /* machine 0 sends, the others only receive (a sync test) */
} TtvSimNetOptions;

/* One packet as a machine's kernel records it: LTTng's inet_sock_local_out
 * when it leaves, inet_sock_local_in when it arrives; the TCP identity
 * (addresses, ports, sequence numbers, flags) is the same on both sides. */
typedef struct {
  TtvTime time;                 /* the recording machine's local time */
  gboolean receive;
  guint64 sk;                   /* the socket's kernel address on that machine */
  guint32 saddr, daddr;         /* IPv4, host order */
  guint16 sport, dport;
  guint32 seq, ack_seq;
  guint8 flags;                 /* TCP flags: ACK | PSH */
} TtvSimNetEvent;

/* The messages between machine 0 and every other machine, both ways (one
 * way with one_way), sent at about every interval_ns of true time across
 * the span, each delayed by 30 µs plus a random latency (at most a
 * quarter of the interval).  Returns one GArray of TtvSimNetEvent per
 * machine, sorted by local time. */
GPtrArray *ttv_sim_net_schedule (const TtvSimNetOptions *options);

G_END_DECLS
