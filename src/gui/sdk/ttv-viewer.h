/* ttv-viewer.h: the plugin SDK of the ttv viewer, the one header a viewer
 * module includes (it includes the rest of the SDK).  A module sees the
 * host only through these headers, installed with ttv (pkg-config
 * ttv-viewer): no structure of the host's, no header of its toolkit.
 * Guide and example: docs/viewer-module.md; the boundary: docs/plugin-sdk.md. */
#pragma once

#include <gtk/gtk.h>

#include "ttv-viewer-types.h"     /* TtvTime, TtvTabState, the opaque handles */
#include "ttv-viewer-tab.h"       /* the tab's view model and its signals */
#include "ttv-viewer-event.h"     /* traces, events, fields, positions, filters */
#include "ttv-viewer-request.h"   /* event requests */
#include "ttv-viewer-analysis.h"  /* density, state, statistics, state history */
#include "ttv-viewer-kernel.h"    /* latencies, CPU usage, why blocked, critical path */
#include "ttv-viewer-userspace.h" /* call stacks, memory, symbols of userspace traces */
#include "ttv-viewer-module.h"    /* registration, render, settings, export */
#include "ttv-palette.h"          /* the time lines' colours */
