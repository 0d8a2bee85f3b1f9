/* SPDX-License-Identifier: MIT */
/*
 * rootfs.h - files under a root tree (the live machine's / or a capture
 * given with --root): where the kernel's files are, and reading them
 * whole, safely, with one wording for every error.
 */
#ifndef WMARK_ROOTFS_H
#define WMARK_ROOTFS_H

#include <stdbool.h>
#include <stddef.h>

/* Paths inside a root tree. */
#define P_ZONEINFO "proc/zoneinfo"
#define P_VM "proc/sys/vm/"
#define P_MFK P_VM "min_free_kbytes"
#define P_WSF P_VM "watermark_scale_factor"
#define P_BOOST P_VM "watermark_boost_factor"
#define P_LRR P_VM "lowmem_reserve_ratio"
#define P_EXTRA P_VM "extra_free_kbytes"
#define P_OSRELEASE "proc/sys/kernel/osrelease"
#define P_ARCH "proc/sys/kernel/arch"
#define P_KVERSION "proc/sys/kernel/version"
#define P_THP "sys/kernel/mm/transparent_hugepage/enabled"
#define P_MEMINFO "proc/meminfo"
#define P_VMSTAT "proc/vmstat"
#define P_PSI "proc/pressure/memory"
#define P_PAGETYPEINFO "proc/pagetypeinfo"
#define P_BUDDYINFO "proc/buddyinfo"
#define P_PMD_SIZE "sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
#define P_HUGETLB_DIR "sys/kernel/mm/hugepages"
/* wmark's own file in a capture: the page size and pageblock order (wm_parse_geometry) */
#define P_GEOMETRY "wmark/geometry"

/*
 * Join root and a relative path into out (size n).  Return 0, or -1 if
 * it does not fit.
 */
int root_path(const char *root, const char *rel, char *out, size_t n);

/*
 * Is root the live machine?  It is when it resolves to "/" ("//", "/.",
 * "..", a symlink to /), as the paths the sysctls are written through do:
 * a root that reads the running kernel gets the running kernel's checks.
 */
bool root_is_live(const char *root);

/*
 * The most read_path() takes from one file.  Every input is a small
 * sysctl or procfs text except the per-zone tables, which grow with the
 * nodes: zoneinfo (every zone, with a pageset per CPU: about 16 MB on a
 * 1024-node machine) and pagetypeinfo (every zone's free lists, less).
 * A file past the limit is none of these (/dev/zero behind a symlink, a
 * runaway capture), and reading on would only use up memory.
 */
#define READ_MAX ((size_t)1 << 20)		/* 1 MiB */
#define READ_MAX_ZONES ((size_t)64 << 20)	/* 64 MiB: zoneinfo, pagetypeinfo */

/*
 * Read the whole of path, at most max bytes, with few large reads into a
 * NUL-terminated malloc'd buffer.  Only regular files are read (procfs and
 * sysfs files are regular files of size 0 or 4096), and nothing waits: a
 * FIFO, socket or device is opened without blocking and refused.  Return
 * 0, or -errno with *buf NULL: -EISDIR for a directory, -ENXIO for any
 * other file that is not regular, -EFBIG past max, -ELOOP for a symlink
 * loop, else what open(2) or read(2) said.
 */
int read_path(const char *path, size_t max, char **buf, size_t *len);

/* read_path() of root/rel, with max READ_MAX_ZONES for the per-zone
 * tables (P_ZONEINFO, P_PAGETYPEINFO) and READ_MAX for the rest. */
int read_rooted(const char *root, const char *rel, char **buf, size_t *len);

/*
 * Print read_path()'s error err on path (read with max) as one line,
 * "wmark: [CONTEXT: ]PATH: what", and return the exit code: EXIT_USAGE
 * past max (the file is not an input wmark knows), EXIT_SYSTEM otherwise.
 */
int read_error(const char *context, const char *path, size_t max, int err);

struct stat;

/*
 * Open path for reading without waiting (O_NONBLOCK, no controlling
 * terminal) and fill *st: the fd, or -errno (-EISDIR, -ENXIO for what is
 * not a regular file, -ELOOP, what open(2) said).
 */
int rootfs_open(const char *path, struct stat *st);

/* Read all of the open fd (st from rootfs_open) as read_path() does. */
int rootfs_read_fd(int fd, const struct stat *st, size_t max, char **buf, size_t *len);

/* The most read_rooted() takes from rel: READ_MAX_ZONES or READ_MAX. */
size_t rootfs_max(const char *rel);

#endif /* WMARK_ROOTFS_H */
