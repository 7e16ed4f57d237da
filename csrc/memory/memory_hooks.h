/*
 * memory_hooks.h: cuarray.cuda.MemoryHook's entry points in the allocation path
 * (issue 40). A thread with no hook installed pays one thread-local load per
 * allocation and per free.
 */
#ifndef CA_MEMORY_HOOKS_H
#define CA_MEMORY_HOOKS_H

#include "cuarray.h"

/* This thread's dispatcher (cuarray.cuda.memory_hook's), NULL: no hooks. */
extern _Thread_local PyObject *ca_memory_hook;

/* Calls dispatcher(event, device_id, size, mem_size, mem_ptr, pmem_id); -1 with the
 * hook's exception set. */
int ca_memory_hook_call(const char *event, int device, size_t size, size_t mem_size,
                        const void *mem_ptr, const void *pmem);

/* An event from a deallocator (the free events): a hook's exception is reported
 * as unraisable, not raised. */
void ca_memory_hook_report(const char *event, int device, size_t mem_size,
                           const void *mem_ptr, const void *pmem);

extern PyMethodDef ca_memory_hook_functions[];

#endif
