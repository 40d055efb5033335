import { type Static, Type } from "@sinclair/typebox";
import { Int32 } from "../schema/kube-types.js";

/** `spec.domain.features`: ACPI, APIC, SMM, Hyper-V enlightenments, KVM hiding, pvspinlock. */

const FeatureStateProperties = { enabled: Type.Optional(Type.Boolean()) };
export const FeatureStateSchema = Type.Object(FeatureStateProperties);
export type FeatureState = Static<typeof FeatureStateSchema>;

const HypervSchema = Type.Object({
  relaxed: Type.Optional(FeatureStateSchema),
  vapic: Type.Optional(FeatureStateSchema),
  spinlocks: Type.Optional(
    Type.Object({ ...FeatureStateProperties, spinlocks: Type.Optional(Int32({ minimum: 0 })) }),
  ),
  vpindex: Type.Optional(FeatureStateSchema),
  runtime: Type.Optional(FeatureStateSchema),
  synic: Type.Optional(FeatureStateSchema),
  synictimer: Type.Optional(
    Type.Object({ ...FeatureStateProperties, direct: Type.Optional(FeatureStateSchema) }),
  ),
  reset: Type.Optional(FeatureStateSchema),
  vendorid: Type.Optional(Type.Object({ ...FeatureStateProperties, vendorid: Type.Optional(Type.String()) })),
  frequencies: Type.Optional(FeatureStateSchema),
  reenlightenment: Type.Optional(FeatureStateSchema),
  tlbflush: Type.Optional(
    Type.Object({
      ...FeatureStateProperties,
      direct: Type.Optional(FeatureStateSchema),
      extended: Type.Optional(FeatureStateSchema),
    }),
  ),
  ipi: Type.Optional(FeatureStateSchema),
  evmcs: Type.Optional(FeatureStateSchema),
});

export const FeaturesSchema = Type.Object({
  acpi: Type.Optional(FeatureStateSchema),
  apic: Type.Optional(
    Type.Object({ ...FeatureStateProperties, endOfInterrupt: Type.Optional(Type.Boolean()) }),
  ),
  hyperv: Type.Optional(HypervSchema),
  hypervPassthrough: Type.Optional(FeatureStateSchema),
  smm: Type.Optional(FeatureStateSchema),
  kvm: Type.Optional(Type.Object({ hidden: Type.Optional(Type.Boolean()) })),
  pvspinlock: Type.Optional(FeatureStateSchema),
});
export type Features = Static<typeof FeaturesSchema>;
