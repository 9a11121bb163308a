// SPDX-License-Identifier: GPL-2.0-only
/* pev_data_writer_finish_at: a file whose writing failed (EFBIG under
 * RLIMIT_FSIZE here, as with ENOSPC) is cut back to a round and keeps its
 * features when they fit, or its records alone (and COMPRESSED, when the
 * records are compressed) when they do not.  The room left for the
 * features is set to the byte with the soft RLIMIT_FSIZE in a child. */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "../testutil.h"
#include "data_util.h"

#define PER_ROUND	50
#define SAMPLE_BYTES	56
#define ROUND_BYTES	(PER_ROUND * SAMPLE_BYTES + 8)	/* + FINISHED_ROUND */

static struct perf_event_attr attr;
static const uint64_t id = 7;
static char path[128];
static uint64_t data_off, comm_len;

static uint64_t t_of(int round, int i)
{
	return 1000 + (uint64_t)round * 100 + (uint64_t)i;
}

/* Uncompressed data bytes after `rounds` rounds. */
static uint64_t size_at(int rounds)
{
	return comm_len + (uint64_t)rounds * ROUND_BYTES;
}

/* A writer on a new file at `path`, features set, started, a COMM
 * written. */
static struct pev_data_writer *new_writer(int *fd, int level, bool foreign)
{
	static const char *const argv[] = { "perfev", "record", "-a" };
	struct pev_data_writer_opts o = { .size = sizeof(o),
					  .compress_level = level,
					  .foreign_endian = foreign };
	unsigned char rec[128] __attribute__((aligned(8)));
	struct stat st;

	*fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (*fd < 0)
		T_FATAL("open %s: %s", path, strerror(errno));
	struct pev_data_writer *w = pev_data_writer_new(*fd, &o);

	if (!w)
		T_FATAL("pev_data_writer_new: %s", strerror(errno));
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &attr, &id, 1, "cpu-clock"), 0);
	struct pev_data_features *f = pev_data_writer_features(w);

	f->hostname = strdup("cut-host");
	pev_data_features_set(f, PEV_FEAT_HOSTNAME, true);
	CHECK_OK(pev_data_features_set_cmdline(f, 3, argv));
	CHECK_EQ_U64(pev_data_writer_round_size(w), 0);
	CHECK_OK(pev_data_writer_start(w));
	CHECK(fstat(*fd, &st) == 0);
	data_off = (uint64_t)st.st_size;	/* nothing after the attrs yet */
	comm_len = du_comm(rec, &attr, id, 10, 11, "worker", 0);
	CHECK_OK(pev_data_writer_write(w, rec, comm_len));
	CHECK_EQ_U64(pev_data_writer_round_size(w), 0);
	return w;
}

static int write_samples(struct pev_data_writer *w, int round, int n)
{
	unsigned char buf[PER_ROUND * SAMPLE_BYTES] __attribute__((aligned(8)));
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += du_sample(buf + len, id, 0x400000 + (uint64_t)i * 4, 10, 11,
				 t_of(round, i), 0, 1000);
	return pev_data_writer_write(w, buf, len);
}

/* Round `round`: its samples, then a FINISHED_ROUND. */
static int write_round(struct pev_data_writer *w, int round)
{
	int r = write_samples(w, round, PER_ROUND);

	return r ? r : pev_data_writer_finished_round(w);
}

/* SAMPLE_TIME of the first `rounds` rounds. */
static void times_of(struct pev_data_writer *w, int rounds)
{
	pev_data_writer_set_sample_time(w, t_of(0, 0),
					t_of(rounds - 1, PER_ROUND - 1));
}

/* Soft file size limit at `end` (the hard one stays, so it can rise). */
static void limit_at(uint64_t end)
{
	struct rlimit rl;

	CHECK(getrlimit(RLIMIT_FSIZE, &rl) == 0);
	rl.rlim_cur = end;
	CHECK(setrlimit(RLIMIT_FSIZE, &rl) == 0);
}

/* Makes the next round fail with EFBIG after a partial write, as a full
 * file system would: the writer then holds a sticky error. */
static void fail_a_round(struct pev_data_writer *w, int round)
{
	uint64_t rs = pev_data_writer_round_size(w);

	limit_at(data_off + rs + 100);
	CHECK_EQ_INT(write_round(w, round), -EFBIG);
	CHECK_EQ_U64(pev_data_writer_round_size(w), rs);
	CHECK_EQ_INT(write_samples(w, round, 1), -EFBIG);	/* sticky */
	CHECK_EQ_INT(pev_data_writer_finish(w), -EFBIG);
}

enum feats { FEAT_ALL, FEAT_NONE, FEAT_COMPRESSED_ONLY };

/* Opens the file and checks it holds exactly `rounds` rounds of samples
 * after the COMM, data.size `dsize`, and the features `which`; the file
 * ends at the data (no features) or `feat_bytes` after it. */
static void check_file(int rounds, uint64_t dsize, enum feats which,
		       uint64_t feat_bytes)
{
	char err[256];
	struct pev_data_open_opts o = { .size = sizeof(o), .strict = true };
	struct pev_data *d = pev_data_open(path, &o, err, sizeof(err));
	struct pev_data_event ev;
	uint64_t samples = 0, nrounds = 0, comms = 0;
	struct stat st;
	int n;

	if (!d) {
		T_FAIL("open: %s", err);
		return;
	}
	CHECK(pev_data_recovered(d) == NULL);
	CHECK_EQ_U64(pev_data_data_offset(d), data_off);
	CHECK_EQ_U64(pev_data_data_size(d), dsize);
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_U64(st.st_size, data_off + dsize +
		     (which == FEAT_NONE ? 0 : feat_bytes));
	while ((n = pev_data_next(d, &ev)) > 0) {
		CHECK_EQ_INT(ev.decode_error, 0);
		if (ev.rec.type == PERF_RECORD_COMM) {
			comms++;
			CHECK_STR(ev.rec.u.comm.comm, "worker");
		} else if (ev.rec.type == PEV_RECORD_FINISHED_ROUND) {
			nrounds++;
		} else if (ev.rec.type == PERF_RECORD_SAMPLE) {
			int rd = (int)(samples / PER_ROUND), i = (int)(samples % PER_ROUND);

			CHECK_EQ_U64(ev.rec.u.sample.time, t_of(rd, i));
			samples++;
		} else {
			T_FAIL("record type %u", ev.rec.type);
		}
	}
	CHECK_EQ_INT(n, 0);
	CHECK_EQ_U64(comms, 1);
	CHECK_EQ_U64(samples, (uint64_t)rounds * PER_ROUND);
	CHECK_EQ_U64(nrounds, rounds);

	const struct pev_data_features *f = pev_data_features(d);

	if (which == FEAT_ALL) {
		CHECK_STR(f->hostname, "cut-host");
		CHECK_EQ_U64(f->nr_cmdline, 3);
		if (f->nr_cmdline == 3)
			CHECK_STR(f->cmdline[2], "-a");
		CHECK_EQ_U64(f->nr_event_desc, 1);
		if (f->nr_event_desc == 1)
			CHECK_STR(f->event_desc[0].name, "cpu-clock");
		CHECK(pev_data_features_has(f, PEV_FEAT_SAMPLE_TIME));
		CHECK_EQ_U64(f->first_sample_time, t_of(0, 0));
		CHECK_EQ_U64(f->last_sample_time, t_of(rounds - 1, PER_ROUND - 1));
	} else {
		for (unsigned b = 0; b < PEV_FEAT_BITS; b++)
			CHECK_MSG(pev_data_features_has(f, b) ==
				  (which == FEAT_COMPRESSED_ONLY &&
				   b == PEV_FEAT_COMPRESSED),
				  "feature %u (%s)", b, pev_feat_name(b));
		CHECK(pev_data_event_name(d, 0) == NULL);
	}
	pev_data_close(d);
}

/* Runs fn in a child with SIGXFSZ ignored (writes past the limit then
 * fail with EFBIG instead of killing it); its checks decide its status. */
static void in_child(const char *what, void (*fn)(void))
{
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		T_FATAL("fork: %s", strerror(errno));
	if (pid == 0) {
		t_failures = 0;		/* the child's own checks only */
		signal(SIGXFSZ, SIG_IGN);
		fn();
		fflush(stdout);
		_exit(t_failures ? 1 : 0);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: status %#x", what, st);
}

/* Three rounds, the fourth fails; `room` bytes fit after the third. */
static struct pev_data_writer *three_rounds_then_full(int *fd, int level,
						       uint64_t *feat_bytes)
{
	struct pev_data_writer *w = new_writer(fd, level, false);

	for (int i = 0; i < 3; i++)
		CHECK_OK(write_round(w, i));
	times_of(w, 3);
	CHECK_OK(pev_data_writer_features_size(w, feat_bytes));
	fail_a_round(w, 3);
	return w;
}

/* One byte short of the features: the records alone. */
static void no_room(void)
{
	int fd;
	uint64_t fb;
	struct pev_data_writer *w = three_rounds_then_full(&fd, 0, &fb);

	CHECK_EQ_U64(pev_data_writer_round_size(w), size_at(3));
	limit_at(data_off + size_at(3) + fb - 1);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, size_at(3)),
		     PEV_DATA_FEATURES_DROPPED);
	CHECK_EQ_U64(pev_data_writer_data_size(w), size_at(3));
	pev_data_writer_free(w);
	close(fd);
	check_file(3, size_at(3), FEAT_NONE, 0);
}

/* Exactly the room the features take (features_size is exact). */
static void exact_room(void)
{
	int fd;
	uint64_t fb;
	struct pev_data_writer *w = three_rounds_then_full(&fd, 0, &fb);

	limit_at(data_off + size_at(3) + fb);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, size_at(3)), 0);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, size_at(3)), -EINVAL);
	CHECK_EQ_INT(pev_data_writer_finish(w), -EINVAL);
	CHECK_EQ_INT(write_samples(w, 0, 1), -EINVAL);
	pev_data_writer_free(w);
	close(fd);
	check_file(3, size_at(3), FEAT_ALL, fb);
}

/* No room at the last round; one round earlier frees enough. */
static void retry_earlier(void)
{
	int fd;
	uint64_t fb, fb2;
	struct pev_data_writer *w = three_rounds_then_full(&fd, 0, &fb);

	limit_at(data_off + size_at(3) + fb - 1);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, size_at(3)),
		     PEV_DATA_FEATURES_DROPPED);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, size_at(3) + 8), -EINVAL);
	times_of(w, 2);
	CHECK_OK(pev_data_writer_features_size(w, &fb2));
	CHECK_EQ_U64(fb2, fb);	/* SAMPLE_TIME's size does not change */
	CHECK_EQ_INT(pev_data_writer_finish_at(w, size_at(2)), 0);
	pev_data_writer_free(w);
	close(fd);
	check_file(2, size_at(2), FEAT_ALL, fb);
}

/* Compressed: 36 bytes hold COMPRESSED alone, which perf needs; 35 hold
 * nothing. */
static void compressed_room(uint64_t room)
{
	int fd;
	uint64_t fb;
	struct pev_data_writer *w = three_rounds_then_full(&fd, 3, &fb);
	uint64_t ds = pev_data_writer_round_size(w);

	CHECK(fb > 36);
	limit_at(data_off + ds + room);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, ds), PEV_DATA_FEATURES_DROPPED);
	CHECK_EQ_U64(pev_data_writer_data_size(w), ds);
	CHECK_EQ_U64(pev_data_writer_raw_size(w), size_at(3));
	pev_data_writer_free(w);
	close(fd);
	check_file(3, ds, room >= 36 ? FEAT_COMPRESSED_ONLY : FEAT_NONE, 36);
	if (room >= 36) {
		struct pev_data *d = pev_data_open(path, NULL, NULL, 0);
		const struct pev_data_features *f = d ? pev_data_features(d) : NULL;

		CHECK(f != NULL);
		if (f) {
			CHECK_EQ_U64(f->compressed.type, 1);
			CHECK_EQ_U64(f->compressed.level, 3);
			CHECK_EQ_U64(f->compressed.ratio, size_at(3) / ds);
		}
		pev_data_close(d);
	}
}

static void compressed_36(void) { compressed_room(36); }
static void compressed_35(void) { compressed_room(35); }

/* Every record written, only the features failed: finish_at after the
 * failed finish, with room again, completes the file. */
static void finish_failed(void)
{
	int fd;
	uint64_t fb;
	struct pev_data_writer *w = new_writer(&fd, 0, false);

	for (int i = 0; i < 3; i++)
		CHECK_OK(write_round(w, i));
	times_of(w, 3);
	CHECK_OK(pev_data_writer_features_size(w, &fb));
	limit_at(data_off + size_at(3) + fb - 1);
	CHECK_EQ_INT(pev_data_writer_finish(w), -EFBIG);
	limit_at(RLIM_INFINITY);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, pev_data_writer_data_size(w)), 0);
	pev_data_writer_free(w);
	close(fd);
	check_file(3, size_at(3), FEAT_ALL, fb);
}

/* No failure at all: back to an earlier round, the later ones and a
 * partial one given up; in both byte orders. */
static void earlier_round(bool foreign)
{
	int fd;
	uint64_t fb, at4 = 0;
	struct pev_data_writer *w = new_writer(&fd, 0, foreign);

	for (int i = 0; i < 6; i++) {
		CHECK_OK(write_round(w, i));
		CHECK_EQ_U64(pev_data_writer_round_size(w), size_at(i + 1));
		if (i == 3)
			at4 = pev_data_writer_round_size(w);
	}
	CHECK_OK(write_samples(w, 6, 10));
	CHECK_EQ_U64(pev_data_writer_round_size(w), size_at(6));
	CHECK_EQ_U64(pev_data_writer_data_size(w), size_at(6) + 10 * SAMPLE_BYTES);
	CHECK_EQ_INT(pev_data_writer_finish_at(w, pev_data_writer_data_size(w) + 1),
		     -EINVAL);
	times_of(w, 4);
	CHECK_OK(pev_data_writer_features_size(w, &fb));
	CHECK_EQ_INT(pev_data_writer_finish_at(w, at4), 0);
	CHECK_EQ_U64(pev_data_writer_data_size(w), size_at(4));
	pev_data_writer_free(w);
	close(fd);
	check_file(4, size_at(4), FEAT_ALL, fb);
}

/* Calls that make no sense. */
static void misuse(void)
{
	struct pev_data_writer_opts po = { .size = sizeof(po), .pipe = true };
	int fd = du_memfd();
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t sz = 0;

	CHECK_OK(pev_data_writer_add_attr(w, &attr, &id, 1, NULL));
	CHECK_EQ_INT(pev_data_writer_finish_at(w, 0), -EINVAL);	/* not started */
	CHECK_EQ_INT(pev_data_writer_features_size(w, &sz), -EINVAL);
	CHECK_OK(pev_data_writer_start(w));
	CHECK_EQ_INT(pev_data_writer_finish_at(w, 8), -EINVAL);	/* past the data */
	/* SAMPLE_TIME set, measured (which fills it), then taken back. */
	pev_data_writer_sample_time(w, 10, 20);
	CHECK_OK(pev_data_writer_features_size(w, &sz));
	CHECK(pev_data_features_has(pev_data_writer_features(w), PEV_FEAT_SAMPLE_TIME));
	pev_data_writer_set_sample_time(w, 1, 0);
	CHECK_OK(pev_data_writer_finish(w));
	CHECK_EQ_INT(pev_data_writer_finish_at(w, 0), -EINVAL);	/* finished */
	CHECK_EQ_INT(pev_data_writer_features_size(w, &sz), -EINVAL);
	pev_data_writer_free(w);

	size_t len;
	unsigned char *p = du_slurp(fd, &len);
	struct pev_data *d = pev_data_open_mem(p, len, NULL, NULL, 0);

	CHECK(d != NULL);
	if (d) {
		CHECK(!pev_data_features_has(pev_data_features(d), PEV_FEAT_SAMPLE_TIME));
		CHECK(pev_data_features_has(pev_data_features(d), PEV_FEAT_EVENT_DESC));
	}
	pev_data_close(d);
	free(p);
	close(fd);

	fd = du_memfd();
	w = pev_data_writer_new(fd, &po);
	CHECK_OK(pev_data_writer_add_attr(w, &attr, &id, 1, NULL));
	CHECK_OK(pev_data_writer_start(w));
	CHECK_EQ_INT(pev_data_writer_finish_at(w, 0), -ESPIPE);
	CHECK_EQ_INT(pev_data_writer_features_size(w, &sz), -ESPIPE);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(path, sizeof(path), "%s/perfev-cut-%d.data",
		 tmp && *tmp ? tmp : "/tmp", (int)getpid());
	du_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	misuse();
	earlier_round(false);
	earlier_round(true);
	in_child("no room", no_room);
	in_child("exact room", exact_room);
	in_child("retry earlier", retry_earlier);
	in_child("compressed, 36 bytes", compressed_36);
	in_child("compressed, 35 bytes", compressed_35);
	in_child("finish failed", finish_failed);
	unlink(path);
	return t_done();
}
