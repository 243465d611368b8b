/* env.c - capture what about the machine can change a result: kernel, CPU, memory, tunables. */
#include "env.h"
#include "core/testhooks.h"
#include "workloads/workload.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <sys/vfs.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#else
/* no CPUID: the hypervisor kind comes from DMI or the device tree alone */
#endif
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef SYSAB_BUILD_FLAGS
#define SYSAB_BUILD_FLAGS "unknown"
#endif

char *env_boot_id(void)
{
	const char *seam = testhooks()->boot_id;
	char *s = read_text_file(seam ? seam : "/proc/sys/kernel/random/boot_id");
	return s ? s : xstrdup("unknown");
}

char *env_loadavg(void)
{
	char *s = read_text_file("/proc/loadavg");
	if (!s)
		return xstrdup("unknown");
	/* keep the three averages */
	char *p = s;
	for (int i = 0; i < 3 && p; i++)
		p = strchr(p + 1, ' ');
	if (p)
		*p = 0;
	return s;
}

static void add_file(struct kvlist *env, const char *key, const char *path, const char *missing)
{
	char *s = read_text_file(path);
	kv_add(env, key, s ? s : missing);
	free(s);
}

/* The bracketed choice of a sysfs "a [b] c" file. */
static void add_choice(struct kvlist *env, const char *key, const char *path)
{
	char *s = read_text_file(path);
	const char *v = "none";
	if (s) {
		char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = 0;
			v = a + 1;
		} else {
			v = s;
		}
	}
	kv_add(env, key, v);
	free(s);
}

static void add_cpuinfo(struct kvlist *env)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[4096];
	char *model = NULL;
	bool hyper = false;
	while (f && fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = 0;
		if (!model && (!strncmp(line, "model name", 10) || !strncmp(line, "cpu model", 9) ||
			       !strncmp(line, "uarch", 5) || !strncmp(line, "Model", 5) || !strncmp(line, "cpu\t", 4)))
			model = xstrdup(v);
		if (!strncmp(line, "flags", 5) && strstr(v, " hypervisor"))
			hyper = true;
	}
	if (f)
		fclose(f);
	kv_add(env, "cpu.model", model ? model : "unknown");
	free(model);
	char *hv = read_text_file("/sys/hypervisor/type");
	kv_add(env, "hypervisor", hv ? hv : hyper ? "yes" : "no");
	free(hv);
}

static void add_meminfo(struct kvlist *env)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	kv_addf(env, "mem.total_bytes", "%llu", kb * 1024ull);
}

/* One key per CPU vulnerability, e.g. vuln.spectre_v2 = "Mitigation: ...". */
static void add_vulnerabilities(struct kvlist *env)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	DIR *d = opendir(dir);
	if (!d) {
		kv_add(env, "vuln", "unknown");
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		char *k = xasprintf("vuln.%s", de->d_name);
		add_file(env, k, p, "unknown");
		free(p);
		free(k);
	}
	closedir(d);
}

/* kaslr.kernel: "off (nokaslr)" when the command line says so, else what the kernel's build
 * config says (CONFIG_RANDOMIZE_BASE), else "unknown" with why. */
static void add_kaslr(struct kvlist *env)
{
	char *cmd = read_text_file("/proc/cmdline");
	bool off = false;
	for (const char *p = cmd; p && (p = strstr(p, "nokaslr")); p += 7)
		off |= (p == cmd || p[-1] == ' ') && (p[7] == 0 || p[7] == ' ' || p[7] == '\n');
	free(cmd);
	if (off) {
		kv_add(env, "kaslr.kernel", "off (nokaslr on the command line)");
		return;
	}
	struct utsname u;
	char *cfg = NULL;
	if (uname(&u) == 0) {
		char *path = xasprintf("/boot/config-%s", u.release);
		cfg = read_text_file(path);
		free(path);
	}
	if (!cfg)
		kv_add(env, "kaslr.kernel", "unknown (not nokaslr; kernel config unreadable)");
	else if (strstr(cfg, "\nCONFIG_RANDOMIZE_BASE=y"))
		kv_add(env, "kaslr.kernel", "on (CONFIG_RANDOMIZE_BASE=y, no nokaslr)");
	else
		kv_add(env, "kaslr.kernel", "off (not built: CONFIG_RANDOMIZE_BASE unset)");
	free(cfg);
}

/* cpu→node map, e.g. "0-1:0" style list "cpu:node" pairs "0:0 1:0". */
static void add_numa(struct kvlist *env)
{
	/* a node list ("0", "0-1"), not a count: named so "0" reads as node 0 */
	add_file(env, "numa.node_list", "/sys/devices/system/node/online", "0");
	struct sb map = {0};
	long n = sysconf(_SC_NPROCESSORS_CONF);
	for (long c = 0; c < n && c < 4096; c++) {
		char *p = xasprintf("/sys/devices/system/cpu/cpu%ld", c);
		DIR *d = opendir(p);
		free(p);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9') {
				sb_addf(&map, "%s%ld:%s", map.len ? " " : "", c, de->d_name + 4);
				break;
			}
		closedir(d);
	}
	kv_add(env, "numa.cpu_node", map.len ? sb_str(&map) : "unknown");
	sb_free(&map);
}

/* The architecture this binary was built for, from the compiler's predefined macros. */
static const char *env_build_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64";
#elif defined(__loongarch64)
	return "loongarch64";
#else
	return "unknown";
#endif
}

bool env_emulated(char *why, size_t n)
{
	/* The kernel names the system call a task is in by the host's numbers; a native
	 * process reading /proc/self/syscall is in read(2) by its own numbers. Under
	 * qemu-user the host kernel sees qemu's read, numbered the host's way. */
	char buf[128];
	long nr = -1;
	int fd = open("/proc/self/syscall", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t got = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (got > 0) {
			buf[got] = 0;
			if (sscanf(buf, "%ld", &nr) != 1)
				nr = -1;
		}
	}
	if (nr >= 0 && nr != SYS_read) {
		snprintf(why, n, "the kernel sees read(2) as system call %ld, but this %s build numbers it %d: "
			 "a user-mode emulator (qemu-user) translates its system calls",
			 nr, env_build_arch(), (int)SYS_read);
		return true;
	}
	snprintf(why, n, "%s", nr < 0 ? "unknown: /proc/self/syscall is unreadable" : "no");
	return false;
}

/* The resolution check of the clock that times every batch: its smallest nonzero step over
 * a thousand back-to-back reads (a minimum, so load hardly moves it), stored as a bucket,
 * as a value that changed from run to run would show up as a confounder in comparisons. */
static void env_add_timer(struct kvlist *env)
{
	enum { READS = 1000 };
	struct timespec res;
	uint64_t step = 0;
	uint64_t prev = clock_raw_ns();
	for (int i = 0; i < READS; i++) {
		uint64_t t = clock_raw_ns();
		if (t > prev && (!step || t - prev < step))
			step = t - prev;
		prev = t;
	}
	kv_add(env, "timer.clock", "CLOCK_MONOTONIC_RAW");
	if (clock_getres(CLOCK_MONOTONIC_RAW, &res) == 0)
		kv_addf(env, "timer.res_ns", "%lld", (long long)res.tv_sec * 1000000000ll + res.tv_nsec);
	else
		kv_add(env, "timer.res_ns", "unknown");
	kv_add(env, "timer.vdso", getauxval(AT_SYSINFO_EHDR) ? "yes" : "no");
	/* a batch lasts milliseconds: a step under a microsecond costs it under 0.1% */
	kv_add(env, "timer.check", !step ? "failed: the clock did not advance over 1000 reads"
			: step <= 100 ? "ok: steps of at most 100 ns"
			: step <= 1000 ? "ok: steps of at most 1 us"
			: "coarse: steps over 1 us");
}

/* Cache sizes from sysfs (cache.L1d = "48K", ...), else from glibc's sysconf. */
static void env_add_caches(struct kvlist *env)
{
	glob_t g;
	int found = 0, from_sysfs = 0;
	if (glob("/sys/devices/system/cpu/cpu0/cache/index*", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *p = xasprintf("%s/level", g.gl_pathv[i]);
			char *level = read_text_file(p);
			free(p);
			p = xasprintf("%s/type", g.gl_pathv[i]);
			char *type = read_text_file(p);
			free(p);
			p = xasprintf("%s/size", g.gl_pathv[i]);
			char *size = read_text_file(p);
			free(p);
			if (level && type && size) {
				const char *suffix = !strcmp(type, "Data") ? "d" : !strcmp(type, "Instruction") ? "i" : "";
				char *k = xasprintf("cache.L%s%s", level, suffix);
				kv_add(env, k, size);
				free(k);
				found++;
			}
			free(level);
			free(type);
			free(size);
		}
		globfree(&g);
		from_sysfs = found;
	}
	if (!found) {
		static const struct { const char *key; int name; } sc[] = {
			{"cache.L1d", _SC_LEVEL1_DCACHE_SIZE}, {"cache.L1i", _SC_LEVEL1_ICACHE_SIZE},
			{"cache.L2", _SC_LEVEL2_CACHE_SIZE}, {"cache.L3", _SC_LEVEL3_CACHE_SIZE},
		};
		for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
			long v = sysconf(sc[i].name);
			if (v > 0) {
				kv_addf(env, sc[i].key, "%ldK", v / 1024);
				found++;
			}
		}
	}
	kv_add(env, "cache.source", from_sysfs ? "sysfs" : found ? "sysconf" : "not exposed");
}

/* TLB entries where /proc/cpuinfo shows them ("TLB size" on AMD x86, "TLB Entries" on LoongArch). */
static void env_add_tlb(struct kvlist *env)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];
	char *v = NULL;
	while (f && !v && fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (colon && (!strncasecmp(line, "TLB size", 8) || !strncasecmp(line, "TLB Entries", 11))) {
			char *s = colon + 1;
			while (*s == ' ' || *s == '\t')
				s++;
			s[strcspn(s, "\n")] = 0;
			v = xstrdup(s);
		}
	}
	if (f)
		fclose(f);
	kv_add(env, "tlb.entries", v ? v : "not exposed");
	free(v);
}

/* What portability asks to record: the build's and the kernel's architecture, whether a
 * user-mode emulator runs us, page size, caches, TLB, and the timer's resolution. */
static void env_add_arch(struct kvlist *env)
{
	char why[256];
	kv_add(env, "arch.build", env_build_arch());
	bool emu = env_emulated(why, sizeof why);
	if (emu) {
		char *v = xasprintf("yes: %s", why);
		kv_add(env, "emulated", v);
		free(v);
	} else {
		kv_add(env, "emulated", why);
	}
	env_add_caches(env);
	env_add_tlb(env);
	env_add_timer(env);
}

/* "16kB=never 64kB=inherit ...": the mTHP sizes and their settings, "none" without mTHP. */
static void add_mthp(struct kvlist *env)
{
	glob_t g;
	struct sb b = {0};
	if (glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *sz = strstr(g.gl_pathv[i], "hugepages-") + 10;
			char *s = read_text_file(g.gl_pathv[i]);
			char *a = s ? strchr(s, '[') : NULL, *e = a ? strchr(a, ']') : NULL;
			if (e)
				*e = 0;
			sb_addf(&b, "%s%.*s=%s", b.len ? " " : "", (int)(strchr(sz, '/') - sz), sz, a ? a + 1 : "unknown");
			free(s);
		}
		globfree(&g);
	}
	kv_add(env, "thp.mthp", b.len ? b.s : "none");
	sb_free(&b);
}

const char *env_hypervisor_kind(const char *cpuid_vendor, const char *dmi, const char *dt, bool cpu_flag_hypervisor,
				char **owned)
{
	static const struct {
		const char *needle, *kind;
	} known[] = {
		{"KVMKVMKVM", "kvm"}, {"Microsoft Hv", "hyperv"}, {"VMwareVMware", "vmware"}, {"XenVMMXenVMM", "xen"},
		{"TCGTCGTCGTCG", "qemu-tcg"}, {"VBoxVBoxVBox", "virtualbox"}, {"ACRNACRNACRN", "acrn"},
		{"bhyve bhyve", "bhyve"}, {"Linux KVM Hv", "kvm"}, {"xen", "xen"}, {"KVM", "kvm"},
		{"Microsoft Corporation", "hyperv"}, {"VMware", "vmware"}, {"VirtualBox", "virtualbox"},
		{"QEMU", "qemu"}, {"Amazon EC2", "kvm"}, {"Google Compute Engine", "kvm"},
	};
	const char *src[] = {cpuid_vendor, dt, dmi};
	*owned = NULL;
	for (size_t s = 0; s < 3; s++) {
		if (!src[s] || !*src[s])
			continue;
		for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
			if (strstr(src[s], known[i].needle))
				return known[i].kind;
	}
	if (cpuid_vendor && *cpuid_vendor)
		return *owned = xasprintf("other:%s", cpuid_vendor);
	return cpu_flag_hypervisor ? "unknown" : "none";
}

/* The hypervisor this runs under: guests trap differently (#UD may exit to the host). */
static void add_hypervisor(struct kvlist *env)
{
	char vendor[13] = "";
	bool flag = false;
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 31))) {
		flag = true;
		__cpuid(0x40000000, a, b, c, d);
		memcpy(vendor, &b, 4), memcpy(vendor + 4, &c, 4), memcpy(vendor + 8, &d, 4);
		vendor[12] = 0;
		for (int i = 0; i < 12; i++)
			if (vendor[i] && (vendor[i] < 32 || vendor[i] > 126))
				vendor[i] = '?';
	}
#else
	/* no CPUID hypervisor leaf: DMI and the device tree below name the hypervisor */
#endif
	char *dmi = read_text_file("/sys/class/dmi/id/sys_vendor");
	char *prod = read_text_file("/sys/class/dmi/id/product_name");
	char *both = xasprintf("%s %s", dmi ? dmi : "", prod ? prod : "");
	char *dt = read_text_file("/proc/device-tree/hypervisor/compatible");
	char *xen = read_text_file("/sys/hypervisor/type");
	char *owned;
	const char *k = env_hypervisor_kind(vendor, both, xen ? xen : dt, flag, &owned);
	kv_add(env, "hypervisor", k);
	free(owned), free(dmi), free(prod), free(both), free(dt), free(xen);
}

const char *env_fs_name(unsigned long type)
{
	static const struct {
		unsigned long type;
		const char *name;
	} fs[] = {
		{0xEF53, "ext4"},      {0x01021994, "tmpfs"}, {0x58465342, "xfs"},      {0x9123683E, "btrfs"},
		{0x794c7630, "overlay"}, {0x6969, "nfs"},      {0x2fc12fc1, "zfs"},      {0xF2F52010, "f2fs"},
		{0x65735546, "fuse"},  {0x858458f6, "ramfs"}, {0x73717368, "squashfs"}, {0x5346544e, "ntfs"},
		{0x4d44, "vfat"},      {0x6a656a63, "virtiofs"}, {0x01021997, "9p"},
	};
	for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
		if (fs[i].type == type)
			return fs[i].name;
	return NULL;
}

void env_add_tmpfs(struct kvlist *env, const char *dir)
{
	struct statfs st;
	if (statfs(dir, &st) < 0) {
		kv_add(env, "tmp.fs", "unknown");
		return;
	}
	const char *n = env_fs_name((unsigned long)st.f_type);
	if (n)
		kv_add(env, "tmp.fs", n);
	else
		kv_addf(env, "tmp.fs", "0x%lx", (unsigned long)st.f_type);
}

void env_capture(struct kvlist *env)
{
	struct utsname u;
	uname(&u);
	char *boot = env_boot_id();
	kv_add(env, "boot.id", boot);
	free(boot);
	kv_add(env, "kernel.release", u.release);
	kv_add(env, "kernel.version", u.version);
	kv_add(env, "kernel.arch", u.machine);
	add_file(env, "kernel.cmdline", "/proc/cmdline", "unknown");
	char host[256] = "unknown";
	gethostname(host, sizeof host - 1);
	kv_add(env, "hostname", host);
	add_cpuinfo(env);
	kv_addf(env, "cpu.online", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	kv_addf(env, "cpu.configured", "%ld", sysconf(_SC_NPROCESSORS_CONF));
	add_file(env, "cpu.online_list", "/sys/devices/system/cpu/online", "unknown");
	add_numa(env);
	add_meminfo(env);
	kv_addf(env, "mem.page_size", "%ld", sysconf(_SC_PAGESIZE));
	/* the buffer kernel.tlb.walk chooses from the caches and TLB it can see */
	kv_addf(env, "tlb.walk_bytes", "%zu", wl_tlb_walk_bytes(sysconf(_SC_PAGESIZE)));
	add_file(env, "cpufreq.governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "none");
	add_file(env, "cpufreq.driver", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "none");
	add_choice(env, "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled");
	add_mthp(env);
	add_file(env, "clocksource", "/sys/devices/system/clocksource/clocksource0/current_clocksource", "unknown");
	char *gov = read_text_file("/sys/devices/system/cpu/cpuidle/current_governor");
	if (!gov)
		gov = read_text_file("/sys/devices/system/cpu/cpuidle/current_governor_ro");
	kv_add(env, "cpuidle.governor", gov ? gov : "none");
	free(gov);
	add_file(env, "cpuidle.driver", "/sys/devices/system/cpu/cpuidle/current_driver", "none");
	add_hypervisor(env);
	add_choice(env, "thp.defrag", "/sys/kernel/mm/transparent_hugepage/defrag");
	/* two different things, named apart: user-space ASLR (randomize_va_space: 0, 1, 2) and
	 * whether the kernel image itself is placed at random (KASLR) */
	add_file(env, "aslr.user", "/proc/sys/kernel/randomize_va_space", "unknown");
	add_kaslr(env);
	add_file(env, "smt.active", "/sys/devices/system/cpu/smt/active", "unknown");
	add_file(env, "smt.control", "/sys/devices/system/cpu/smt/control", "unknown");
	add_vulnerabilities(env);
	env_add_arch(env);
	char *load = env_loadavg();
	kv_add(env, "load.before", load);
	free(load);
	kv_add(env, "glibc", gnu_get_libc_version());
	kv_add(env, "sysab.version", SYSAB_VERSION);
	kv_add(env, "sysab.build", SYSAB_BUILD_FLAGS);
	kv_add(env, "user.root", geteuid() == 0 ? "yes" : "no");
	kv_sort(env);
}

void env_host(const struct kvlist *env, struct store_host *h)
{
	const char *v;
	h->hostname = (v = kv_get(env, "hostname")) ? v : "unknown";
	h->cpu_model = (v = kv_get(env, "cpu.model")) ? v : "unknown";
	h->ncpus = (v = kv_get(env, "cpu.online")) ? atoi(v) : 1;
	h->mem_bytes = (v = kv_get(env, "mem.total_bytes")) ? strtoull(v, NULL, 10) : 0;
	h->boot_id = (v = kv_get(env, "boot.id")) ? v : "unknown";
	h->kernel_release = (v = kv_get(env, "kernel.release")) ? v : "unknown";
	h->kernel_version = (v = kv_get(env, "kernel.version")) ? v : "unknown";
}
