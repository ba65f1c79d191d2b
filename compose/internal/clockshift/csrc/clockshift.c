/*
 * clockshift: an LD_PRELOAD library that runs a process's wall clock off
 * by an offset another process can change while it runs. lockbench starts
 * redis-server masters under it to play clock-jump faults: Redis expires
 * keys by the wall clock (gettimeofday), so a jump forward expires a lock
 * early on that master, the clock-drift case of the Redlock debate.
 *
 * The offset is 8 bytes (int64 nanoseconds, host byte order) at the start
 * of the file named by LOCKBENCH_CLOCKSHIFT_FILE, mapped shared and read on
 * every call: writing the file moves the clock at once, with no signal and
 * no syscall on the read side. Only wall clocks move (CLOCK_REALTIME and
 * its variants, gettimeofday, time, timespec_get); monotonic clocks do
 * not, as a stepped NTP clock would not move them either.
 *
 * Why not libfaketime: Debian 12's libfaketime 0.9.10 deadlocks
 * redis-server 7.0 at start. jemalloc's initialisation calls
 * clock_gettime, libfaketime initialises itself inside that call and
 * allocates (dlsym of symbols glibc 2.36 no longer has, sem_open for its
 * shared memory), and the allocation waits on jemalloc's own init lock.
 * This library never allocates: real time comes from glibc's
 * __clock_gettime, the offset from one mmap of a small file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

extern int __clock_gettime(clockid_t clock, struct timespec *ts);

static const int64_t no_offset = 0;
static const int64_t *offset_ptr;

/* offset maps the file on first use; without the variable or the file the
 * clock is not shifted. Two threads racing here map it twice: harmless. */
static int64_t offset(void) {
	const int64_t *p = __atomic_load_n(&offset_ptr, __ATOMIC_ACQUIRE);
	if (p == NULL) {
		p = &no_offset;
		const char *path = getenv("LOCKBENCH_CLOCKSHIFT_FILE");
		if (path != NULL) {
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				void *m = mmap(NULL, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
				close(fd);
				if (m != MAP_FAILED) {
					p = m;
				}
			}
		}
		__atomic_store_n(&offset_ptr, p, __ATOMIC_RELEASE);
	}
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void shift(struct timespec *ts) {
	int64_t ns = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec + offset();
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
	if (ts->tv_nsec < 0) {
		ts->tv_nsec += 1000000000;
		ts->tv_sec--;
	}
}

static int wall(clockid_t clock) {
	return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
	int r = __clock_gettime(clock, ts);
	if (r == 0 && wall(clock)) {
		shift(ts);
	}
	return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
	struct timespec ts;
	if (tz != NULL) {
		struct timezone *z = tz;
		z->tz_minuteswest = 0;
		z->tz_dsttime = 0;
	}
	int r = __clock_gettime(CLOCK_REALTIME, &ts);
	if (r == 0) {
		shift(&ts);
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	return r;
}

time_t time(time_t *t) {
	struct timespec ts;
	__clock_gettime(CLOCK_REALTIME, &ts);
	shift(&ts);
	if (t != NULL) {
		*t = ts.tv_sec;
	}
	return ts.tv_sec;
}

int timespec_get(struct timespec *ts, int base) {
	if (base != TIME_UTC || __clock_gettime(CLOCK_REALTIME, ts) != 0) {
		return 0;
	}
	shift(ts);
	return base;
}
