/**
 * Runs `count` calls in batches of 1, 2, 4, ... and stops after the first batch with a failure
 * (controller.slowStartBatch): when every create fails (a quota, a webhook, a bad template),
 * the API server sees one failing request, not hundreds. Returns how many succeeded, how many
 * were never tried, and the errors.
 */
export async function slowStartBatch(
  count: number,
  call: (index: number) => Promise<void>,
): Promise<{ succeeded: number; skipped: number; errors: unknown[] }> {
  let started = 0;
  let succeeded = 0;
  let batch = Math.min(count, 1);
  while (batch > 0) {
    const first = started;
    started += batch;
    const results = await Promise.allSettled(Array.from({ length: batch }, (_, i) => call(first + i)));
    const errors = results.flatMap((result) =>
      result.status === "rejected" ? [result.reason as unknown] : [],
    );
    succeeded += results.length - errors.length;
    if (errors.length > 0) return { succeeded, skipped: count - started, errors };
    batch = Math.min(batch * 2, count - started);
  }
  return { succeeded, skipped: 0, errors: [] };
}
