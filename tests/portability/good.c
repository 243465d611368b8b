/* good.c - fixture for scripts/check-portability.sh: x86 code with a portable branch passes. */
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
static unsigned long long ticks(void) { return __builtin_ia32_rdtsc(); }
#elif defined(__aarch64__)
static unsigned long long ticks(void) { unsigned long long v; __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v)); return v; }
#else
static unsigned long long ticks(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (unsigned long long)t.tv_nsec; }
#endif

static long opened(const char *p) { return syscall(SYS_openat, AT_FDCWD, p, 0); }
