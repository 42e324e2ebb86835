/*
 * The real-IO tests' judge: decodes a run's JSON lines with the codecs (every line must be a valid
 * sample or job event) and checks the runner's promises (t consecutive from 1, samples adding up
 * to the phase totals, bytes = ios * bs, exact precondition bytes, the final event, Little's law
 * between the latencies and the effective queue depth, what a purge proof or a verify found), and
 * checks written data on disk (fresh random blocks with valid headers, or zeros).
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_event.h"
#include "contract/msg_sample.h"
#include "io/block_header.h"

#define MAX_PHASES 64

struct phase_seen {
	uint32_t samples;
	uint32_t last_t;
	uint64_t ios[2], bytes[2];
	bool completed;
	struct dq_job_event_phase_completed totals; /* histograms not kept */
};

struct expectations {
	const char *final_type;
	const char *refused_reason;
	int64_t runtime_s[MAX_PHASES]; /* -1: not checked */
	int64_t write_bytes[MAX_PHASES];
	int64_t block_size[MAX_PHASES];
	double little_max_error[MAX_PHASES]; /* < 0: not checked */
	double min_queue_depth[MAX_PHASES]; /* < 0: not checked */
	const char *purge_status[MAX_PHASES];
	int64_t mismatches[MAX_PHASES]; /* verify phases: -1 not checked */
};

struct stream {
	struct phase_seen phases[MAX_PHASES];
	uint32_t next_seq;
	char final_type[32];
	char refused_reason[64];
	size_t lines, samples, events;
	size_t failures;
};

static void fail(struct stream *s, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct stream *s, size_t line, const char *fmt, ...)
{
	va_list args;

	printf("FAIL line %zu: ", line);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	printf("\n");
	s->failures++;
}

static void take_sample(struct stream *s, size_t line, const struct dq_sample *sample)
{
	struct phase_seen *p = &s->phases[sample->phase_index % MAX_PHASES];

	s->samples++;
	if (sample->t != p->last_t + 1) {
		fail(s, line, "phase %u: t=%u follows t=%u (must be consecutive from 1)",
		     sample->phase_index, sample->t, p->last_t);
	}
	p->last_t = sample->t;
	p->samples++;
	p->ios[0] += sample->read.ios;
	p->ios[1] += sample->write.ios;
	p->bytes[0] += sample->read.bytes;
	p->bytes[1] += sample->write.bytes;
}

static void take_event(struct stream *s, size_t line, struct dq_job_event *event)
{
	char expected_id[DQ_EVENT_ID_MAX_LEN + 1];
	struct phase_seen *p;

	s->events++;
	if (event->seq != s->next_seq) {
		fail(s, line, "event seq %u, expected %u", event->seq, s->next_seq);
	}
	s->next_seq = event->seq + 1;
	snprintf(expected_id, sizeof(expected_id), "%s:%u", event->job_id, event->seq);
	if (strcmp(expected_id, event->event_id) != 0) {
		fail(s, line, "eventId %s, expected %s", event->event_id, expected_id);
	}
	switch (event->type) {
	case DQ_JOB_EVENT_PHASE_COMPLETED:
		p = &s->phases[event->phase_completed.phase_index % MAX_PHASES];
		p->completed = true;
		p->totals = event->phase_completed;
		p->totals.read.latency_histogram.buckets = NULL;
		p->totals.write.latency_histogram.buckets = NULL;
		break;
	case DQ_JOB_EVENT_REFUSED:
		snprintf(s->refused_reason, sizeof(s->refused_reason), "%s",
			 dq_refuse_reason_to_str(event->refused.reason));
		/* fall through */
	case DQ_JOB_EVENT_COMPLETED:
	case DQ_JOB_EVENT_FAILED:
	case DQ_JOB_EVENT_CANCELLED:
		snprintf(s->final_type, sizeof(s->final_type), "%s",
			 dq_job_event_type_to_str(event->type));
		break;
	default:
		break;
	}
}

/*
 * Little's law over a closed-loop phase: mean latency x IOPS (the exact means the phase reports,
 * weighted by each direction's IOs) against the effective queue depth integrated independently.
 */
static void check_little(struct stream *s, uint32_t index, const struct expectations *x)
{
	const struct phase_seen *p = &s->phases[index];
	const struct dq_direction_totals *dir[2] = { &p->totals.read, &p->totals.write };
	double latency_ns_sum = 0, littles_l, effective, ratio;
	uint64_t ios = 0;
	int op;

	if (x->little_max_error[index] < 0 && x->min_queue_depth[index] < 0) {
		return;
	}
	if (!p->totals.has_effective_queue_depth_milli || p->totals.duration_ns == 0) {
		fail(s, 0, "phase %u: no effectiveQueueDepthMilli", index);
		return;
	}
	for (op = 0; op < 2; op++) {
		if (dir[op]->ios > 0 && !dir[op]->has_mean_latency_ns) {
			fail(s, 0, "phase %u: no meanLatencyNs", index);
			return;
		}
		latency_ns_sum += (double)dir[op]->mean_latency_ns * (double)dir[op]->ios;
		ios += dir[op]->ios;
	}
	effective = p->totals.effective_queue_depth_milli / 1000.0;
	littles_l = latency_ns_sum / (double)p->totals.duration_ns; /* = mean latency x IOPS */
	ratio = effective > 0 ? littles_l / effective : 0;
	printf("phase %u: Little's law: mean latency %.0f ns x IOPS %.0f = %.4f; effective queue "
	       "depth %.3f; ratio %.5f\n",
	       index, ios > 0 ? latency_ns_sum / (double)ios : 0,
	       (double)ios * 1e9 / (double)p->totals.duration_ns, littles_l, effective, ratio);
	if (x->little_max_error[index] >= 0 && fabs(ratio - 1) > x->little_max_error[index]) {
		fail(s, 0,
		     "phase %u: mean latency x IOPS / effective queue depth = %.5f, beyond 1 +- %g",
		     index, ratio, x->little_max_error[index]);
	}
	if (x->min_queue_depth[index] >= 0 && effective < x->min_queue_depth[index]) {
		fail(s, 0, "phase %u: effective queue depth %.3f < %.3f", index, effective,
		     x->min_queue_depth[index]);
	}
}

/* What a purge's proof or a verify phase reported. */
static void check_readback(struct stream *s, uint32_t index, const struct expectations *x)
{
	const struct dq_job_event_phase_completed *t = &s->phases[index].totals;
	const char *status;
	size_t i;

	if (t->has_purge_verification) {
		const struct dq_purge_verification *v = &t->purge_verification;

		status = dq_purge_verify_status_to_str(v->status);
		printf("phase %u: purge verification %s, coverage %s: %" PRIu64
		       " canary blocks, %" PRIu64 " blocks / %" PRIu64 " LBAs / %" PRIu64
		       " bytes read back, %" PRIu64 " found%s%s\n",
		       index, status, dq_readback_coverage_to_str(v->coverage), v->canary_blocks,
		       v->blocks_read, v->lbas_read, v->bytes_read, v->blocks_found,
		       v->has_reason ? ": " : "", v->has_reason ? v->reason : "");
		for (i = 0; i < v->found_reported; i++) {
			printf("  pre-purge data still at LBA %" PRIu64 "\n",
			       v->first_found_lbas[i]);
		}
		if (x->purge_status[index] != NULL && strcmp(status, x->purge_status[index]) != 0) {
			fail(s, 0, "phase %u: purge verification %s, expected %s", index, status,
			     x->purge_status[index]);
		}
	} else if (x->purge_status[index] != NULL) {
		fail(s, 0, "phase %u: no purgeVerification", index);
	}
	if (t->has_verify) {
		const struct dq_verify_result *v = &t->verify;

		printf("phase %u: verify: %" PRIu64 " blocks checked, %" PRIu64
		       " unwritten, %" PRIu64 " bytes read, %" PRIu64 " mismatches\n",
		       index, v->blocks_checked, v->unwritten_blocks, v->bytes_read, v->mismatches);
		for (i = 0; i < v->reported; i++) {
			printf("  mismatch at LBA %" PRIu64 ": expected %s; found %s\n",
			       v->first_mismatches[i].lba, v->first_mismatches[i].expected,
			       v->first_mismatches[i].found);
		}
		if (x->mismatches[index] >= 0 && v->mismatches != (uint64_t)x->mismatches[index]) {
			fail(s, 0, "phase %u: %" PRIu64 " mismatches, expected %" PRId64, index,
			     v->mismatches, x->mismatches[index]);
		}
	} else if (x->mismatches[index] >= 0) {
		fail(s, 0, "phase %u: no verify result", index);
	}
}

static void check_phase(struct stream *s, uint32_t index, const struct expectations *x)
{
	const struct phase_seen *p = &s->phases[index];
	const struct dq_direction_totals *dir[2] = { &p->totals.read, &p->totals.write };
	int op;

	if (!p->completed) {
		if (p->samples > 0) {
			printf("note: phase %u has samples but no phase-completed\n", index);
		}
		if (x->runtime_s[index] >= 0 || x->write_bytes[index] >= 0 ||
		    x->little_max_error[index] >= 0 || x->min_queue_depth[index] >= 0 ||
		    x->purge_status[index] != NULL || x->mismatches[index] >= 0) {
			fail(s, 0, "phase %u never completed", index);
		}
		return;
	}
	if (p->samples != p->totals.samples) {
		fail(s, 0, "phase %u: %u samples seen, phase-completed says %" PRIu64, index,
		     p->samples, p->totals.samples);
	}
	for (op = 0; op < 2; op++) {
		if (p->ios[op] != dir[op]->ios || p->bytes[op] != dir[op]->bytes) {
			fail(s, 0,
			     "phase %u %s: samples add up to %" PRIu64 " IOs / %" PRIu64
			     " bytes, totals say %" PRIu64 " / %" PRIu64,
			     index, op ? "write" : "read", p->ios[op], p->bytes[op], dir[op]->ios,
			     dir[op]->bytes);
		}
		if (dir[op]->has_latency_histogram &&
		    dir[op]->latency_histogram.total_count != dir[op]->ios) {
			fail(s, 0, "phase %u: histogram count differs from ios", index);
		}
		if (x->block_size[index] > 0 &&
		    dir[op]->bytes != dir[op]->ios * (uint64_t)x->block_size[index]) {
			fail(s, 0, "phase %u %s: %" PRIu64 " bytes != %" PRIu64 " ios * %" PRId64,
			     index, op ? "write" : "read", dir[op]->bytes, dir[op]->ios,
			     x->block_size[index]);
		}
	}
	if (x->runtime_s[index] >= 0 && p->samples != (uint64_t)x->runtime_s[index]) {
		fail(s, 0, "phase %u: %u samples, expected runtime %" PRId64, index, p->samples,
		     x->runtime_s[index]);
	}
	check_little(s, index, x);
	check_readback(s, index, x);
	if (x->write_bytes[index] >= 0 && dir[1]->bytes != (uint64_t)x->write_bytes[index]) {
		fail(s, 0, "phase %u: wrote %" PRIu64 " bytes, expected %" PRId64, index,
		     dir[1]->bytes, x->write_bytes[index]);
	}
	printf("phase %u: %u samples, read %" PRIu64 " IOs %" PRIu64 " B, write %" PRIu64
	       " IOs %" PRIu64 " B, %.3f s\n",
	       index, p->samples, dir[0]->ios, dir[0]->bytes, dir[1]->ios, dir[1]->bytes,
	       p->totals.duration_ns / 1e9);
}

static int check_stream(const char *path, const struct expectations *x)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct dq_job_event event;
	struct dq_sample sample;
	char *line = NULL, err_sample[256], err_event[256];
	size_t capacity = 0;
	ssize_t len;
	uint32_t i;
	FILE *file = fopen(path, "r");
	int status;

	if (file == NULL || s == NULL) {
		printf("FAIL %s: %s\n", path, strerror(errno));
		free(s);
		return 1;
	}
	while ((len = getline(&line, &capacity, file)) > 0) {
		s->lines++;
		if (dq_sample_decode(line, (size_t)len, &sample, err_sample, sizeof(err_sample)) ==
		    0) {
			take_sample(s, s->lines, &sample);
		} else if (dq_job_event_decode(line, (size_t)len, &event, err_event,
					       sizeof(err_event)) == 0) {
			take_event(s, s->lines, &event);
			dq_job_event_fini(&event);
		} else {
			fail(s, s->lines, "neither a valid sample (%s) nor event (%s)", err_sample,
			     err_event);
		}
	}
	free(line);
	fclose(file);
	for (i = 0; i < MAX_PHASES; i++) {
		check_phase(s, i, x);
	}
	if (x->final_type != NULL && strcmp(x->final_type, s->final_type) != 0) {
		fail(s, 0, "final event '%s', expected '%s'", s->final_type, x->final_type);
	}
	if (x->refused_reason != NULL && strcmp(x->refused_reason, s->refused_reason) != 0) {
		fail(s, 0, "refused reason '%s', expected '%s'", s->refused_reason,
		     x->refused_reason);
	}
	printf("%s: %zu lines, %zu samples, %zu events, final %s, %zu failure(s)\n", path, s->lines,
	       s->samples, s->events, s->final_type, s->failures);
	status = s->failures == 0 && s->lines > 0 ? 0 : 1;
	free(s);
	return status;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* FNV-1a over a block: equal blocks hash equal; distinct random blocks collide with p ~ 2^-64. */
static uint64_t block_hash(const unsigned char *block, size_t len)
{
	uint64_t hash = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		hash = (hash ^ block[i]) * 0x100000001b3ULL;
	}
	return hash;
}

/* Written data on disk: "random" = every block distinct, none zero, ~8 bits of entropy per byte
 * (so it does not compress); "headers" = random, and every block starts with a valid drivequal
 * header (CRC32C intact); "zeros" = every byte zero. */
static int check_blocks(const char *path, size_t block_size, const char *pattern, uint64_t length)
{
	unsigned char *block = malloc(block_size);
	uint64_t counts[256] = { 0 }, *hashes, total = 0, zero_blocks = 0, nonzero = 0, dups = 0,
		 headed = 0, placed = 0;
	struct dq_block_header header;
	size_t n = 0, capacity = (size_t)(length / block_size), i;
	double entropy = 0;
	FILE *file = fopen(path, "rb");
	int status = 1;

	hashes = calloc(capacity + 1, sizeof(*hashes));
	if (file == NULL || block == NULL || hashes == NULL) {
		printf("FAIL %s: %s\n", path, strerror(errno));
		goto out;
	}
	while (n < capacity && fread(block, 1, block_size, file) == block_size) {
		bool all_zero = true;

		for (i = 0; i < block_size; i++) {
			counts[block[i]]++;
			all_zero &= block[i] == 0;
		}
		zero_blocks += all_zero;
		nonzero += !all_zero;
		if (dq_block_inspect(block, block_size, &header, NULL) == DQ_BLOCK_VALID) {
			headed++;
			placed += header.lba * header.lba_bytes == (uint64_t)n * block_size;
		}
		hashes[n++] = block_hash(block, block_size);
	}
	total = (uint64_t)n * block_size;
	if (n < capacity) {
		printf("FAIL %s: read %zu of %zu blocks\n", path, n, capacity);
		goto out;
	}
	for (i = 0; i < 256; i++) {
		if (counts[i] > 0) {
			double p = (double)counts[i] / (double)total;

			entropy -= p * log2(p);
		}
	}
	qsort(hashes, n, sizeof(*hashes), compare_u64);
	for (i = 1; i < n; i++) {
		dups += hashes[i] == hashes[i - 1];
	}
	printf("%s: %zu blocks of %zu: %" PRIu64 " zero, %" PRIu64 " duplicate, %" PRIu64
	       " with a valid header (%" PRIu64 " at their own offset), %.5f bits/byte\n",
	       path, n, block_size, zero_blocks, dups, headed, placed, entropy);
	if (strcmp(pattern, "zeros") == 0) {
		status = nonzero == 0 ? 0 : 1;
	} else if (strcmp(pattern, "headers") == 0) {
		status = zero_blocks == 0 && dups == 0 && entropy > 7.99 && headed == n ? 0 : 1;
	} else {
		status = zero_blocks == 0 && dups == 0 && entropy > 7.99 ? 0 : 1;
	}
	if (status != 0) {
		printf("FAIL %s: not %s data\n", path, pattern);
	}
out:
	if (file != NULL) {
		fclose(file);
	}
	free(hashes);
	free(block);
	return status;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: check_output stream FILE [--final TYPE] [--refused REASON]\n"
		"                    [--runtime PHASE S] [--write-bytes PHASE N] [--bs PHASE N]\n"
		"                    [--little PHASE MAX_ERROR] [--min-qd PHASE QD]\n"
		"                    [--purge PHASE verified|failed|unverifiable]\n"
		"                    [--mismatches PHASE N]\n"
		"       check_output blocks FILE BLOCK_SIZE LENGTH random|zeros|headers\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct expectations x = { 0 };
	int i;

	if (argc >= 6 && strcmp(argv[1], "blocks") == 0) {
		return check_blocks(argv[2], strtoull(argv[3], NULL, 0), argv[5],
				    strtoull(argv[4], NULL, 0));
	}
	if (argc < 3 || strcmp(argv[1], "stream") != 0) {
		return usage();
	}
	for (i = 0; i < MAX_PHASES; i++) {
		x.runtime_s[i] = x.write_bytes[i] = x.block_size[i] = x.mismatches[i] = -1;
		x.little_max_error[i] = x.min_queue_depth[i] = -1;
	}
	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--final") == 0 && i + 1 < argc) {
			x.final_type = argv[++i];
		} else if (strcmp(argv[i], "--refused") == 0 && i + 1 < argc) {
			x.refused_reason = argv[++i];
			x.final_type = "refused";
		} else if (i + 2 < argc && atoi(argv[i + 1]) >= 0 &&
			   atoi(argv[i + 1]) < MAX_PHASES &&
			   (strcmp(argv[i], "--little") == 0 || strcmp(argv[i], "--min-qd") == 0)) {
			double *field = strcmp(argv[i], "--little") == 0 ? x.little_max_error :
									   x.min_queue_depth;

			field[atoi(argv[i + 1])] = strtod(argv[i + 2], NULL);
			i += 2;
		} else if (i + 2 < argc && strcmp(argv[i], "--purge") == 0 &&
			   atoi(argv[i + 1]) >= 0 && atoi(argv[i + 1]) < MAX_PHASES) {
			x.purge_status[atoi(argv[i + 1])] = argv[i + 2];
			i += 2;
		} else if (i + 2 < argc && strcmp(argv[i], "--mismatches") == 0 &&
			   atoi(argv[i + 1]) >= 0 && atoi(argv[i + 1]) < MAX_PHASES) {
			x.mismatches[atoi(argv[i + 1])] = strtoll(argv[i + 2], NULL, 0);
			i += 2;
		} else if (i + 2 < argc && atoi(argv[i + 1]) >= 0 &&
			   atoi(argv[i + 1]) < MAX_PHASES &&
			   (strcmp(argv[i], "--runtime") == 0 ||
			    strcmp(argv[i], "--write-bytes") == 0 ||
			    strcmp(argv[i], "--bs") == 0)) {
			int64_t *field = strcmp(argv[i], "--runtime") == 0 ? x.runtime_s :
					 strcmp(argv[i], "--bs") == 0	   ? x.block_size :
									     x.write_bytes;

			field[atoi(argv[i + 1])] = strtoll(argv[i + 2], NULL, 0);
			i += 2;
		} else {
			return usage();
		}
	}
	return check_stream(argv[2], &x);
}
