/* ttv-ctf-sim.h: the simulated kernel (sim/ttv-sim.h) written as an LTTng 2.x
 * kernel trace in CTF 1.8; ttv-gen --format ctf, the tests and the benchmarks call it. */
#pragma once

#include "ttv-ctf-writer.h"
#include "ttv-sim.h"

G_BEGIN_DECLS

typedef struct {
  guint64 n_events;               /* written: the sim's events and the files of its statedump */
  TtvTime first, last;            /* times of the first and last events */
  guint64 n_packets;
} TtvCtfSimStats;

/* Runs @sim to its end and writes every event to a new CTF trace in @dir with
 * @options, under LTTng 2.x kernel event names and fields: sched_switch,
 * sched_wakeup, sched_process_fork/exec/exit/free, syscall_entry_NAME /
 * syscall_exit_NAME (syscall_exit_unknown for a syscall begun before the
 * trace), irq_handler_entry/exit, softirq_entry/exit, trap_entry/exit,
 * lttng_statedump_process_state and lttng_statedump_interrupt (the sim's
 * control events, at the start of the first CPU's stream), each process
 * state followed by lttng_statedump_file_descriptor for the files it has
 * open (events of their own, not the sim's), block_rq_issue /
 * block_rq_complete, net_dev_xmit / netif_receive_skb, softirq_raise (with
 * the sim's softirq_raise).  Syscall entries carry the arguments the sim
 * knows (fd; filename; futex uaddr and op).  options->long_bits
 * must match the simulation's long and pointer size (0: 64); a zero
 * clock_offset becomes the start time minus about an hour ("uptime").
 * @tap (may be NULL) is called after each event is written, with the sim's
 * arguments.  @stats may be NULL. */
gboolean ttv_ctf_write_simulation (const char *dir, TtvSim *sim, const TtvCtfWriterOptions *options,
                                   TtvSimEmitFunc tap, gpointer tap_data, TtvCtfSimStats *stats,
                                   GError **error);

/* The events a simulated network's packets are written as. */
typedef enum {
  /* inet_sock_local_out / inet_sock_local_in (sk, saddr, daddr, sport,
   * dport, seq, ack_seq, flags): the old lttng-modules addon's.  TCP only. */
  TTV_CTF_NET_INET_SOCK,
  /* net_dev_queue / net_if_receive_skb with the IP and transport headers
   * as lttng-modules writes them (ttv-ctf-net-dev.h), device "eth0". */
  TTV_CTF_NET_DEV,
} TtvCtfNetEvents;

/* The same, with the packets of a simulated network (sim/ttv-sim-net.h):
 * @network (of TtvSimNetEvent, by time) is written among the sim's events
 * as @events, on the first CPU's stream; packets after the sim's last
 * event are left out. */
gboolean ttv_ctf_write_simulation_network (const char *dir, TtvSim *sim,
                                           const TtvCtfWriterOptions *options,
                                           const GArray *network, TtvCtfNetEvents events,
                                           TtvCtfSimStats *stats, GError **error);

/* The LTTng 2.x name of a sim event type for the names that do not depend on
 * values (not syscalls): "sched_switch" for TTV_SIM_EVENT_SCHED_SWITCH... */
const char *ttv_ctf_sim_event_name (guint sim_event);

G_END_DECLS
