// SPDX-License-Identifier: MIT
/*
 * sig.c - the signal policy of sig.h.
 *
 * Why the timer repeats: a handler that only sets a flag cannot interrupt
 * a call that has not started yet.  If the deadline (or a SIGINT) comes
 * between the last check of the flag and the system call, one signal is
 * spent and the call runs to its end: a write to memory.reclaim for the
 * whole request, or an open() that never returns.  So once a wait is over
 * the timer keeps firing every WAIT_TICK_NS until sig_wait_end(), and any
 * call made meanwhile is interrupted within a tick (the kernel's reclaim
 * loop checks for a pending signal between its calls).  No SA_RESTART:
 * 6.17+'s memory.reclaim returns -ERESTARTSYS, which SA_RESTART would turn
 * into a fresh write of the whole request.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "sig.h"

#define WAIT_TICK_NS 10000000L	/* 10 ms */

static volatile sig_atomic_t stop_sig, waiting, kicked;
static timer_t wait_timer;
static bool have_timer;
static struct timespec deadline;	/* CLOCK_MONOTONIC; 0: none */

void sig_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* Fire now and every tick: timer_settime() is async-signal-safe (POSIX). */
static void kick(void)
{
	struct itimerspec its = {
		.it_value = { 0, 1 },
		.it_interval = { 0, WAIT_TICK_NS },
	};

	if (have_timer)
		timer_settime(wait_timer, 0, &its, NULL);
}

static void on_stop(int sig)
{
	int e = errno;

	stop_sig = sig;
	if (waiting && !kicked) {
		kicked = 1;
		kick();
	}
	errno = e;
}

static void on_tick(int sig)
{
	/* nothing to record: its only job is to interrupt the call */
}

int sig_catch_stop(bool hup)
{
	struct sigaction sa;
	struct sigevent sev;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (hup)
		sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_tick;
	sigaction(SIGALRM, &sa, NULL);
	if (have_timer)
		return 0;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGALRM;
	if (timer_create(CLOCK_MONOTONIC, &sev, &wait_timer))
		return -errno;
	have_timer = true;
	return 0;
}

int sig_stopped(void)
{
	return stop_sig;
}

void sig_clear_stop(void)
{
	stop_sig = 0;
}

static bool past(const struct timespec *t)
{
	struct timespec now;

	if (!t->tv_sec && !t->tv_nsec)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

bool sig_wait_begin(double timeout)
{
	struct itimerspec its = { .it_interval = { 0, WAIT_TICK_NS } };
	struct timespec now;
	double whole;

	memset(&deadline, 0, sizeof(deadline));
	kicked = 0;
	if (timeout > 0 && have_timer) {
		whole = (double)(time_t)timeout;
		its.it_value.tv_sec = (time_t)whole;
		its.it_value.tv_nsec = (long)((timeout - whole) * 1e9);
		if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
			its.it_value.tv_nsec = 1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		deadline.tv_sec = now.tv_sec + its.it_value.tv_sec;
		deadline.tv_nsec = now.tv_nsec + its.it_value.tv_nsec;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		timer_settime(wait_timer, 0, &its, NULL);
	}
	/* from here a stop signal kicks the timer itself ... */
	waiting = 1;
	/* ... and one that came before is seen here */
	return !stop_sig && !past(&deadline);
}

bool sig_wait_end(void)
{
	struct itimerspec off;

	waiting = 0;
	memset(&off, 0, sizeof(off));
	if (have_timer)
		timer_settime(wait_timer, 0, &off, NULL);
	kicked = 0;
	return past(&deadline);
}

double sig_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sig_sleep_until(double t)
{
	while (!sig_stopped()) {
		double d = t - sig_now();
		struct timespec ts;

		if (d <= 0)
			return;
		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}
