/* ttv-viewer-module.h: what makes a shared library a viewer module (the
 * SDK's version and the entry point the loader calls) and the preferences
 * the host shares with every module.  GLib only: part of the SDK's model
 * (ttv-viewer-model.h); a view's registration is in ttv-viewer-widget.h.
 * Part of the installed SDK: include ttv-viewer.h (or ttv-viewer-model.h),
 * not this file. */
#pragma once

#include <gio/gio.h>
#include <gmodule.h>

G_BEGIN_DECLS

/* Bumped whenever the SDK changes incompatibly: a module built against
 * another version is refused at load time, with a message.  It tracks
 * every declaration of the SDK's headers: functions, the layout of the
 * structures it defines (TtvViewerInfo, TtvViewerBookmark, the history's
 * rows, intervals, marks and pixels...), enumeration values and signals.
 * The host's own structures are not part of it: modules never see them.
 * 3: the sealed SDK (accessors, SDK-owned types, separate readiness
 * signals, render entries).
 * 4: the kernel analyses (ttv-viewer-kernel.h, "kernel-ready"), the
 * selected thread ("selected-thread-changed");
 * 5: the userspace analyses (ttv-viewer-userspace.h, "userspace-ready"); the
 * lost events' whole packets (TtvViewerLostEvents.packets).
 * 6: an event's contexts (ttv_viewer_event_dup_context()).
 * 7: a wakeup mark's CPU (TtvViewerMark.cpu: the marks' layout changed).
 * 8: machines: a row's machine (TtvViewerRowInfo.machine), their number and
 * names; find_row and find_process take the machine.
 * 9: block I/O throughput per device and process
 * (ttv_viewer_table_dup_block_usage(), TtvViewerBlockUsage); system
 * calls' arguments (ttv_tab_state_read_syscall_arguments_async()).
 * 10: the selected thread's machine (ttv_tab_state_get_selected_machine(),
 * ttv_tab_state_select_thread_on()).
 * 11: a trace's machine (ttv_tab_state_get_trace_machine()); the control
 * flow's `shown-threads`.
 * 12: CPU usage per machine: CPU keys (ttv_viewer_cpu_key_machine()),
 * the machines' names, TtvViewerThreadUsage.machine, and
 * ttv_viewer_cpu_usage_get_thread_time() takes the machine; so do
 * ttv_tab_state_get_blocked_at() and ttv_tab_state_dup_critical_path();
 * a record's machine (ttv_viewer_records_get_machine()).
 * 13: the tab's time scale, long idle gaps between traces compressed
 * (ttv-viewer-time-scale.h: TtvTimeScale, ttv_tab_state_get_time_scale());
 * the density's bins leave those gaps out: each bin's times
 * (ttv_tab_state_get_density_bin_start(), _bin_of()).
 * 14: block I/O per machine: TtvViewerBlockUsage.machine, a table's
 * machines (ttv_viewer_table_get_n_machines(), _get_machine_name()), one
 * machine's thread's records (ttv_viewer_table_query_thread()).
 * 15: the userspace analyses per machine: TtvViewerCallstackThread.machine,
 * TtvViewerFunction.machine, TtvViewerMemoryProcess.machine and the span
 * its usage is known over; the tab's machines (ttv_tab_state_get_n_machines(),
 * _get_machine_name()). */
#define TTV_VIEWER_API_VERSION 15

/* A module defines, with this macro, the entry point the loader calls:
 *   TTV_VIEWER_MODULE (my_module_init)
 *   static void my_module_init (void) { ttv_viewer_register (&info); } */
#define TTV_VIEWER_MODULE(init_func)                                          \
  static void init_func (void);                                               \
  G_MODULE_EXPORT guint ttv_viewer_module_api_version (void);                 \
  G_MODULE_EXPORT guint ttv_viewer_module_api_version (void)                  \
  { return TTV_VIEWER_API_VERSION; }                                          \
  G_MODULE_EXPORT void ttv_viewer_module_init (void);                         \
  G_MODULE_EXPORT void ttv_viewer_module_init (void) { init_func (); }

/* --- Preferences ------------------------------------------------------------------
 * The viewer's GSettings (org.ttv.Viewer), shared by the application and
 * every module: a new reference when the installed schema has @key, NULL
 * when there is no schema or an older one without the key (then use the
 * default and keep nothing). */
GSettings  *ttv_viewer_dup_settings (const char *key);

G_END_DECLS
