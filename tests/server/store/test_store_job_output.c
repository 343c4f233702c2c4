/* An analysis job's output (store_ops.def "Engine jobs": job_output_add, job_output)
 * on the backend the run is on: appended only by the claim that holds the job, the
 * last event marked, the lease renewed, emptied by the next claim, refused once the
 * job is dropped. */
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/store.h"

TEST(store_jobs_analysis_output_by_its_claim_only)
{
    char err[256] = "";
    struct store *s = store_open(fx_store_url(), NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "store_open: %s", err);
    if (!s)
        return;
    struct store_job j, got, now;
    memset(&j, 0, sizeof j);
    snprintf(j.id, sizeof j.id, "analysis.1");
    snprintf(j.kind, sizeof j.kind, "analysis");
    snprintf(j.client, sizeof j.client, "10.0.0.1");
    j.priority = STORE_JOB_PRIORITY_ANALYSIS;
    j.created_ms = 1000;
    j.payload = "{}";
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    char *out = NULL;
    CHECK_EQ_INT(store_job_output(s, "analysis.1", &now, &out, err, sizeof err), 0);
    CHECK_STR(out ? out : "?", "");
    free(out);
    /* Not claimed: nobody's output goes in. */
    snprintf(got.id, sizeof got.id, "analysis.1");
    snprintf(got.worker, sizeof got.worker, "w1");
    got.tries = 1;
    CHECK_EQ_INT(store_job_output_add(s, &got, "x", false, 2000, 1000, err, sizeof err), 1);
    CHECK_EQ_INT(
        store_claim_job(s, "w1", 2000, 1000, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 0);
    CHECK_STR(got.kind, "analysis");
    CHECK_EQ_INT(
        store_job_output_add(s, &got, "event: line\n\n", false, 2100, 1000, err, sizeof err), 0);
    CHECK_EQ_INT(
        store_job_output_add(s, &got, "event: line\n\n", false, 2200, 1000, err, sizeof err), 0);
    CHECK_EQ_INT(store_job_output(s, "analysis.1", &now, &out, err, sizeof err), 0);
    CHECK_STR(out ? out : "?", "event: line\n\nevent: line\n\n");
    free(out);
    CHECK_EQ_INT(now.done, 2);
    CHECK_EQ_INT(now.total, 0);
    CHECK_EQ_INT(now.tries, 1);
    CHECK(now.lease_until_ms == 3200);
    CHECK_STR(now.client, "10.0.0.1");
    /* Its lease runs out: another claim empties the output; the first is refused. */
    struct store_job second;
    CHECK_EQ_INT(
        store_claim_job(s, "w2", 4000, 1000, STORE_JOB_PRIORITY_ANY, &second, err, sizeof err), 0);
    CHECK_EQ_INT(store_job_output_add(s, &got, "late", false, 4100, 1000, err, sizeof err), 1);
    CHECK_EQ_INT(store_job_output(s, "analysis.1", &now, &out, err, sizeof err), 0);
    CHECK_STR(out ? out : "?", "");
    free(out);
    CHECK_EQ_INT(now.tries, 2);
    CHECK_EQ_INT(
        store_job_output_add(s, &second, "event: done\n\n", true, 4200, 60000, err, sizeof err), 0);
    CHECK_EQ_INT(store_job_output(s, "analysis.1", &now, &out, err, sizeof err), 0);
    CHECK_STR(out ? out : "?", "event: done\n\n");
    free(out);
    CHECK_EQ_INT(now.total, 1);
    CHECK(now.lease_until_ms == 64200);
    /* Dropped (the stream closed): gone, and the writer refused. */
    CHECK_EQ_INT(store_drop_job(s, "analysis.1", err, sizeof err), 0);
    CHECK_EQ_INT(store_job_output(s, "analysis.1", &now, &out, err, sizeof err), 1);
    CHECK(out == NULL);
    CHECK_EQ_INT(store_job_output_add(s, &second, "x", false, 4300, 1000, err, sizeof err), 1);
    store_close(s);
}
