/* ttv-sim-private.h: tables shared by the simulator and its schema (the
 * syscalls it makes, with their x86_64 numbers and behaviour). */
#pragma once

#include "ttv-sim.h"

G_BEGIN_DECLS

typedef enum {
  TTV_SIM_SYSCALL_QUICK,    /* returns at once */
  TTV_SIM_SYSCALL_READ,     /* page cache hit, or a disk read that blocks */
  TTV_SIM_SYSCALL_WRITE,    /* sometimes issues an asynchronous disk write */
  TTV_SIM_SYSCALL_SEND,     /* net dev_xmit */
  TTV_SIM_SYSCALL_RECV,     /* blocks until a packet arrives */
  TTV_SIM_SYSCALL_SLEEP,    /* blocks until a timer fires */
  TTV_SIM_SYSCALL_FORK,
  TTV_SIM_SYSCALL_EXEC,
  TTV_SIM_SYSCALL_EXIT,
} TtvSimSyscallKind;

typedef struct {
  const char *name;
  guint16 number;           /* x86_64 */
  TtvSimSyscallKind kind;
  guint16 weight;           /* relative frequency among ordinary calls (0: chosen by the model) */
} TtvSimSyscall;

extern const TtvSimSyscall ttv_sim_syscalls[];
extern const guint ttv_sim_n_syscalls;

G_END_DECLS
