// SPDX-License-Identifier: MIT
/*
 * cmd_capture.c - `wmark capture DIR`: write the machine's root tree
 * (wmark.1, CAPTURE FORMAT) for a bug report or a test fixture.
 *
 * The tree is built in a sibling directory and renamed into place, so an
 * error leaves no half-written capture behind.
 */
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "beneath.h"
#include "commands.h"
#include "snapshot.h"

/* Files a capture holds besides zoneinfo; all optional. */
static const char *const capture_files[] = {
	P_MFK, P_WSF, P_BOOST, P_LRR, P_EXTRA,
	P_VM "percpu_pagelist_high_fraction",
	P_OSRELEASE, P_KVERSION, P_ARCH,
	P_THP,
	"proc/sys/kernel/task_delayacct",
	P_MEMINFO, P_VMSTAT, P_PSI,
	"proc/pagetypeinfo",
};

static void capture_usage(void)
{
	fputs("Usage: wmark [--root DIR] capture DEST\n"
	      "\n"
	      "Write this machine's zoneinfo, vm sysctls, kernel release, THP mode,\n"
	      "meminfo, vmstat and memory pressure into DEST, laid out like /, with its\n"
	      "page size and pageblock order in DEST/wmark/geometry, so that\n"
	      "`wmark --root DEST show` (or verify) reads it later or elsewhere.\n"
	      "DEST must not exist or be empty.\n"
	      "\n"
	      "  -h, --help   this help\n", stdout);
}

static int mkdirs(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_file(const char *dir, const char *rel, const char *buf, size_t len)
{
	char path[PATH_MAX], parent[PATH_MAX];
	char *slash;
	int fd, err = 0;
	size_t off = 0;

	if (root_path(dir, rel, path, sizeof(path)))
		return -ENAMETOOLONG;
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (slash) {
		*slash = 0;
		if ((err = mkdirs(parent)))
			return err;
	}
	/* inside the tree being built, no link on the way (bn_open) */
	if ((err = bn_open(dir, rel, O_WRONLY | O_CREAT | O_EXCL, 0644, &fd)))
		return err;
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* Remove a tree we made (no symlinks are followed: we only made files and dirs). */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		unlink(path);
		return;
	}
	while ((e = readdir(d))) {
		char sub[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			remove_tree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	rmdir(path);
}

/*
 * 1 if path is a directory with nothing in it, 0 if it does not exist,
 * else print why it cannot be used and return -(the exit code).
 */
static int dest_state(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int n = 0;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return -cli_err(errno == ENAMETOOLONG ? EXIT_USAGE : EXIT_SYSTEM, "capture",
				"%s: %s", path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return -cli_err(EXIT_USAGE, "capture", "%s: is a symbolic link; not writing through it",
				path);
	if (!S_ISDIR(st.st_mode))
		return -cli_err(EXIT_USAGE, "capture", "%s: exists and is not a directory; "
				"not overwriting it", path);
	d = opendir(path);
	if (!d)
		return -cli_err(EXIT_SYSTEM, "capture", "%s: %s", path, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	if (n)
		return -cli_err(EXIT_USAGE, "capture", "%s: exists and is not an empty directory; "
				"not overwriting it", path);
	return 1;
}

/*
 * Copy rel from root into the capture being built in tmp, counting it in
 * *nfiles; a file that is absent or not readable here is left out.
 * Return 0 or -errno.
 */
static int copy_file(const char *root, const char *tmp, const char *rel, int *nfiles)
{
	char *buf;
	size_t len;
	int r = read_rooted(root, rel, &buf, &len);

	if (r == -ENOENT || r == -EACCES || r == -EPERM || r == -EINVAL)
		return 0;	/* optional, or not readable here */
	if (r)
		return r;
	r = write_file(tmp, rel, buf, len);
	free(buf);
	(*nfiles)++;
	return r;
}

const struct option cmd_capture_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_capture(struct cli_ctx *ctx, int argc, char **argv)
{
	struct snapshot s;
	char tmp[PATH_MAX], dest[PATH_MAX];
	const char *dir;
	size_t i, dl;
	int rc, st, err, nfiles = 1;

	/* -h is its only option */
	if (ctx->args.nopt) {
		capture_usage();
		return EXIT_OK;
	}
	if (ctx->args.noperand != 1)
		return cli_usage("capture", "give one destination directory");
	dir = ctx->args.operand[0];
	/* "DIR/" names DIR: the partial tree is its sibling, not its child */
	dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	if (dl >= sizeof(dest))
		return cli_err(EXIT_USAGE, "capture", "%s: path too long", dir);
	memcpy(dest, dir, dl);
	dest[dl] = 0;
	st = dest_state(dest);
	if (st < 0)
		return -st;

	/* One consistent read of zoneinfo and the sysctls first. */
	if ((rc = snapshot_read(ctx, &s)))
		return rc;
	if (snprintf(tmp, sizeof(tmp), "%s.partial-%" PRId64 "", dest, (int64_t)getpid()) >= (int)sizeof(tmp)) {
		snapshot_free(&s);
		return cli_err(EXIT_USAGE, "capture", "%s: path too long", dest);
	}
	err = mkdir(tmp, 0755) ? -errno : 0;	/* the parent must exist */
	if (!err)
		err = write_file(tmp, P_ZONEINFO, s.zoneinfo, s.zoneinfo_len);
	for (i = 0; !err && i < sizeof(capture_files) / sizeof(capture_files[0]); i++)
		err = copy_file(s.root, tmp, capture_files[i], &nfiles);
	/*
	 * The page size and pageblock order, as this machine has them
	 * (getpagesize() live): MemTotal over the managed pages cannot tell
	 * the page size where memory is ballooned or hot-plugged.  An
	 * assumed page size, or a pageblock only derived from it, is not
	 * recorded: nothing said it.
	 */
	if (!err && s.st.geo.page_size_from != WM_GEO_ASSUMED) {
		char g[96];
		int gl = snprintf(g, sizeof(g), "page_size %u\n", s.st.geo.page_size);

		if (s.st.geo.pageblock_from != WM_GEO_DERIVED)
			gl += snprintf(g + gl, sizeof(g) - (size_t)gl, "pageblock_order %u\n",
				       s.st.geo.pageblock_order);
		err = write_file(tmp, P_GEOMETRY, g, (size_t)gl);
		nfiles++;
	}
	/* every per-size THP control: min_free_kbytes follows them on 6.11+ */
	if (!err) {
		struct thp_size sz[32];
		int k, nsz = snapshot_thp_sizes(s.root, sz, 32);

		for (k = 0; !err && k < nsz; k++)
			err = copy_file(s.root, tmp, sz[k].rel, &nfiles);
	}
	if (!err && st == 1 && rmdir(dest))
		err = -errno;
	if (!err && rename(tmp, dest))
		err = -errno;
	snapshot_free(&s);
	if (err) {
		remove_tree(tmp);
		return cli_err(EXIT_SYSTEM, "capture", "%s: %s (nothing written)", dest, strerror(-err));
	}
	fprintf(stderr, "wmark: captured %d files into %s\n", nfiles, dest);
	return EXIT_OK;
}
