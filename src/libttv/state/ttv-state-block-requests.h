/* ttv-state-block-requests.h: the requests block devices were given and have
 * not completed yet, matched by (device, sector) as the kernel's block
 * tracepoints report them.  Part of the state (ttv-state.c), copied with it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint32 dev;             /* MAJOR << 20 | MINOR; 0 is no device */
  guint64 sector;
  guint32 n_sectors;       /* 0: a request without data (a cache flush) */
  gboolean anonymous;      /* the trace does not say which request it is */
} TtvBlockRequest;

typedef struct _TtvBlockRequests TtvBlockRequests;

TtvBlockRequests *ttv_block_requests_new (void);
TtvBlockRequests *ttv_block_requests_copy (const TtvBlockRequests *set);
void              ttv_block_requests_free (TtvBlockRequests *set);

/* At most this many requests are remembered (see the .c file). */
#define TTV_BLOCK_REQUESTS_MAX 4096

/* Each returns how the number of requests of @rq->dev changed (-n .. +1). */
gint              ttv_block_requests_issue (TtvBlockRequests *set, const TtvBlockRequest *rq);
gint              ttv_block_requests_complete (TtvBlockRequests *set, const TtvBlockRequest *rq);

/* " sector+count ..." of @dev's requests, oldest first ("flush" for a flush). */
void              ttv_block_requests_append_text (const TtvBlockRequests *set, guint32 dev, GString *out);

/* The requests, oldest first, for a state snapshot (ttv-state.c); and
 * adding them back, when the snapshot is read. */
const TtvBlockRequest *ttv_block_requests_peek (const TtvBlockRequests *set, guint *n_requests);
void              ttv_block_requests_restore (TtvBlockRequests *set, const TtvBlockRequest *requests,
                                              guint n_requests);
gsize             ttv_block_requests_get_memory_size (const TtvBlockRequests *set);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvBlockRequests, ttv_block_requests_free)

G_END_DECLS
