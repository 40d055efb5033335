/**
 * Runs every cleanup step even when earlier ones fail (a test's `after` must not leave a file behind
 * because removing the domain failed), then throws all the failures together.
 */
export async function runCleanupSteps(steps: Record<string, () => unknown>): Promise<void> {
  const failures: Error[] = [];
  for (const [what, step] of Object.entries(steps)) {
    try {
      await step();
    } catch (err) {
      failures.push(new Error(`cleanup step "${what}" failed`, { cause: err }));
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} cleanup steps failed`);
}
