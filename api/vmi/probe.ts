import { type Static, Type } from "@sinclair/typebox";
import { Int32, IntOrString, Marker } from "../schema/kube-types.js";

/** `spec.livenessProbe` / `spec.readinessProbe`: a Kubernetes probe whose exec runs in the guest. */

const HttpGetActionSchema = Type.Object({
  path: Type.Optional(Type.String()),
  port: IntOrString(),
  host: Type.Optional(Type.String()),
  scheme: Type.Optional(Type.String()),
  httpHeaders: Type.Optional(
    Type.Array(Type.Object({ name: Type.String(), value: Type.String() }), {
      "x-kubernetes-list-type": "atomic",
    }),
  ),
});

export const ProbeSchema = Type.Object({
  exec: Type.Optional(
    Type.Object({
      command: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
    }),
  ),
  guestAgentPing: Type.Optional(Marker()),
  httpGet: Type.Optional(HttpGetActionSchema),
  tcpSocket: Type.Optional(Type.Object({ port: IntOrString(), host: Type.Optional(Type.String()) })),
  initialDelaySeconds: Type.Optional(Int32()),
  timeoutSeconds: Type.Optional(Int32({ description: "Defaults to 1." })),
  periodSeconds: Type.Optional(Int32({ description: "Defaults to 10." })),
  successThreshold: Type.Optional(Int32({ description: "Defaults to 1." })),
  failureThreshold: Type.Optional(Int32({ description: "Defaults to 3." })),
});
export type Probe = Static<typeof ProbeSchema>;
