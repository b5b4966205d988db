/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * precondition: --precondition[=N], the untimed step before the first
 * test of a pass that writes in place (PHASE_PRECONDITION: ran_write,
 * ran_mix, sync_write). Storage that was just made, or has been idle,
 * is faster than storage in use: an SSD's free blocks are all erased, a
 * thin volume's blocks are not yet allocated, an array's cache is empty.
 * SNIA's Solid State Storage Performance Test Specification (PTS)
 * therefore writes the device whole twice before it measures; here the
 * data file (the part of the storage the tests use) is written whole N
 * times, sequentially, in the block size of the test that comes (its
 * buf_need hook: the largest block it writes), with the content the file
 * holds already (so --verify still checks it), each pass made durable by
 * fsync. The runner runs it as it runs the untimed maker of the data
 * file: in every worker of a group, with the status line saying
 * "precondition", its bytes and time recorded in the run's result
 * (result.h's struct result_precondition) and the tests after it marked
 * preconditioned.
 */
#ifndef CLYDE_PRECONDITION_H
#define CLYDE_PRECONDITION_H

#include "runner_phases.h"

/* The progress line's words for the step. */
#define PRECONDITION_PROGRESS "Preconditioning the data file"

/*
 * The step to run before phase ph (whose plan is plan), N times over
 * the data file as o->precondition says: a runner_phase of the
 * precondition's own hooks, filling ph's figure's slot (it keeps no
 * state there), and its block size in *bs. Valid until the next call.
 */
const struct runner_phase *precondition_step(const struct runner_phase *ph,
					     const struct phase_plan *plan,
					     uint64_t *bs);

#endif
