/* bad.c - fixture for scripts/check-portability.sh: three things it must reject. */
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __x86_64__
static unsigned long long cycles(void) { unsigned lo, hi; __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)); return ((unsigned long long)hi << 32) | lo; }
#endif

static long opened(const char *p) { return syscall(SYS_open, p, 0); }

static int lowbits(void) { return __builtin_ia32_rdtsc() & 1; }
