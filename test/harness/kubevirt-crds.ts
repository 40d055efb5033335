/**
 * The kubevirt.io CRDs on a test API server, as the components' test clusters need them: the
 * CRDs generated into crds/, created, then waited for until the API server serves every kind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";
import { KUBEVIRT_KINDS } from "../../api/index.js";
import { defineKind, type KubeClient, type KubeObject } from "../../runtime/index.js";
import { eventually } from "./api-server-fixture.js";

const crdKind = defineKind<KubeObject>({
  group: "apiextensions.k8s.io",
  version: "v1",
  kind: "CustomResourceDefinition",
  plural: "customresourcedefinitions",
  namespaced: false,
});

export async function installKubevirtCrds(client: KubeClient): Promise<void> {
  const directory = join(findRepositoryRoot(dirname(fileURLToPath(import.meta.url))), "crds");
  for (const file of readdirSync(directory).filter((name) => name.endsWith(".yaml"))) {
    await client.resource(crdKind).create(parse(readFileSync(join(directory, file), "utf8")) as KubeObject);
  }
  await eventually("the kubevirt.io CRDs served", async () => {
    for (const kind of KUBEVIRT_KINDS)
      await client.resource(defineKind(kind)).list({ namespace: "default", limit: 1 });
    return true;
  });
}
