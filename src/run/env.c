/* env.c - capture what about the machine can change a result: kernel, CPU, memory, tunables. */
#include "env.h"
#include "workloads/workload.h"

#include <dirent.h>
#include <glob.h>
#include <sys/vfs.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef SYSAB_BUILD_FLAGS
#define SYSAB_BUILD_FLAGS "unknown"
#endif

char *env_boot_id(void)
{
	char *s = read_text_file("/proc/sys/kernel/random/boot_id");
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
