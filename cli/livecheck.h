/* SPDX-License-Identifier: MIT */
/*
 * livecheck.h - after apply or rollback wrote the knobs: re-read the
 * machine and compare what the kernel now prints with the model's
 * prediction (wm_compare), field by field.
 */
#ifndef WMARK_LIVECHECK_H
#define WMARK_LIVECHECK_H

#include <stdbool.h>

#include "../calc/wmark.h"
#include "cli.h"
#include "doc.h"
#include "snapshot.h"

/*
 * On a live kernel (before->live): read the machine again and compare its
 * zoneinfo with pred (before->st.m.nzones zones), the model of sysctls sc:
 * the printed watermarks minus the printed boost when wmarks says the
 * writes recomputed them, protection always.  When managed pages moved
 * meanwhile, the machine as it is now is modelled again and judged.  The
 * differences go to doc: lines of text, or its "check" member in JSON.
 * Not live: says so, EXIT_OK.  Return EXIT_OK, EXIT_CHECK after one line
 * on stderr when a field differs, or snapshot_read's code.
 */
int live_check(const struct cli_ctx *ctx, const char *cmd, const struct snapshot *before,
	       const struct wm_predicted *pred, const struct wm_sysctl *sc, bool wmarks,
	       struct doc *doc);

#endif /* WMARK_LIVECHECK_H */
