import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { defaultVirtualMachineInstanceSpec, KUBEVIRT_DEFAULTS } from "../../api/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { LAUNCHER, renderLauncherPod } from "./launcher-pod.js";

type VmiSpec = VirtualMachineInstance["spec"];
type Volume = NonNullable<VmiSpec["volumes"]>[number];

function launcherPodOf(volumes: Volume[], accessCredentials?: VmiSpec["accessCredentials"]) {
  const spec = smallVmiSpec();
  const withVolumes: VmiSpec = {
    ...spec,
    ...(accessCredentials === undefined ? {} : { accessCredentials }),
    domain: {
      ...spec.domain,
      // No pod network: these tests look at the Secrets' volumes alone.
      devices: {
        disks: volumes.map((volume) => ({ name: volume.name, disk: { bus: "virtio" } })),
        autoattachPodInterface: false,
      },
    },
    volumes,
  };
  const vmi: VirtualMachineInstance = {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstance",
    metadata: { name: "vm1", namespace: "tenant", uid: "0b3c9e5e-0000-4000-8000-000000000001" },
    spec: withVolumes,
  };
  const defaulted = defaultVirtualMachineInstanceSpec(withVolumes, KUBEVIRT_DEFAULTS, "vm1");
  return renderLauncherPod(vmi, defaulted, {
    image: "virt-launcher",
    useEmulation: true,
    cpuAllocationRatio: 10,
  });
}

const compute = (pod: ReturnType<typeof launcherPodOf>) =>
  pod.spec?.containers.find((container) => container.name === LAUNCHER.container);

describe("launcher pod volumes", () => {
  test("a containerDisk-only VMI gets no volumes and no mounts", () => {
    const pod = launcherPodOf([{ name: "containerdisk", containerDisk: { image: "localhost/guest" } }]);
    assert.equal(pod.spec?.volumes, undefined);
    assert.equal(compute(pod)?.volumeMounts, undefined);
  });

  test("claims: a persistentVolumeClaim or dataVolume volume is a pod volume of its claim; a hotpluggable one is not", () => {
    const pod = launcherPodOf([
      { name: "root", persistentVolumeClaim: { claimName: "root-claim" } },
      { name: "imported", dataVolume: { name: "imported-dv" } },
      { name: "hot", persistentVolumeClaim: { claimName: "hot-claim", hotpluggable: true } },
      { name: "hot-dv", dataVolume: { name: "hot-dv", hotpluggable: true } },
    ]);
    assert.deepEqual(pod.spec?.volumes, [
      { name: "root", persistentVolumeClaim: { claimName: "root-claim" } },
      { name: "imported", persistentVolumeClaim: { claimName: "imported-dv" } },
    ]);
    assert.deepEqual(
      compute(pod)?.volumeMounts?.map((mount) => mount.name),
      ["root", "imported"],
    );
  });

  test("cloudInitNoCloud secretRef and networkDataSecretRef: KubeVirt's -udata / -ndata secret volumes and mounts", () => {
    const pod = launcherPodOf([
      {
        name: "cloudinit",
        cloudInitNoCloud: {
          secretRef: { name: "user-secret" },
          networkDataSecretRef: { name: "net-secret" },
        },
      },
    ]);
    assert.deepEqual(pod.spec?.volumes, [
      { name: "cloudinit-udata", secret: { secretName: "user-secret" } },
      { name: "cloudinit-ndata", secret: { secretName: "net-secret" } },
    ]);
    const dir = "/var/run/kubevirt-private/secret/cloudinit";
    assert.deepEqual(compute(pod)?.volumeMounts, [
      { name: "cloudinit-udata", mountPath: `${dir}/userdata`, subPath: "userdata", readOnly: true },
      { name: "cloudinit-udata", mountPath: `${dir}/userData`, subPath: "userData", readOnly: true },
      { name: "cloudinit-ndata", mountPath: `${dir}/networkdata`, subPath: "networkdata", readOnly: true },
      { name: "cloudinit-ndata", mountPath: `${dir}/networkData`, subPath: "networkData", readOnly: true },
    ]);
  });

  test("cloudInitConfigDrive likewise; inline data gets no volume", () => {
    const pod = launcherPodOf([
      { name: "cd", cloudInitConfigDrive: { secretRef: { name: "s" }, networkData: "{}" } },
      { name: "inline", cloudInitNoCloud: { userData: "#cloud-config\n" } },
    ]);
    assert.deepEqual(pod.spec?.volumes, [{ name: "cd-udata", secret: { secretName: "s" } }]);
    assert.deepEqual(
      compute(pod)?.volumeMounts?.map((mount) => mount.mountPath),
      ["/var/run/kubevirt-private/secret/cd/userdata", "/var/run/kubevirt-private/secret/cd/userData"],
    );
  });

  test("accessCredentials through cloud-init: one <secret>-access-cred volume per Secret, mounted whole", () => {
    const key = (secretName: string, propagationMethod: object) => ({
      sshPublicKey: { source: { secret: { secretName } }, propagationMethod },
    });
    const pod = launcherPodOf(
      [{ name: "ci", cloudInitNoCloud: { userData: "#cloud-config\n" } }],
      [
        key("team-keys", { noCloud: {} }),
        key("team-keys", { noCloud: {} }),
        key("ops-keys", { configDrive: {} }),
        key("dotted.name", { noCloud: {} }),
      ],
    );
    assert.deepEqual(pod.spec?.volumes, [
      { name: "team-keys-access-cred", secret: { secretName: "team-keys" } },
      { name: "ops-keys-access-cred", secret: { secretName: "ops-keys" } },
    ]);
    assert.deepEqual(compute(pod)?.volumeMounts, [
      {
        name: "team-keys-access-cred",
        mountPath: "/var/run/kubevirt-private/secret/team-keys-access-cred",
        readOnly: true,
      },
      {
        name: "ops-keys-access-cred",
        mountPath: "/var/run/kubevirt-private/secret/ops-keys-access-cred",
        readOnly: true,
      },
    ]);
  });

  test("a reference whose pod volume name is no DNS label gets no volume (the pod stays creatable)", () => {
    const long = "v".repeat(58); // 58 + "-udata" = 64 characters
    const pod = launcherPodOf([
      { name: long, cloudInitNoCloud: { secretRef: { name: "s" } } },
      { name: "Upper", cloudInitNoCloud: { secretRef: { name: "s" } } },
      { name: "noname", cloudInitNoCloud: { secretRef: {} } },
      { name: "ok", cloudInitNoCloud: { secretRef: { name: "s" } } },
    ]);
    assert.deepEqual(
      pod.spec?.volumes?.map((volume) => volume.name),
      ["ok-udata"],
    );
  });

  test("a masquerade, bridge or passt VMI's launcher gets its pod's uid and the network volume; one without a NIC only its uid", () => {
    const spec = smallVmiSpec();
    const vmiWith = (binding: object): VirtualMachineInstance => ({
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name: "vm1", namespace: "tenant", uid: "0b3c9e5e-0000-4000-8000-000000000001" },
      spec: {
        ...spec,
        domain: { ...spec.domain, devices: { interfaces: [{ name: "default", ...binding }] } },
        networks: [{ name: "default", pod: {} }],
      },
    });
    const render = (vmi: VirtualMachineInstance) =>
      renderLauncherPod(vmi, defaultVirtualMachineInstanceSpec(vmi.spec, KUBEVIRT_DEFAULTS, "vm1"), {
        image: "virt-launcher",
        useEmulation: true,
        cpuAllocationRatio: 10,
      });
    const masquerade = render(vmiWith({ masquerade: {} }));
    assert.deepEqual(compute(masquerade)?.env, [
      { name: "KUBEVIRT_LAUNCHER_POD_UID", valueFrom: { fieldRef: { fieldPath: "metadata.uid" } } },
    ]);
    assert.deepEqual(masquerade.spec?.volumes, [{ name: "kubevirt-network", emptyDir: {} }]);
    assert.deepEqual(compute(masquerade)?.volumeMounts, [
      { name: "kubevirt-network", mountPath: "/var/run/kubevirt-network" },
    ]);
    const bridge = render(vmiWith({ bridge: {} }));
    assert.deepEqual(bridge.spec?.volumes, [{ name: "kubevirt-network", emptyDir: {} }]);
    assert.equal(compute(bridge)?.env?.[0]?.name, "KUBEVIRT_LAUNCHER_POD_UID");
    const passt = render(vmiWith({ passtBinding: {} }));
    assert.deepEqual(passt.spec?.volumes, [{ name: "kubevirt-network", emptyDir: {} }]);
    assert.equal(compute(passt)?.env?.[0]?.name, "KUBEVIRT_LAUNCHER_POD_UID");
    const noNic: VirtualMachineInstance = {
      ...vmiWith({}),
      spec: {
        ...spec,
        domain: { ...spec.domain, devices: { interfaces: [], autoattachPodInterface: false } },
      },
    };
    const plain = render(noNic);
    // Its uid all the same: virt-handler finds the pod's cgroups through its processes.
    assert.equal(compute(plain)?.env?.[0]?.name, "KUBEVIRT_LAUNCHER_POD_UID");
    assert.equal(plain.spec?.volumes, undefined);
    // The guest's DHCP server needs port 67 and a raw socket (found on a real kubelet, where the
    // launcher runs as its image's user 65532); a launcher without a NIC asks for nothing.
    assert.deepEqual(compute(masquerade)?.securityContext, {
      capabilities: { add: ["NET_BIND_SERVICE", "NET_RAW"] },
    });
    assert.equal(compute(plain)?.securityContext, undefined);
  });

  test("httpGet and tcpSocket probes go onto the compute container, with KubeVirt's 10 s startup delay", () => {
    const spec = smallVmiSpec();
    const vmi: VirtualMachineInstance = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name: "vm1", namespace: "tenant", uid: "0b3c9e5e-0000-4000-8000-000000000001" },
      spec: {
        ...spec,
        readinessProbe: { httpGet: { port: 80, path: "/healthz" }, periodSeconds: 2 },
        livenessProbe: { tcpSocket: { port: 22 }, initialDelaySeconds: 5, failureThreshold: 4 },
      },
    };
    const pod = renderLauncherPod(
      vmi,
      defaultVirtualMachineInstanceSpec(vmi.spec, KUBEVIRT_DEFAULTS, "vm1"),
      {
        image: "virt-launcher",
        useEmulation: true,
        cpuAllocationRatio: 10,
      },
    );
    assert.deepEqual(compute(pod)?.readinessProbe, {
      httpGet: { port: 80, path: "/healthz" },
      initialDelaySeconds: 10,
      timeoutSeconds: 1,
      periodSeconds: 2,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual(compute(pod)?.livenessProbe, {
      tcpSocket: { port: 22 },
      initialDelaySeconds: 15,
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 4,
    });
  });

  test("the pod is the VMI's: same namespace (its secret volumes can name only that namespace's Secrets)", () => {
    const pod = launcherPodOf([{ name: "ci", cloudInitNoCloud: { secretRef: { name: "s" } } }]);
    assert.equal(pod.metadata?.namespace, "tenant");
    assert.equal(pod.metadata?.ownerReferences?.[0]?.uid, "0b3c9e5e-0000-4000-8000-000000000001");
    assert.equal(pod.spec?.automountServiceAccountToken, false);
  });
});

describe("launcher pod's vmi.kubevirt.io/id label", () => {
  const idLabelOf = (name: string) => {
    const spec = smallVmiSpec();
    const vmi: VirtualMachineInstance = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name, namespace: "tenant", labels: { app: "web" } },
      spec,
    };
    const pod = renderLauncherPod(vmi, defaultVirtualMachineInstanceSpec(spec, KUBEVIRT_DEFAULTS, name), {
      image: "virt-launcher",
      useEmulation: true,
      cpuAllocationRatio: 10,
    });
    return pod.metadata?.labels;
  };

  test("a short name is the id itself, beside the VMI's own labels", () => {
    const labels = idLabelOf("vm1");
    assert.equal(labels?.["vmi.kubevirt.io/id"], "vm1");
    assert.equal(labels?.app, "web");
  });

  test("a name over 63 characters: its first 54, '-', and 8 hex of its SHA-1 (KubeVirt's value)", () => {
    // `printf %s "$(printf 'x%.0s' $(seq 70))" | sha1sum` starts bbaad84b.
    assert.equal(idLabelOf("x".repeat(70))?.["vmi.kubevirt.io/id"], `${"x".repeat(54)}-bbaad84b`);
    assert.equal(idLabelOf("n".repeat(63))?.["vmi.kubevirt.io/id"], "n".repeat(63));
  });
});

describe("launcher pod's scheduling and DNS, from the VMI", () => {
  const podOf = (extra: Partial<VmiSpec>) => {
    const spec: VmiSpec = { ...smallVmiSpec(), ...extra };
    const vmi: VirtualMachineInstance = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name: "vm1", namespace: "tenant" },
      spec,
    };
    return renderLauncherPod(vmi, defaultVirtualMachineInstanceSpec(spec, KUBEVIRT_DEFAULTS, "vm1"), {
      image: "virt-launcher",
      useEmulation: true,
      cpuAllocationRatio: 10,
    });
  };

  test("topologySpreadConstraints, dnsPolicy and dnsConfig go onto the pod as written", () => {
    const spread = [
      { maxSkew: 1, topologyKey: "kubernetes.io/hostname", whenUnsatisfiable: "DoNotSchedule" },
    ];
    const dnsConfig = { nameservers: ["10.0.0.53"], searches: ["example.test"] };
    const pod = podOf({ topologySpreadConstraints: spread, dnsPolicy: "None", dnsConfig });
    assert.deepEqual(pod.spec?.topologySpreadConstraints, spread);
    assert.equal(pod.spec?.dnsPolicy, "None");
    assert.deepEqual(pod.spec?.dnsConfig, dnsConfig);
  });

  test("a subdomain names the pod under it, by the guest's hostname; without one the pod keeps its own", () => {
    const named = podOf({ subdomain: "db", hostname: "primary" });
    assert.deepEqual([named.spec?.subdomain, named.spec?.hostname], ["db", "primary"]);
    assert.deepEqual([podOf({ subdomain: "db" }).spec?.hostname], ["vm1"]);
    const plain = podOf({});
    assert.deepEqual(
      [plain.spec?.subdomain, plain.spec?.hostname, plain.spec?.dnsPolicy],
      [undefined, undefined, undefined],
    );
  });
});

describe("launcher pod placement", () => {
  const podFor = (architecture: string | undefined) => {
    const spec: VmiSpec = { ...smallVmiSpec(), ...(architecture === undefined ? {} : { architecture }) };
    const vmi: VirtualMachineInstance = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name: "vm1", namespace: "tenant", uid: "0b3c9e5e-0000-4000-8000-000000000002" },
      spec,
    };
    const defaulted = defaultVirtualMachineInstanceSpec(spec, KUBEVIRT_DEFAULTS, "vm1");
    return renderLauncherPod(vmi, defaulted, {
      image: "virt-launcher",
      useEmulation: true,
      cpuAllocationRatio: 10,
    });
  };

  test("the pod asks for a node of the VMI's architecture, amd64 when the VMI does not say", () => {
    assert.equal(podFor(undefined).spec?.nodeSelector?.["kubernetes.io/arch"], "amd64");
    assert.equal(podFor("arm64").spec?.nodeSelector?.["kubernetes.io/arch"], "arm64");
  });
});
