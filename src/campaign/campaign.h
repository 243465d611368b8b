/* campaign.h - boot campaigns: configurations booted in randomized complete blocks through a backend. */
#ifndef SYSAB_CAMPAIGN_H
#define SYSAB_CAMPAIGN_H

#include <stdio.h>
#include "store/store.h"

/* An interrupted slot is retried this many times, then skipped. */
#define CAMPAIGN_RETRIES 1

/* A campaign's state (docs/CAMPAIGNS.md, "States"); the words are what the database holds. */
enum campaign_state { CAMPAIGN_NEW, CAMPAIGN_RUNNING, CAMPAIGN_STOPPED, CAMPAIGN_FAILED, CAMPAIGN_DONE, CAMPAIGN_NSTATES };
/* A boot slot's state. */
enum slot_state {
	SLOT_PENDING, SLOT_BOOTING, SLOT_RUNNING, SLOT_DONE, SLOT_FAILED, SLOT_INTERRUPTED, SLOT_SKIPPED, SLOT_NSTATES
};
/* The word of a state, and the state of a word (-1 for a word that is none). */
const char *campaign_state_word(enum campaign_state s);
int campaign_state_of(const char *word);
const char *slot_state_word(enum slot_state s);
int slot_state_of(const char *word);

/* The table of backends, one line each, in the order help lists them: the first, the next ones,
 * the last (so the lists below read as text). Adding a backend: its own file defining
 * campaign_backend_NAME (backend.h) and one NEXT(NAME) line here. */
#define CAMPAIGN_BACKENDS(FIRST, NEXT, LAST) \
	FIRST(qemu)                          \
	NEXT(kexec)                          \
	NEXT(grub)                           \
	LAST(command)

/* The names as string literals, for option tables and help: "qemu, kexec, grub or command",
 * "qemu kexec grub command" (the choices of --backend), "qemu|kexec|grub|command". */
#define CAMPAIGN_BE_W_(n) #n
#define CAMPAIGN_BE_C_(n) ", " #n
#define CAMPAIGN_BE_O_(n) " or " #n
#define CAMPAIGN_BE_S_(n) " " #n
#define CAMPAIGN_BE_P_(n) "|" #n
#define CAMPAIGN_BACKEND_NAMES CAMPAIGN_BACKENDS(CAMPAIGN_BE_W_, CAMPAIGN_BE_C_, CAMPAIGN_BE_O_)
#define CAMPAIGN_BACKEND_CHOICES CAMPAIGN_BACKENDS(CAMPAIGN_BE_W_, CAMPAIGN_BE_S_, CAMPAIGN_BE_S_)
#define CAMPAIGN_BACKEND_USAGE CAMPAIGN_BACKENDS(CAMPAIGN_BE_W_, CAMPAIGN_BE_P_, CAMPAIGN_BE_P_)

struct campaign_backend;

/* The backend called name (table lookup), or NULL. */
const struct campaign_backend *campaign_backend_find(const char *name);
/* Would a campaign of backend (a name) with accelerator accel (NULL: the default) measure
 * an emulated CPU (the backend's emulates hook; qemu under TCG)? Unknown backends: false. */
bool campaign_backend_emulates(const char *backend, const char *accel);
/* CAMPAIGN_BACKEND_NAMES (static text). */
const char *campaign_backend_names(void);

/* The options of a campaign (stored as its JSON options): the generic ones here, the backend's
 * own (qemu's guest, say) in be, a struct private to the backend's file (backend.h: opts_size,
 * opts_read, opts_write, parse_opt), read through its accessors. */
struct campaign_opts {
	int max_failures;           /* consecutive failed slots that stop the campaign */
	double settle_load;         /* reboot backends: wait for the 1-minute load below this */
	int settle_timeout_s;       /* ... or at most this long */
	char *unit_dir;             /* where the systemd unit goes */
	const struct campaign_backend *bk; /* whose options be holds (NULL: none yet) */
	void *be;                   /* bk->opts_size bytes, or NULL when bk has none */
};

/* What `sysab campaign new` is given. */
struct campaign_spec {
	const char *name, *backend;
	int boots, runs;
	uint64_t seed;
	bool seed_given;
	struct strv run_args;
	struct store_campaign_config *configs; /* labels as JSON object text */
	size_t nconfigs;
	struct campaign_opts opts;  /* the generic options (be: NULL) */
	struct strv be_args;        /* the backend's options as given: pairs of option name and value
				     * ("" for a flag), parsed by the backend's parse_opt at create */
	const char *self;           /* this sysab binary (a backend's defaults may lie beside it), or NULL */
	struct store_adaptive *adaptive; /* an adaptive campaign's settings (study/adaptive.h), stored with
					  * it; NULL: none. Borrowed */
};

/* A campaign read from the database and validated (campaign_load): the stored record, its
 * backend, typed states, the run arguments and every configuration's labels parsed. */
struct campaign {
	struct store_campaign r;            /* as stored; r.slots[i].state kept in step with slot[i] */
	const struct campaign_backend *be;
	enum campaign_state state;
	enum slot_state *slot;              /* r.nslots */
	struct strv run_args;
	struct kvlist *labels;              /* r.nconfigs */
	struct campaign_opts opts;
	int per_run;                        /* the runs one `sysab run` of a slot stores (campaign_per_run) */
	size_t run_nodes;                   /* the NUMA nodes its stored runs were bound to (run --nodes;
					     * store_campaign_nodes), 0 when none is per node */
};

/* Fill order[0 .. boots*nconfigs-1] with the configuration of each slot: `boots` blocks,
 * each holding every configuration once in an order shuffled by a generator seeded
 * with seed (splitmix64 + Fisher-Yates), so the schedule is a pure function of its inputs. */
void campaign_schedule(uint64_t seed, int nconfigs, int boots, int *order);

/* 0 when name can name a campaign (1-64 letters, digits, '_', '.', '-'), else -1 with e set. */
int campaign_name_check(const char *name, struct err *e);

/* Check a spec and store it as campaign `name` (state new) with its schedule. Returns 0,
 * or -1 with e naming the wrong input and nothing stored. */
int campaign_create(struct store *st, struct campaign_spec *spec, struct err *e);

/* Load campaign `name` into *c and check every field a driver or a report uses (names,
 * backend, states, configuration indexes, run arguments, labels, paths, options). Returns 0,
 * or -1 with e naming the damaged field (and *c empty). Free with campaign_free. */
int campaign_load(struct store *st, const char *name, struct campaign *c, struct err *e);
void campaign_free(struct campaign *c);
/* The checks of campaign_load on a record already read (r is only read): 0, or -1 with e
 * naming the damaged field. import db passes every campaign it stores through it. */
int campaign_record_check(const struct store_campaign *r, struct err *e);

/* Is name a guest architecture the qemu backend boots (x86_64, loongarch64), or auto? (arch.c) */
bool campaign_qemu_arch_ok(const char *name);
/* "auto, x86_64 or loongarch64" */
const char *campaign_qemu_arch_names(void);
/* The accessors of qemu's options o (o->bk the qemu backend; qemu.c): -smp, -m in MB, the guest's
 * NUMA nodes (1: no -numa), --duet, the boot timeout in seconds, the accelerator asked for
 * ("auto", "kvm" or "tcg") and the architecture ("auto" or one of campaign_qemu_arch_names). */
int campaign_qemu_smp(const struct campaign_opts *o);
int campaign_qemu_mem_mb(const struct campaign_opts *o);
int campaign_qemu_numa(const struct campaign_opts *o);
bool campaign_qemu_duet(const struct campaign_opts *o);
int campaign_qemu_boot_timeout_s(const struct campaign_opts *o);
const char *campaign_qemu_accel(const struct campaign_opts *o);
const char *campaign_qemu_arch(const struct campaign_opts *o);
/* Can a qemu guest of architecture arch (auto: any the table verifies, told at start) have
 * its NUMA nodes, its CPUs and its MB (qemu options o) split evenly among them? 0, or -1 with e
 * naming the options (--numa, --smp, --mem, --arch) and what to give instead. */
int campaign_qemu_numa_check(const struct campaign_opts *o, const char *arch, struct err *e);

/* Can qemu options o with nconfigs configurations on backend run as a duet (--duet)? A
 * backend with the duet capability (qemu), two configurations, and at least 2 x its CPUs
 * this process may use. 0, or -1 with e naming the option and what to give instead. Not a
 * duet: 0. (qemu.c, with the other checks of its options.) */
int campaign_duet_check(const struct campaign_opts *o, const char *backend, size_t nconfigs, struct err *e);
/* The host CPUs (as sched_getaffinity gives them to this process, in order) of duet CPU set k
 * (0 or 1): the k-th run of smp of them, written as a taskset list "0" or "2-3" into buf.
 * false when the host has fewer than 2 x smp. (qemu.c) */
bool campaign_duet_cpus(int smp, int k, char *buf, size_t n);
/* The duet CPU set (0 or 1) slot i's guest is pinned to: configuration + block, mod 2, so the
 * two guests of a block hold different sets and swap them every block. */
int campaign_duet_set(const struct campaign *c, int i);

/* Parse a campaign's options JSON into o, the backend's own by be (free with
 * campaign_opts_free); missing keys get defaults, keys of other backends are passed over. */
void campaign_opts_parse(const struct campaign_backend *be, const char *json, struct campaign_opts *o);
/* The JSON of o: the generic keys and those of its backend (new string). */
char *campaign_opts_json(const struct campaign_opts *o);
void campaign_opts_free(struct campaign_opts *o);

/* The `sysab bisect new NAME --series series_file --good 1 --bad nseries` that bisects a
 * series booted as src boots (its backend and options) with the run arguments of the
 * campaign new arguments line_argv (those after its "--"): appended to argv (after "sysab"),
 * and the shell line that creates and starts it into *line (a new string). */
void campaign_bisect_command(const char *name, const char *db, const struct campaign *src, const char *series_file,
			     size_t nseries, const struct strv *line_argv, struct strv *argv, char **line);
/* Configuration k of c as a line of `sysab bisect new --series FILE`: its labels, then how it
 * boots (--kernel, --initrd, --append, --entry, --command), each word quoted as that file's
 * reader splits words. A new string. */
char *campaign_series_line(const struct campaign *c, size_t k);
/* The `campaign new NAME [--db DB] ...` that boots configuration cfg[i] of campaign src[i]
 * for i in 0..n as those campaigns do (the backend and its options of src[0], each
 * configuration's labels and boot options), with boots and runs, and run_args after "--":
 * its arguments after "sysab" appended to argv, and the shell line that creates and starts
 * it (each argument quoted for sh when it needs it) into *line (a new string). */
void campaign_new_command(const char *name, const char *db, const struct campaign *const *src, const size_t *cfg,
			  size_t n, int boots, int runs, const struct strv *run_args, struct strv *argv, char **line);
/* The newest of the campaigns names (oldest first; only that one when only is not NULL)
 * with a configuration whose labels hold every terms: loaded into *c (free with
 * campaign_free), *cfg the first such configuration, *nmatch how many of its
 * configurations match. A damaged record is passed over (`campaign show` names it). */
bool campaign_find_config(struct store *st, const struct strv *names, const char *only, const struct kvlist *terms,
			  struct campaign *c, size_t *cfg, size_t *nmatch);
/* Whether a campaign's run arguments run UnixBench (`sysab run --unixbench SHELL`), whose
 * command fixes the tests, copies and passes. */
bool campaign_runs_unixbench(const struct strv *run_args);
/* The run arguments src of a campaign with its workloads (when workloads is not NULL),
 * copies (when copies > 0) and sample count replaced; appended to out. Arguments that run
 * UnixBench are appended as they are: its command fixes all three. */
void campaign_run_args_with(const struct strv *src, const struct strv *workloads, int copies, size_t samples,
			    struct strv *out);
/* The closing hint of campaign c, its analysis: "`sysab analyze campaign:NAME` analyzes it",
 * and when its runs are per node (run_nodes >= 2) that node is kept as a factor, as analyze's
 * default factors keep it (a new string). */
char *campaign_analyze_hint(const struct campaign *c);
/* Whether c's run arguments hold --nodes (each `sysab run` is one run per node). */
bool campaign_runs_nodes(const struct strv *run_args);


/* What `campaign show` renders (report/campaign.h): a finished record, every number computed. */
struct campaign_view {
	const struct campaign *c;
	size_t done, failed, skipped, left;
	int next;                  /* the next slot to boot, -1 when none */
	double s_per_boot;         /* mean seconds per done slot, 0 when none yet */
	double min_left;           /* minutes left at that pace, 0 when unknown */
	bool slots;                /* show the schedule */
	bool guest;                /* the backend boots guests of its own (qemu): the guest's options are shown */
	int guest_cpus, guest_mb, guest_nodes; /* with guest: its CPUs, MB and NUMA nodes (1: none) */
	char guest_accel[8], guest_arch[16];   /* ... the accelerator asked for and its architecture */
	bool duet;                 /* the campaign is a duet (the backend's duet hook) */
	int node_cpus, node_mb;    /* qemu with --numa: each guest node's CPUs and MB (0 otherwise) */
	char duet_cpus[2][64];     /* qemu with --duet: the host CPUs of set 0 and 1 here ("?" when too few) */
	int *duet_set;             /* with --duet: each slot's CPU set (campaign_duet_set); NULL otherwise.
				    * Owned by the view: campaign_view_free */
	size_t *config_order;      /* the configurations' indexes sorted by name (the table of
				    * configurations; the schedule keeps its own order). Owned by the view */
	const struct store_adaptive *adaptive;   /* an adaptive campaign's settings (the caller's,
						  * study_adaptive_state), or NULL: not adaptive */
	const struct store_adaptive_look *looks; /* ... and its looks so far (borrowed) */
	size_t nlooks;
};
void campaign_view(const struct campaign *c, bool slots, struct campaign_view *v);
void campaign_view_free(struct campaign_view *v);

/* What the driver does after a block, as after_block says: boot the next block, return
 * before booting it (the campaign stays running; resume goes on), or end the campaign after
 * the blocks complete (the later blocks' slots are removed; it is done). */
enum campaign_next { CAMPAIGN_GO_ON, CAMPAIGN_PAUSE, CAMPAIGN_END };

/* How the command runs: the database path (for children and units), the sysab binary,
 * whether to only print what would be done, where progress lines go, and what decides after
 * each block (NULL: every block is booted). */
struct campaign_env {
	struct store *st;
	const char *db_path;
	const char *self;   /* absolute path of this sysab */
	bool dry_run;
	FILE *out;
	/* Called before the first boot of every block after the first, and once when the last
	 * block is complete, with the blocks complete (every slot of blocks 0..blocks-1 ended);
	 * again for the same blocks when a driver comes back to the same point (after a crash).
	 * Sets *next; returns 0, or -1 with e set (the driver stops with that error). The driver
	 * itself computes nothing about the runs (an adaptive campaign's rule: study/adaptive.h). */
	int (*after_block)(const struct campaign_env *env, const struct campaign *c, int blocks,
			   enum campaign_next *next, struct err *e);
	void *arg;          /* for after_block */
};

/* The file whose existence stops campaign name: "DB.NAME.stop" beside the database (new string). */
char *campaign_stop_path(const char *db_path, const char *name);

/* `start`: take the campaign's lease, check that the backend can run here (root, tools),
 * prepare it and boot the first slot (qemu: drive every slot from here). A stopped campaign
 * starts again. With dry_run, print every command and file instead. Returns 0, or -1 with e
 * set (another driver holding the lease is named there). */
int campaign_start(const struct campaign_env *env, const char *name, struct err *e);
/* `resume`: continue a running campaign under its lease: qemu drives the remaining slots; the
 * reboot backends check the booted kernel against the armed slot, run, arm the next slot and
 * reboot (this is what the unit runs at boot). env->dry_run must be false. */
int campaign_resume(const struct campaign_env *env, const char *name, struct err *e);
/* `stop`: mark it stopped and remove its unit; a driver stops before its next boot. */
int campaign_stop(const struct campaign_env *env, const char *name, struct err *e);

#endif
