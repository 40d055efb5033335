import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type DomainDefinition, domainFromXml, domainToXml } from "../../libvirt/domain-xml/index.js";
import { taggedNode, vmiKeyOfDomainName, withHandlerTag } from "./domain-tag.js";

describe("domain tags", () => {
  test("the node tag survives XML and replaces an older tag", () => {
    const bare: DomainDefinition = {
      type: "qemu",
      name: "ns_vm",
      memory: { value: 64, unit: "MiB" },
      vcpu: { count: 1 },
      os: { type: "hvm" },
      devices: {},
    };
    const tagged = withHandlerTag(withHandlerTag(bare, "old-node"), "node-a");
    assert.equal(tagged.metadata?.length, 1);
    assert.equal(taggedNode(domainFromXml(domainToXml(tagged))), "node-a");
    assert.equal(taggedNode(bare), undefined);
  });

  test("KubeVirt domain names map back to VMI keys; other names do not", () => {
    assert.equal(vmiKeyOfDomainName("default_vm-1"), "default/vm-1");
    assert.equal(vmiKeyOfDomainName("ns_name_with_more"), "ns/name_with_more");
    for (const name of ["plain", "_x", "x_", "test"]) assert.equal(vmiKeyOfDomainName(name), undefined);
  });
});
