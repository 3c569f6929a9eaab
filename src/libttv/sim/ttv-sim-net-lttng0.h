/* ttv-sim-net-lttng0.h: the packet events of LTTng 0.x kernels patched for
 * trace synchronization (channel "net"), their fields and values; the
 * LTTng 0.x writer's simulation (ttv-gen --net-events=dev-xmit) uses it. */
#pragma once

#include "ttv-encoder.h"
#include "ttv-sim-net.h"
#include "ttv-type.h"

G_BEGIN_DECLS

#define TTV_SIM_NET_LTTNG0_CHANNEL "net"

typedef enum {
  TTV_SIM_NET_LTTNG0_DEV_XMIT_EXTENDED,   /* a packet handed to the device, with its headers */
  TTV_SIM_NET_LTTNG0_DEV_RECEIVE,         /* a frame from the device: skb, protocol */
  TTV_SIM_NET_LTTNG0_TCPV4_RCV_EXTENDED,  /* TCP takes that skb: the headers */
  TTV_SIM_NET_LTTNG0_N_EVENTS
} TtvSimNetLttng0Event;

/* The most values one event takes. */
#define TTV_SIM_NET_LTTNG0_MAX_VALUES 16

const char *ttv_sim_net_lttng0_event_name (TtvSimNetLttng0Event event);
/* A finished STRUCT of the event's fields (skb a native pointer); unref it. */
TtvType    *ttv_sim_net_lttng0_event_type (TtvSimNetLttng0Event event, TtvByteOrder order);

/* The events that record @e on its machine, in order: dev_xmit_extended
 * when it leaves; dev_receive, then tcpv4_rcv_extended for TCP over IPv4,
 * when it arrives (@skb names the buffer in both).  Fills @events[i] and
 * @values[i] (n_values[i] of them); returns how many events (1 or 2). */
guint ttv_sim_net_lttng0_values (const TtvSimNetEvent *e, guint64 skb, TtvSimNetLttng0Event events[2],
                                 TtvScalar values[2][TTV_SIM_NET_LTTNG0_MAX_VALUES], guint n_values[2]);

/* Writes one event of a packet (a writer's sink). */
typedef gboolean (*TtvSimNetLttng0WriteFunc) (gpointer data, TtvTime time, TtvSimNetLttng0Event event,
                                              const TtvScalar *values, guint n_values, GError **error);
/* The packets of @network (TtvSimNetEvent in time order) due up to @time,
 * from *@next on, written through @write: the writers call it before each
 * kernel event, so that every stream stays in time order.  Each packet
 * gets the next socket buffer address (*@n_skbs counts them; @wide: a
 * 64-bit kernel's). */
gboolean ttv_sim_net_lttng0_write_due (const GArray *network, guint *next, TtvTime time, guint64 *n_skbs,
                                       gboolean wide, TtvSimNetLttng0WriteFunc write, gpointer data,
                                       GError **error);

G_END_DECLS
