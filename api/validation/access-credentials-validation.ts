// spec.accessCredentials at admission: KubeVirt's rules (validateAccessCredentials in its VMI
// admitter, with its messages), then what kubevirt-ts does not carry out. An SSH key propagated
// through cloud-init (noCloud, configDrive) is honoured; anything that goes through the QEMU guest
// agent (sshPublicKey's qemuGuestAgent, userPassword) is refused with the reason, because no guest
// agent is spoken to yet and an accepted credential that never reached the guest would mislead.
import type { AccessCredential } from "../vmi/access-credentials.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid } from "./cause.js";
import { child, index } from "./field-path.js";

interface CloudInitVolumes {
  readonly noCloud: boolean;
  readonly configDrive: boolean;
}

export function validateAccessCredentials(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const volumes = spec.volumes ?? [];
  const cloudInit: CloudInitVolumes = {
    noCloud: volumes.some((volume) => volume.cloudInitNoCloud !== undefined),
    configDrive: volumes.some((volume) => volume.cloudInitConfigDrive !== undefined),
  };
  const credentialsField = child(field, "accessCredentials");
  return (spec.accessCredentials ?? []).flatMap((credential, position) =>
    validateCredential(index(credentialsField, position), credential, cloudInit),
  );
}

function validateCredential(
  credentialField: string,
  credential: AccessCredential,
  cloudInit: CloudInitVolumes,
): Cause[] {
  const causes = [
    ...validateSshPublicKey(credentialField, credential, cloudInit),
    ...validateUserPassword(credentialField, credential),
  ];
  const kinds = [credential.sshPublicKey, credential.userPassword].filter((kind) => kind !== undefined);
  if (kinds.length !== 1) {
    causes.push(
      invalid(credentialField, `${credentialField} must have exactly one access credential type set`),
    );
  }
  return causes;
}

function validateSshPublicKey(
  credentialField: string,
  credential: AccessCredential,
  cloudInit: CloudInitVolumes,
): Cause[] {
  const key = credential.sshPublicKey;
  if (key === undefined) return [];
  const methodField = child(credentialField, "sshPublicKey", "propagationMethod");
  const method = key.propagationMethod;
  const causes: Cause[] = [];
  if (method.noCloud !== undefined && !cloudInit.noCloud) {
    causes.push(
      invalid(
        methodField,
        `${credentialField} requires a noCloud volume to exist when the noCloud propagationMethod is in use.`,
      ),
    );
  }
  if (method.configDrive !== undefined && !cloudInit.configDrive) {
    causes.push(
      invalid(
        methodField,
        `${credentialField} requires a configDrive volume to exist when the configDrive propagationMethod is in use.`,
      ),
    );
  }
  if (method.qemuGuestAgent !== undefined) {
    if (method.qemuGuestAgent.users.length === 0) {
      causes.push(
        invalid(
          child(methodField, "qemuGuestAgent", "users"),
          `${credentialField} requires at least one user to be present in the users list`,
        ),
      );
    }
    const agentField = child(methodField, "qemuGuestAgent");
    causes.push(
      invalid(
        agentField,
        `${agentField} is not supported yet: it sets the keys through the QEMU guest agent, which kubevirt-ts does not use; use noCloud or configDrive`,
      ),
    );
  }
  if (key.source.secret === undefined) {
    const sourceField = child(credentialField, "sshPublicKey", "source");
    causes.push(invalid(sourceField, `${credentialField} must have exactly one source set`));
  }
  const methods = [method.noCloud, method.configDrive, method.qemuGuestAgent].filter(
    (set) => set !== undefined,
  );
  if (methods.length !== 1) {
    causes.push(invalid(methodField, `${credentialField} must have exactly one propagationMethod set`));
  }
  return causes;
}

function validateUserPassword(credentialField: string, credential: AccessCredential): Cause[] {
  const password = credential.userPassword;
  if (password === undefined) return [];
  const passwordField = child(credentialField, "userPassword");
  const causes: Cause[] = [];
  if (password.source.secret === undefined) {
    causes.push(
      invalid(child(passwordField, "source"), `${credentialField} must have exactly one source set`),
    );
  }
  if (password.propagationMethod.qemuGuestAgent === undefined) {
    causes.push(
      invalid(
        child(passwordField, "propagationMethod"),
        `${credentialField} must have exactly one propagationMethod set`,
      ),
    );
  }
  causes.push(
    invalid(
      passwordField,
      `${passwordField} is not supported yet: passwords are set through the QEMU guest agent, which kubevirt-ts does not use; use sshPublicKey with noCloud or configDrive`,
    ),
  );
  return causes;
}
