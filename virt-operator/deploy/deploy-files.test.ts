import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";
import { startTestApiServer } from "../../test/harness/api-server-fixture.js";
import { CR_FILE, OPERATOR_FILE, renderDeployFiles } from "./deploy-files.js";
import { DEFAULT_REGISTRY, defaultTag } from "./release-defaults.js";

const ROOT = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
const DEPLOY = join(ROOT, "deploy");

function documentCount(fileName: string): number {
  return parseAllDocuments(readFileSync(join(DEPLOY, fileName), "utf8")).length;
}

describe("deploy/", () => {
  test("holds exactly what `npm run generate` writes now (fails when deploy/ is stale)", () => {
    for (const file of renderDeployFiles({ registry: DEFAULT_REGISTRY, tag: defaultTag(ROOT) })) {
      assert.equal(
        readFileSync(join(DEPLOY, file.fileName), "utf8"),
        file.text,
        `deploy/${file.fileName} is stale: run \`npm run generate\``,
      );
    }
  });

  test("the release images are the project's registry at v + package.json's version", () => {
    const text = readFileSync(join(DEPLOY, OPERATOR_FILE), "utf8");
    assert.match(
      text,
      new RegExp(`image: ${DEFAULT_REGISTRY}/virt-operator:${defaultTag(ROOT).replaceAll(".", "\\.")}\\n`),
    );
  });

  for (const mode of ["client-side", "server-side"] as const) {
    test(`kubectl apply (${mode}) accepts kubevirt-operator.yaml, then kubevirt-cr.yaml`, async () => {
      const cluster = await startTestApiServer();
      try {
        const apply = mode === "server-side" ? ["apply", "--server-side"] : ["apply"];
        const operator = await cluster.kubectl([...apply, "-f", join(DEPLOY, OPERATOR_FILE)]);
        assert.equal(operator.code, 0, operator.stderr);
        const established = await cluster.kubectl([
          ...["wait", "--for=condition=established", "crd/kubevirts.kubevirt.io", "--timeout=30s"],
        ]);
        assert.equal(established.code, 0, established.stderr);
        const cr = await cluster.kubectl([...apply, "-f", join(DEPLOY, CR_FILE)]);
        assert.equal(cr.code, 0, cr.stderr);

        const listed = await cluster.kubectl(["get", "-f", join(DEPLOY, OPERATOR_FILE), "-o", "name"]);
        assert.equal(listed.code, 0, listed.stderr);
        assert.equal(listed.stdout.trim().split("\n").length, documentCount(OPERATOR_FILE), listed.stdout);
        const stored = await cluster.kubectl(["get", "-n", "kubevirt", "kubevirt", "kubevirt", "-o", "json"]);
        assert.equal(stored.code, 0, stored.stderr);
        const kubevirt = JSON.parse(stored.stdout) as { spec: { imagePullPolicy?: string } };
        assert.equal(kubevirt.spec.imagePullPolicy, "IfNotPresent");

        if (mode === "client-side") {
          // Applying again changes nothing: what is stored is what the files say.
          const again = await cluster.kubectl(["apply", "-f", join(DEPLOY, OPERATOR_FILE)]);
          assert.equal(again.code, 0, again.stderr);
          const lines = again.stdout.trim().split("\n");
          assert.equal(lines.length, documentCount(OPERATOR_FILE));
          // Bindings excepted: the dev API server returns the defaulted `apiGroup: ""` of a
          // ServiceAccount subject, which kube-apiserver omits (omitempty), so kubectl re-sends
          // the subjects. The files rightly leave it out.
          for (const line of lines.filter((text) => !/^(cluster)?rolebinding\./.test(text))) {
            assert.match(line, / unchanged$/);
          }
        }
      } finally {
        await cluster.close();
      }
    });
  }
});
