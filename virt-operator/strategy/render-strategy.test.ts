import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Quantity } from "../../api/index.js";
import { createCertificateAuthority } from "../../runtime/tls/x509.js";
import { CA_LIFETIME_MS, validityFrom } from "../certificates/certificate-lifetimes.js";
import { findRendered, TEST_OPERATOR, testKubeVirt } from "../testing/strategy-fixtures.js";
import { TEST_TRUST } from "../testing/test-trust.js";
import {
  IDENTIFIER_ANNOTATION,
  type InstallStrategy,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  type ManagedObject,
  REGISTRY_ANNOTATION,
  VERSION_ANNOTATION,
} from "./install-strategy.js";
import { renderStrategy } from "./render-strategy.js";

interface Container {
  name: string;
  image: string;
  imagePullPolicy?: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  readinessProbe?: { httpGet?: { path: string; port: number } };
  livenessProbe?: { httpGet?: { path: string; port: number } };
}

interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    serviceAccountName: string;
    priorityClassName: string;
    nodeSelector?: Record<string, string>;
    tolerations?: unknown[];
    affinity?: unknown;
    imagePullSecrets?: unknown[];
  };
}

function templateOf(object: ManagedObject): PodTemplate {
  return (object.spec as { template: PodTemplate }).template;
}

function controllerOf(strategy: InstallStrategy): PodTemplate {
  return templateOf(findRendered(strategy, "Deployment", "virt-controller"));
}

function handlerOf(strategy: InstallStrategy): PodTemplate {
  return templateOf(findRendered(strategy, "DaemonSet", "virt-handler"));
}

function firstContainer(template: PodTemplate): Container {
  const container = template.spec.containers[0];
  assert.ok(container);
  return container;
}

describe("renderStrategy: objects and order", () => {
  const strategy = renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST);

  test("CRDs, ServiceAccounts, RBAC, PriorityClass, Service, Deployments, DaemonSet, then the API registrations", () => {
    const kinds = strategy.objects.map((object) => object.kind);
    const order = [
      "CustomResourceDefinition",
      "ServiceAccount",
      "ClusterRole",
      "ClusterRoleBinding",
      "Role",
      "RoleBinding",
      "PriorityClass",
      "Service",
      "Deployment",
      "DaemonSet",
      "APIService",
      "MutatingWebhookConfiguration",
      "ValidatingWebhookConfiguration",
    ];
    const runs = kinds.filter((kind, index) => kinds[index - 1] !== kind);
    assert.deepEqual(runs, order, "each kind in one run, in apply order");
  });

  test("the kubevirt.io CRDs of api/ (and CDI's DataVolume), without KubeVirt's own", () => {
    const crds = strategy.objects.filter((object) => object.kind === "CustomResourceDefinition");
    assert.deepEqual(crds.map((crd) => crd.metadata.name).sort(), [
      "datavolumes.cdi.kubevirt.io",
      "virtualmachineclusterinstancetypes.instancetype.kubevirt.io",
      "virtualmachineclusterpreferences.instancetype.kubevirt.io",
      "virtualmachineinstancemigrations.kubevirt.io",
      "virtualmachineinstancereplicasets.kubevirt.io",
      "virtualmachineinstances.kubevirt.io",
      "virtualmachineinstancetypes.instancetype.kubevirt.io",
      "virtualmachinepools.pool.kubevirt.io",
      "virtualmachinepreferences.instancetype.kubevirt.io",
      "virtualmachines.kubevirt.io",
    ]);
    for (const crd of crds) assert.equal(crd.metadata.labels["kubevirt.io"], "", "KubeVirt's CRD label kept");
  });

  test("KubeVirt's names: accounts, roles, bindings, priority class, workloads", () => {
    const names = strategy.objects
      .filter((object) => object.kind !== "CustomResourceDefinition")
      .map((object) => `${object.kind}/${object.metadata.namespace ?? ""}/${object.metadata.name}`);
    assert.deepEqual(names, [
      "ServiceAccount/kubevirt/kubevirt-apiserver",
      "ServiceAccount/kubevirt/kubevirt-controller",
      "ServiceAccount/kubevirt/kubevirt-handler",
      "ClusterRole//kubevirt-apiserver",
      "ClusterRole//kubevirt-controller",
      "ClusterRole//kubevirt-handler",
      "ClusterRole//kubevirt.io:admin",
      "ClusterRole//kubevirt.io:edit",
      "ClusterRole//kubevirt.io:view",
      "ClusterRole//instancetype.kubevirt.io:view",
      "ClusterRoleBinding//kubevirt-apiserver",
      "ClusterRoleBinding//kubevirt-controller",
      "ClusterRoleBinding//kubevirt-handler",
      "ClusterRoleBinding//kubevirt-apiserver-auth-delegator",
      "ClusterRoleBinding//instancetype.kubevirt.io:view",
      "Role/kubevirt/kubevirt-apiserver",
      "Role/kubevirt/kubevirt-controller",
      "Role/kubevirt/kubevirt-handler",
      "RoleBinding/kubevirt/kubevirt-apiserver",
      "RoleBinding/kubevirt/kubevirt-controller",
      "RoleBinding/kubevirt/kubevirt-handler",
      "RoleBinding/kube-system/kubevirt-apiserver-auth-reader",
      "PriorityClass//kubevirt-cluster-critical",
      "Service/kubevirt/virt-api",
      "Deployment/kubevirt/virt-api",
      "Deployment/kubevirt/virt-controller",
      "DaemonSet/kubevirt/virt-handler",
      "APIService//v1.subresources.kubevirt.io",
      "MutatingWebhookConfiguration//virt-api-mutator",
      "ValidatingWebhookConfiguration//virt-api-validator",
    ]);
    assert.equal(findRendered(strategy, "PriorityClass", "kubevirt-cluster-critical").value, 1_000_000_000);
  });

  test("every object: managed-by and KubeVirt's labels, the strategy's annotations", () => {
    for (const object of strategy.objects) {
      const where = `${object.kind} ${object.metadata.name}`;
      assert.equal(object.metadata.labels[MANAGED_BY_LABEL], MANAGED_BY_VALUE, where);
      assert.equal(object.metadata.labels["app.kubernetes.io/component"], "kubevirt", where);
      assert.equal(object.metadata.labels["app.kubernetes.io/part-of"], "kubevirt-ts", where);
      assert.equal(object.metadata.labels["app.kubernetes.io/version"], "v0.1.0", where);
      assert.deepEqual(
        object.metadata.annotations,
        {
          [VERSION_ANNOTATION]: "v0.1.0",
          [REGISTRY_ANNOTATION]: "ghcr.io/kubevirt-ts",
          [IDENTIFIER_ANNOTATION]: strategy.id,
        },
        where,
      );
    }
  });

  test("bindings tie each component's account to its role", () => {
    // Kubernetes' roles, and the instancetype catalogue's reader, bound to a group (rbac.test.ts).
    const kubernetesRoles = new Set([
      "system:auth-delegator",
      "extension-apiserver-authentication-reader",
      "instancetype.kubevirt.io:view",
    ]);
    for (const kind of ["ClusterRoleBinding", "RoleBinding"]) {
      const components = strategy.objects.filter(
        (object) => object.kind === kind && !kubernetesRoles.has((object.roleRef as { name: string }).name),
      );
      assert.equal(components.length, 3, kind);
      for (const binding of components) {
        const roleKind = kind === "RoleBinding" ? "Role" : "ClusterRole";
        assert.deepEqual(binding.roleRef, {
          apiGroup: "rbac.authorization.k8s.io",
          kind: roleKind,
          name: binding.metadata.name,
        });
        assert.deepEqual(binding.subjects, [
          { kind: "ServiceAccount", name: binding.metadata.name, namespace: "kubevirt" },
        ]);
        findRendered(strategy, roleKind, binding.metadata.name);
        findRendered(strategy, "ServiceAccount", binding.metadata.name);
      }
    }
  });
});

describe("renderStrategy: the workloads", () => {
  const strategy = renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST);

  test("virt-controller: 2 replicas, KubeVirt's labels, its account and priority, images and flags", () => {
    const deployment = findRendered(strategy, "Deployment", "virt-controller");
    const spec = deployment.spec as { replicas: number; selector: unknown };
    assert.equal(spec.replicas, 2);
    assert.deepEqual(spec.selector, { matchLabels: { "kubevirt.io": "virt-controller" } });
    assert.equal(deployment.metadata.labels["kubevirt.io"], "virt-controller");
    const template = controllerOf(strategy);
    assert.equal(template.metadata.labels["kubevirt.io"], "virt-controller");
    assert.equal(template.spec.serviceAccountName, "kubevirt-controller");
    assert.equal(template.spec.priorityClassName, "kubevirt-cluster-critical");
    const container = firstContainer(template);
    assert.equal(container.image, "ghcr.io/kubevirt-ts/virt-controller:v0.1.0");
    assert.deepEqual(container.args, [
      "--namespace",
      "kubevirt",
      "--launcher-image",
      "ghcr.io/kubevirt-ts/virt-launcher:v0.1.0",
      "--importer-image",
      "ghcr.io/kubevirt-ts/cdi-importer:v0.1.0",
      "--address",
      "$(POD_IP)",
    ]);
    assert.deepEqual(container.env, [
      { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
    ]);
    // Probes on the plain health port; metrics on KubeVirt's 8443, over HTTPS only.
    assert.deepEqual(container.readinessProbe?.httpGet, { path: "/readyz", port: 8081 });
    assert.deepEqual(container.livenessProbe?.httpGet, { path: "/healthz", port: 8081 });
    assert.deepEqual((container as { ports?: unknown }).ports, [
      { name: "metrics", containerPort: 8443, protocol: "TCP" },
    ]);
    assert.equal(container.imagePullPolicy, undefined, "no policy in the CR: the API server's default");
  });

  test("virt-handler: privileged, host paths at the same paths, node name and pod IP, rolling update", () => {
    const daemonSet = findRendered(strategy, "DaemonSet", "virt-handler");
    const spec = daemonSet.spec as { updateStrategy: { type: string } };
    assert.equal(spec.updateStrategy.type, "RollingUpdate");
    const template = handlerOf(strategy);
    assert.equal(template.metadata.labels["kubevirt.io"], "virt-handler");
    assert.equal(template.spec.serviceAccountName, "kubevirt-handler");
    const container = firstContainer(template) as Container & {
      securityContext: { privileged: boolean };
      volumeMounts: { name: string; mountPath: string }[];
    };
    assert.equal(container.image, "ghcr.io/kubevirt-ts/virt-handler:v0.1.0");
    assert.deepEqual(container.args, ["--namespace", "kubevirt"]);
    assert.equal(container.securityContext.privileged, true);
    const env = Object.fromEntries(
      (container.env ?? []).map((variable) => [
        variable.name,
        variable.value ?? variable.valueFrom?.fieldRef?.fieldPath,
      ]),
    );
    assert.deepEqual(env, { NODE_NAME: "spec.nodeName", POD_IP: "status.podIP", UV_THREADPOOL_SIZE: "8" });
    const volumes = (
      template.spec as unknown as { volumes: { name: string; hostPath: { path: string; type: string } }[] }
    ).volumes;
    const hostPaths = Object.fromEntries(
      volumes.map((volume) => [volume.hostPath.path, volume.hostPath.type]),
    );
    assert.equal(hostPaths["/var/run/libvirt"] !== undefined, true);
    assert.equal(hostPaths["/dev/kvm"], "", 'type "": nodes without KVM still run virt-handler');
    assert.equal(hostPaths["/var/lib/kubevirt-ts"] !== undefined, true);
    assert.equal(hostPaths["/var/lib/kubelet/pods"], "", "launcher pods' secret volumes are read there");
    // Writable (the launcher's network volume is written there), and seeing the volumes the
    // kubelet mounts after virt-handler started (a secret volume is a tmpfs mounted later: without
    // propagation virt-handler's container would see only its empty mount point).
    const kubeletPods = container.volumeMounts.find((mount) => mount.mountPath === "/var/lib/kubelet/pods") as
      | { readOnly?: boolean; mountPropagation?: string }
      | undefined;
    assert.equal(kubeletPods?.readOnly, undefined);
    assert.equal(kubeletPods?.mountPropagation, "HostToContainer");
    assert.equal(hostPaths["/etc/containerd/certs.d"], "", "the node's registry mirrors, where present");
    for (const mount of container.volumeMounts) {
      const volume = volumes.find((candidate) => candidate.name === mount.name);
      assert.equal(mount.mountPath, volume?.hostPath.path, `${mount.name} is mounted at its host path`);
    }
    assert.deepEqual(container.readinessProbe?.httpGet, { path: "/readyz", port: 8081 });
    assert.deepEqual((container as { ports?: unknown }).ports, [
      { name: "metrics", containerPort: 8443, protocol: "TCP" },
      { name: "console", containerPort: 8186, protocol: "TCP" },
    ]);
  });

  test("placement defaults: Linux nodes, the CriticalAddonsOnly toleration, virt-controller spread over nodes", () => {
    for (const template of [controllerOf(strategy), handlerOf(strategy)]) {
      assert.deepEqual(template.spec.nodeSelector, { "kubernetes.io/os": "linux" });
      assert.deepEqual(template.spec.tolerations, [{ key: "CriticalAddonsOnly", operator: "Exists" }]);
    }
    assert.match(JSON.stringify(controllerOf(strategy).spec.affinity), /podAntiAffinity/);
    assert.equal(handlerOf(strategy).spec.affinity, undefined);
  });

  test("resource quantities in canonical form (a real API server rewrites others; the dev one keeps them)", () => {
    for (const template of [controllerOf(strategy), handlerOf(strategy)]) {
      const container = firstContainer(template) as Container & {
        resources: { requests: Record<string, string> };
      };
      const { cpu = "", memory = "" } = container.resources.requests;
      assert.equal(Quantity.fromMilli(Quantity.parse(cpu).milliValue()).text, cpu);
      assert.equal(Quantity.fromInteger(Quantity.parse(memory).valueBigInt(), "BinarySI").text, memory);
    }
  });

  test("pod templates carry no strategy annotation, version or identifier: only what should roll pods", () => {
    for (const template of [controllerOf(strategy), handlerOf(strategy)]) {
      assert.equal(template.metadata.annotations, undefined);
      const text = JSON.stringify(template);
      assert.ok(!text.includes(strategy.id));
      assert.ok(!text.includes("install-strategy"));
      assert.ok(!text.includes(MANAGED_BY_LABEL));
    }
  });
});

describe("renderStrategy: the KubeVirt CR's overrides", () => {
  test("imageRegistry and imageTag replace the operator's in every image, the annotations and the strategy", () => {
    const strategy = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({ imageRegistry: "registry.example/kv", imageTag: "v9" }),
      TEST_TRUST,
    );
    assert.equal(strategy.registry, "registry.example/kv");
    assert.equal(strategy.version, "v9");
    assert.equal(firstContainer(controllerOf(strategy)).image, "registry.example/kv/virt-controller:v9");
    assert.ok(firstContainer(controllerOf(strategy)).args?.includes("registry.example/kv/virt-launcher:v9"));
    assert.equal(firstContainer(handlerOf(strategy)).image, "registry.example/kv/virt-handler:v9");
    for (const object of strategy.objects) {
      assert.equal(object.metadata.annotations[VERSION_ANNOTATION], "v9");
      assert.equal(object.metadata.annotations[REGISTRY_ANNOTATION], "registry.example/kv");
    }
  });

  test("empty imageRegistry and imageTag mean unset, as in KubeVirt", () => {
    const strategy = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({ imageRegistry: "", imageTag: "" }),
      TEST_TRUST,
    );
    assert.equal(strategy.registry, TEST_OPERATOR.registry);
    assert.equal(strategy.version, TEST_OPERATOR.version);
  });

  test("imagePullPolicy and imagePullSecrets reach both workloads", () => {
    const strategy = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({ imagePullPolicy: "Always", imagePullSecrets: [{ name: "pull-secret" }] }),
      TEST_TRUST,
    );
    for (const template of [controllerOf(strategy), handlerOf(strategy)]) {
      assert.equal(firstContainer(template).imagePullPolicy, "Always");
      assert.deepEqual(template.spec.imagePullSecrets, [{ name: "pull-secret" }]);
    }
  });

  test("infra placement and replicas go to virt-controller, workloads placement to virt-handler", () => {
    const infraAffinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: "infra", operator: "Exists" }] }],
        },
      },
    };
    const strategy = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({
        infra: {
          replicas: 3,
          nodePlacement: {
            nodeSelector: { role: "infra" },
            affinity: infraAffinity,
            tolerations: [{ key: "infra", operator: "Exists", effect: "NoSchedule" }],
          },
        },
        workloads: { nodePlacement: { nodeSelector: { role: "vms" } } },
      }),
      TEST_TRUST,
    );
    const controller = controllerOf(strategy);
    assert.equal(
      (findRendered(strategy, "Deployment", "virt-controller").spec as { replicas: number }).replicas,
      3,
    );
    assert.deepEqual(controller.spec.nodeSelector, { "kubernetes.io/os": "linux", role: "infra" });
    assert.deepEqual(
      controller.spec.affinity,
      infraAffinity,
      "the CR's affinity replaces the default spread",
    );
    assert.deepEqual(controller.spec.tolerations, [
      { key: "CriticalAddonsOnly", operator: "Exists" },
      { key: "infra", operator: "Exists", effect: "NoSchedule" },
    ]);
    const handler = handlerOf(strategy);
    assert.deepEqual(handler.spec.nodeSelector, { "kubernetes.io/os": "linux", role: "vms" });
    assert.deepEqual(handler.spec.tolerations, [{ key: "CriticalAddonsOnly", operator: "Exists" }]);
  });

  test("the rendered objects share nothing with the CR", () => {
    const cr = testKubeVirt({
      infra: { nodePlacement: { tolerations: [{ key: "a", operator: "Exists" }] } },
    });
    const before = structuredClone(cr);
    const strategy = renderStrategy(TEST_OPERATOR, cr, TEST_TRUST);
    (controllerOf(strategy).spec.tolerations as { key: string }[])[1]!.key = "changed";
    assert.deepEqual(cr, before);
  });
});

describe("renderStrategy: the id", () => {
  const base = renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST);

  test("is a sha256 (hex) and the same for the same operator and CR", () => {
    assert.match(base.id, /^[0-9a-f]{64}$/);
    assert.equal(renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST).id, base.id);
    assert.deepEqual(renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST).objects, base.objects);
  });

  test("stays when the CR changes only what the components read at run time", () => {
    const configured = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({
        configuration: { developerConfiguration: { useEmulation: true, featureGates: ["Snapshot"] } },
      }),
      TEST_TRUST,
    );
    assert.equal(configured.id, base.id);
  });

  test("changes with the CA bundle, and only in the objects that carry it", async () => {
    const otherCa = await createCertificateAuthority(
      "kubevirt.io@other",
      validityFrom(Date.now(), CA_LIFETIME_MS),
    );
    const rotated = renderStrategy(TEST_OPERATOR, testKubeVirt(), {
      caBundlePem: `${otherCa.certPem}\n${TEST_TRUST.caBundlePem}`,
    });
    assert.notEqual(rotated.id, base.id);
    const withoutIds = (strategy: InstallStrategy) =>
      strategy.objects.map((object) => {
        const { [IDENTIFIER_ANNOTATION]: _id, ...annotations } = object.metadata.annotations;
        return JSON.stringify({ ...object, metadata: { ...object.metadata, annotations } });
      });
    const changed = withoutIds(rotated)
      .map((text, index) => (text === withoutIds(base)[index] ? undefined : rotated.objects[index]?.kind))
      .filter((kind) => kind !== undefined);
    assert.deepEqual(changed, [
      "APIService",
      "MutatingWebhookConfiguration",
      "ValidatingWebhookConfiguration",
    ]);
  });

  test("changes with the tag, the registry, the pull policy, a placement and the namespace", () => {
    const variants: [string, InstallStrategy][] = [
      ["tag", renderStrategy(TEST_OPERATOR, testKubeVirt({ imageTag: "v0.2.0" }), TEST_TRUST)],
      ["registry", renderStrategy(TEST_OPERATOR, testKubeVirt({ imageRegistry: "quay.io/x" }), TEST_TRUST)],
      ["pull policy", renderStrategy(TEST_OPERATOR, testKubeVirt({ imagePullPolicy: "Never" }), TEST_TRUST)],
      [
        "placement",
        renderStrategy(
          TEST_OPERATOR,
          testKubeVirt({ workloads: { nodePlacement: { nodeSelector: { a: "b" } } } }),
          TEST_TRUST,
        ),
      ],
      ["namespace", renderStrategy({ ...TEST_OPERATOR, namespace: "elsewhere" }, testKubeVirt(), TEST_TRUST)],
    ];
    const ids = new Set([base.id]);
    for (const [what, variant] of variants) {
      assert.notEqual(variant.id, base.id, what);
      ids.add(variant.id);
    }
    assert.equal(ids.size, variants.length + 1, "every variant has an id of its own");
  });

  test("a workloads placement rolls virt-handler only: virt-controller's pod template stays the same", () => {
    const placed = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({ workloads: { nodePlacement: { nodeSelector: { a: "b" } } } }),
      TEST_TRUST,
    );
    assert.deepEqual(controllerOf(placed), controllerOf(base));
    assert.notDeepEqual(handlerOf(placed), handlerOf(base));
  });
});
