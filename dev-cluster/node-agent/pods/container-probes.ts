import type { Clock, Frozen } from "../../../runtime/index.js";
import type { Container } from "../kinds.js";
import type { ProbeTarget } from "../probes/probe-action.js";
import { type ProbeKind, ProbeRunner } from "../probes/probe-runner.js";

/** The startup, readiness and liveness probes a container declares, ready to start. */
export function containerProbes(options: {
  container: Frozen<Container>;
  target: ProbeTarget;
  clock: Clock;
  onChange(kind: ProbeKind, success: boolean, message: string | undefined): void;
}): ProbeRunner[] {
  const { container } = options;
  const declared: [ProbeKind, Frozen<Container>["livenessProbe"]][] = [
    ["startup", container.startupProbe],
    ["readiness", container.readinessProbe],
    ["liveness", container.livenessProbe],
  ];
  const runners: ProbeRunner[] = [];
  for (const [kind, probe] of declared) {
    if (!probe) continue;
    runners.push(
      new ProbeRunner({
        kind,
        probe,
        target: options.target,
        clock: options.clock,
        onChange: options.onChange,
      }),
    );
  }
  return runners;
}
