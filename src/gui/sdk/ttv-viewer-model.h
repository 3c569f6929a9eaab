/* ttv-viewer-model.h: the model part of the plugin SDK, GLib and GIO only:
 * the tab's state and signals, traces, events, positions, filters,
 * requests, the background passes' results (density, statistics, state
 * history), the kernel and userspace analyses, and the module's entry
 * point and preferences.  ttv-viewer.h includes it and adds the widget
 * part (GTK, cairo); the host's model (src/viewer-model) implements it
 * without GTK.  Part of the installed SDK: a module includes ttv-viewer.h;
 * code that must not depend on GTK may include this header alone. */
#pragma once

#include <gio/gio.h>

#include "ttv-viewer-types.h"     /* TtvTime, TtvTabState, the opaque handles */
#include "ttv-viewer-tab.h"       /* the tab's view model and its signals */
#include "ttv-viewer-time-scale.h" /* times to pixels, long idle gaps compressed */
#include "ttv-viewer-event.h"     /* traces, events, fields, positions, filters */
#include "ttv-viewer-request.h"   /* event requests */
#include "ttv-viewer-analysis.h"  /* density, state, statistics, state history */
#include "ttv-viewer-kernel.h"    /* latencies, CPU usage, why blocked, critical path */
#include "ttv-viewer-userspace.h" /* call stacks, memory, symbols of userspace traces */
#include "ttv-viewer-module.h"    /* API version, entry point, settings */
