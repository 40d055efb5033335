import { type Static, Type } from "@sinclair/typebox";
import { Marker } from "../schema/kube-types.js";

/** `spec.accessCredentials[]`: SSH keys or passwords from a secret, propagated into the guest. */

const SecretSourceSchema = Type.Object({
  secret: Type.Optional(Type.Object({ secretName: Type.String() })),
});

export const AccessCredentialSchema = Type.Object({
  sshPublicKey: Type.Optional(
    Type.Object({
      source: SecretSourceSchema,
      propagationMethod: Type.Object({
        configDrive: Type.Optional(Marker()),
        noCloud: Type.Optional(Marker()),
        qemuGuestAgent: Type.Optional(
          Type.Object({ users: Type.Array(Type.String(), { "x-kubernetes-list-type": "set" }) }),
        ),
      }),
    }),
  ),
  userPassword: Type.Optional(
    Type.Object({
      source: SecretSourceSchema,
      propagationMethod: Type.Object({ qemuGuestAgent: Type.Optional(Marker()) }),
    }),
  ),
});
export type AccessCredential = Static<typeof AccessCredentialSchema>;
