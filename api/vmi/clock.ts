import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../schema/kube-types.js";

/**
 * `spec.domain.clock`: UTC (with an offset) or a timezone, and timers. KubeVirt declares the
 * clock with `+kubebuilder:pruning:PreserveUnknownFields`, so the CRD keeps unknown fields here.
 */

const Present = { present: Type.Optional(Type.Boolean()) };

const TimerSchema = Type.Object({
  hpet: Type.Optional(
    Type.Object({
      ...Present,
      tickPolicy: Type.Optional(StringEnum(["delay", "catchup", "merge", "discard"])),
    }),
  ),
  kvm: Type.Optional(Type.Object(Present)),
  pit: Type.Optional(
    Type.Object({ ...Present, tickPolicy: Type.Optional(StringEnum(["delay", "catchup", "discard"])) }),
  ),
  rtc: Type.Optional(
    Type.Object({
      ...Present,
      tickPolicy: Type.Optional(StringEnum(["delay", "catchup"])),
      track: Type.Optional(StringEnum(["guest", "wall"])),
    }),
  ),
  hyperv: Type.Optional(Type.Object(Present)),
});

export const ClockSchema = Type.Object(
  {
    utc: Type.Optional(Type.Object({ offsetSeconds: Type.Optional(Type.Integer()) })),
    timezone: Type.Optional(Type.String()),
    timer: Type.Optional(TimerSchema),
  },
  { "x-kubernetes-preserve-unknown-fields": true },
);
export type Clock = Static<typeof ClockSchema>;
