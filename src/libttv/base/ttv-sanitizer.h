/* ttv-sanitizer.h: whether the build runs under a memory sanitizer.
 * Memory the program manages itself (regions of huge pages, files
 * mapped a window at a time) hides reads past a buffer's end from
 * AddressSanitizer, which checks only what malloc gave: such code takes
 * malloc's memory, and reads by copies, when TTV_SANITIZED is 1. */
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define TTV_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define TTV_SANITIZED 1
#endif
#endif
#ifndef TTV_SANITIZED
#define TTV_SANITIZED 0
#endif
