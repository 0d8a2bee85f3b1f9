// SPDX-License-Identifier: MIT
/*
 * journal.c - apply's state journal (JSON via cJSON) and the atomic file
 * replacement that apply's journal, --persist and --initrc share.
 *
 * The journal is small and rewritten whole: a temporary file next to it,
 * fsync, rename over the old one, fsync of the directory.  rename() is
 * atomic within a filesystem, and the directory fsync makes the new name
 * durable, so after a crash the path holds the old journal or the new
 * one, never a torn mix.  A process killed between the create and the
 * rename leaves its temporary file behind; the next replacement of the
 * same path removes it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "journal.h"

#define JR_FORMAT "wmark-journal-1"

static const char *const state_names[] = {
	[JR_PENDING] = "pending",
	[JR_APPLIED] = "applied",
	[JR_RESTORED] = "restored",
	[JR_ROLLED_BACK] = "rolled-back",
};

const char *jr_state_name(enum jr_state s)
{
	return (unsigned)s <= JR_ROLLED_BACK ? state_names[s] : "?";
}

int jr_default_path(const char *root, char *out, size_t n)
{
	size_t rl = strlen(root);
	int r;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	r = snprintf(out, n, "%.*s/%s", (int)(rl == 1 && root[0] == '/' ? 0 : rl),
		     root, JR_DEFAULT_PATH);
	return r < 0 || (size_t)r >= n ? -ENAMETOOLONG : 0;
}

/* Split path into its directory (into dir, size n); "." if it has none. */
static int dir_of(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');
	size_t l;

	if (!slash) {
		snprintf(dir, n, ".");
		return 0;
	}
	l = slash == path ? 1 : (size_t)(slash - path);
	if (l >= n)
		return -ENAMETOOLONG;
	memcpy(dir, path, l);
	dir[l] = '\0';
	return 0;
}

static int fail(const char **failed, const char *call, int e)
{
	if (failed)
		*failed = call;
	return -e;
}

/*
 * Remove "<base>.tmpXXXXXX" files in dir (dfd): mkostemp's names for
 * path that a killed process left.  Callers hold the journal lock, so no
 * other wmark is between its create and its rename.
 */
static void remove_stale(int dfd, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t bl = strlen(base);
	struct dirent *e;
	DIR *d;
	int fd = dup(dfd);

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (strncmp(e->d_name, base, bl) != 0 ||
		    strncmp(e->d_name + bl, ".tmp", 4) != 0 || strlen(e->d_name + bl + 4) != 6)
			continue;
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			unlinkat(dfd, e->d_name, 0);
	}
	closedir(d);
}

/*
 * After path was renamed into place in dir, or unlinked: remove its stale
 * temporaries and fsync the directory, so the change survives a crash.
 * Some filesystems cannot fsync a directory; the rename still holds.
 */
static int settle_dir(const char *dir, const char *path, const char **failed)
{
	int dfd, e;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fail(failed, "open directory", errno);
	remove_stale(dfd, path);
	if (fsync(dfd) != 0 && errno != EINVAL && errno != ENOTSUP) {
		e = errno;
		close(dfd);
		return fail(failed, "fsync directory", e);
	}
	close(dfd);
	return 0;
}

void jr_remove_stale(const char *path)
{
	char dir[PATH_MAX];
	int dfd;

	if (dir_of(path, dir, sizeof(dir)) < 0)
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	remove_stale(dfd, path);
	close(dfd);
}

int jr_write_atomic(const char *path, const char *data, size_t len,
		    mode_t mode, void (*before_rename)(void),
		    const char **failed)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	size_t off = 0;
	int fd, e, r;

	if (dir_of(path, dir, sizeof(dir)) < 0)
		return fail(failed, "path", ENAMETOOLONG);
	r = snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path);
	if (r < 0 || (size_t)r >= sizeof(tmp))
		return fail(failed, "path", ENAMETOOLONG);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return fail(failed, "create", errno);
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : EIO;
			close(fd);
			unlink(tmp);
			return fail(failed, "write", e);
		}
		off += (size_t)w;
	}
	if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		return fail(failed, "fsync", e);
	}
	if (close(fd) != 0) {
		e = errno;
		unlink(tmp);
		return fail(failed, "close", e);
	}
	if (before_rename)
		before_rename();
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		return fail(failed, "rename", e);
	}
	return settle_dir(dir, path, failed);
}

int jr_remove(const char *path, const char **failed)
{
	char dir[PATH_MAX];

	if (dir_of(path, dir, sizeof(dir)) < 0)
		return fail(failed, "path", ENAMETOOLONG);
	if (unlink(path) != 0 && errno != ENOENT)
		return fail(failed, "unlink", errno);
	return settle_dir(dir, path, failed);
}

static int mkdir_p(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
			int e = errno;

			*p = '/';
			return -e;
		}
		*p = '/';
	}
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int jr_prepare_dir(const char *path, const char **failed)
{
	char dir[PATH_MAX];
	struct stat st;
	int r;

	if (dir_of(path, dir, sizeof(dir)) < 0)
		return fail(failed, "path", ENAMETOOLONG);
	r = mkdir_p(dir);
	if (r < 0)
		return fail(failed, "mkdir", -r);
	if (stat(dir, &st) != 0)
		return fail(failed, "stat", errno);
	if (!S_ISDIR(st.st_mode))
		return fail(failed, "mkdir", ENOTDIR);
	/* AT_EACCESS: the effective ids decide, as they will for the create. */
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0)
		return fail(failed, "access", errno);
	return 0;
}

static int add_str(cJSON *o, const char *k, const char *v)
{
	return cJSON_AddStringToObject(o, k, v) ? 0 : -ENOMEM;
}

int jr_save(const char *path, const struct journal *j, const char **failed)
{
	cJSON *o = cJSON_CreateObject(), *prev, *wr, *bf = NULL, *files;
	char *text = NULL;
	int i, r = -ENOMEM;

	if (!o)
		return fail(failed, "memory", ENOMEM);
	if (add_str(o, "format", JR_FORMAT) || add_str(o, "state", jr_state_name(j->state)) ||
	    add_str(o, "root", j->root) || add_str(o, "kernel", j->kernel) ||
	    add_str(o, "boot_id", j->boot_id) ||
	    !cJSON_AddNumberToObject(o, "time", (double)j->time) ||
	    add_str(o, "command", j->command))
		goto out;
	prev = cJSON_AddObjectToObject(o, "previous");
	wr = cJSON_AddObjectToObject(o, "written");
	if (!prev || !wr)
		goto out;
	for (i = 0; i < j->n; i++) {
		const struct jr_entry *e = &j->e[i];

		if (add_str(prev, wm_knob_name(e->key), e->previous) ||
		    add_str(wr, wm_knob_name(e->key), e->written))
			goto out;
		if (!e->before[0])
			continue;
		if (!bf && !(bf = cJSON_AddObjectToObject(o, "before")))
			goto out;
		if (add_str(bf, wm_knob_name(e->key), e->before))
			goto out;
	}
	if (j->nfiles) {
		files = cJSON_AddArrayToObject(o, "files");
		if (!files)
			goto out;
		for (i = 0; i < j->nfiles; i++) {
			cJSON *f = cJSON_CreateObject();

			if (!f || !cJSON_AddItemToArray(files, f) ||
			    add_str(f, "path", j->f[i].path))
				goto out;
			if (j->f[i].existed ? add_str(f, "previous", j->f[i].previous) :
			    !cJSON_AddNullToObject(f, "previous"))
				goto out;
		}
	}
	text = cJSON_Print(o);
	if (!text)
		goto out;
	r = jr_write_atomic(path, text, strlen(text), 0644, sc_fault_step, failed);
out:
	if (r == -ENOMEM && failed)
		*failed = "memory";
	free(text);
	cJSON_Delete(o);
	return r;
}

static int get_str(const cJSON *o, const char *k, char *out, size_t n,
		   bool required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!v) {
		out[0] = '\0';
		return required ? -1 : 0;
	}
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= n)
		return -1;
	strcpy(out, v->valuestring);
	return 0;
}

/* Is text a value of knob k?  If not, say why in diag. */
static int check_text(enum wm_knob k, const char *what, const char *text,
		      struct wm_diag *diag)
{
	struct sc_value v;
	struct wm_diag d = { 0 };
	char esc[160];

	if (sc_value_parse(k, text, &v, &d) == 0)
		return 0;
	snprintf(diag->msg, sizeof(diag->msg), "%s text of vm.%s: %s", what, wm_knob_name(k),
		 sc_escape(d.msg, esc, sizeof(esc)));
	return -1;
}

static int parse_files(const cJSON *arr, struct journal *j, struct wm_diag *diag)
{
	const cJSON *it;

	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr)) {
		snprintf(diag->msg, sizeof(diag->msg), "\"files\" is not an array");
		return -1;
	}
	cJSON_ArrayForEach(it, arr) {
		struct jr_file *f;
		const cJSON *pv = cJSON_GetObjectItemCaseSensitive(it, "previous");

		if (j->nfiles == JR_MAX_FILES) {
			snprintf(diag->msg, sizeof(diag->msg), "more than %d files", JR_MAX_FILES);
			return -1;
		}
		f = &j->f[j->nfiles++];
		if (!cJSON_IsObject(it) || get_str(it, "path", f->path, sizeof(f->path), true) ||
		    f->path[0] != '/' || !(cJSON_IsNull(pv) || cJSON_IsString(pv)) ||
		    (cJSON_IsString(pv) && strlen(pv->valuestring) >= JR_FILE_MAX)) {
			snprintf(diag->msg, sizeof(diag->msg), "a \"files\" entry is malformed");
			return -1;
		}
		f->existed = cJSON_IsString(pv);
		if (f->existed)
			strcpy(f->previous, pv->valuestring);
	}
	return 0;
}

static int parse(const char *text, struct journal *j, struct wm_diag *diag)
{
	const cJSON *prev, *wr, *bf, *it;
	cJSON *o = cJSON_Parse(text);
	char state[32], format[32], esc[80];
	int i, r = -EINVAL;

	memset(j, 0, sizeof(*j));
	if (!o) {
		snprintf(diag->msg, sizeof(diag->msg), "not valid JSON");
		return -EINVAL;
	}
	if (get_str(o, "format", format, sizeof(format), true) ||
	    strcmp(format, JR_FORMAT) != 0) {
		snprintf(diag->msg, sizeof(diag->msg), "not a wmark journal (format \"%s\" expected)", JR_FORMAT);
		goto out;
	}
	if (get_str(o, "state", state, sizeof(state), true) ||
	    get_str(o, "root", j->root, sizeof(j->root), true) ||
	    get_str(o, "kernel", j->kernel, sizeof(j->kernel), false) ||
	    get_str(o, "boot_id", j->boot_id, sizeof(j->boot_id), false) ||
	    get_str(o, "command", j->command, sizeof(j->command), false)) {
		snprintf(diag->msg, sizeof(diag->msg), "a field is missing or malformed");
		goto out;
	}
	for (i = 0; i <= JR_ROLLED_BACK; i++)
		if (strcmp(state, state_names[i]) == 0)
			break;
	if (i > JR_ROLLED_BACK) {
		snprintf(diag->msg, sizeof(diag->msg), "unknown state \"%s\"", sc_escape(state, esc, sizeof(esc)));
		goto out;
	}
	j->state = (enum jr_state)i;
	it = cJSON_GetObjectItemCaseSensitive(o, "time");
	j->time = cJSON_IsNumber(it) ? (long long)it->valuedouble : 0;
	prev = cJSON_GetObjectItemCaseSensitive(o, "previous");
	wr = cJSON_GetObjectItemCaseSensitive(o, "written");
	bf = cJSON_GetObjectItemCaseSensitive(o, "before");
	if (!cJSON_IsObject(prev) || !cJSON_IsObject(wr) || (bf && !cJSON_IsObject(bf))) {
		snprintf(diag->msg, sizeof(diag->msg), "\"previous\" or \"written\" is missing");
		goto out;
	}
	cJSON_ArrayForEach(it, prev) {
		char key[64];
		enum wm_knob k;
		struct jr_entry *e;

		snprintf(key, sizeof(key), "vm.%s", it->string ? it->string : "");
		if (sc_key_parse(key, &k) != 0 || j->n == WM_NKNOBS) {
			snprintf(diag->msg, sizeof(diag->msg), "unexpected sysctl \"%s\"",
				 sc_escape(it->string ? it->string : "", esc, sizeof(esc)));
			goto out;
		}
		e = &j->e[j->n++];
		e->key = k;
		if (!cJSON_IsString(it) || strlen(it->valuestring) >= JR_TEXT_MAX ||
		    get_str(wr, it->string, e->written, JR_TEXT_MAX, true) ||
		    (bf && get_str(bf, it->string, e->before, JR_TEXT_MAX, false))) {
			snprintf(diag->msg, sizeof(diag->msg), "\"%s\" lacks a previous or written text", it->string);
			goto out;
		}
		strcpy(e->previous, it->valuestring);
		if (check_text(k, "the previous", e->previous, diag) ||
		    check_text(k, "the written", e->written, diag) ||
		    (e->before[0] && check_text(k, "the before-the-last-apply", e->before, diag)))
			goto out;
	}
	if (parse_files(cJSON_GetObjectItemCaseSensitive(o, "files"), j, diag))
		goto out;
	r = 0;
out:
	cJSON_Delete(o);
	return r;
}

#define JR_READ_MAX ((size_t)1 << 20)	/* far past any journal wmark writes */

/*
 * Read path whole into a malloc'd NUL-terminated *buf: a regular file
 * only, never a symlink (O_NOFOLLOW), never waiting (O_NONBLOCK: a FIFO).
 * Return 0 or -errno (-EFBIG past JR_READ_MAX, -EISDIR, -ENXIO).
 */
static int read_journal(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t cap = 16384;
	char *b, *nb;
	ssize_t r;
	int fd, e;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		e = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : ENXIO;
		close(fd);
		return -e;
	}
	b = malloc(cap);
	for (;;) {
		if (!b) {
			close(fd);
			return -ENOMEM;
		}
		if (*len + 1 == cap) {
			if (cap > JR_READ_MAX) {
				free(b);
				close(fd);
				return -EFBIG;
			}
			nb = realloc(b, cap * 2);
			if (!nb)
				free(b);
			b = nb;
			cap *= 2;
			continue;
		}
		r = read(fd, b + *len, cap - 1 - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			free(b);
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		*len += (size_t)r;
	}
	close(fd);
	b[*len] = '\0';
	*buf = b;
	return 0;
}

int jr_load(const char *path, struct journal *j, struct wm_diag *diag)
{
	struct stat st;
	size_t len;
	char *buf;
	int r;

	r = read_journal(path, &buf, &len);
	/* The journal names what rollback writes: never one behind a link. */
	if (r == -ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		snprintf(diag->msg, sizeof(diag->msg), "is a symbolic link: refusing");
		return -ELOOP;
	}
	if (r == -EFBIG) {
		snprintf(diag->msg, sizeof(diag->msg), "too large for a journal");
		return -EINVAL;
	}
	if (r == -EISDIR || r == -ENXIO) {
		snprintf(diag->msg, sizeof(diag->msg), "%s", r == -EISDIR ? "is a directory, not a file" :
			 "is not a regular file");
		return r;
	}
	if (r < 0) {
		snprintf(diag->msg, sizeof(diag->msg), "%s", r == -ENXIO ? "not a regular file (a FIFO, socket or device)" :
			 strerror(-r));
		return r;
	}
	if (strlen(buf) != len) {
		free(buf);
		snprintf(diag->msg, sizeof(diag->msg), "not valid JSON (a NUL byte)");
		return -EINVAL;
	}
	r = parse(buf, j, diag);
	free(buf);
	return r;
}
