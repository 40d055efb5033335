import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { kubernetesRules, ruleWords } from "./iptables-cleanup.js";

// Shaped as `iptables -t nat -S` prints the rules of a kubelet and a kube-proxy.
const NAT_LISTING = `-P PREROUTING ACCEPT
-P POSTROUTING ACCEPT
-N KUBE-MARK-DROP
-N KUBE-POSTROUTING
-N OTHER-CHAIN
-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING
-A POSTROUTING -j OTHER-CHAIN
-A KUBE-MARK-DROP -j MARK --set-xmark 0x8000/0x8000
-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
`;

describe("iptables cleanup after the kubelet", () => {
  test("a quoted comment stays one word", () => {
    assert.deepEqual(
      ruleWords('-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES'),
      ["-A", "PREROUTING", "-m", "comment", "--comment", "kubernetes service portals", "-j", "KUBE-SERVICES"],
    );
  });

  test("only jumps from built-in chains into KUBE- chains, and the KUBE- chains, are removed", () => {
    const { jumps, chains } = kubernetesRules(NAT_LISTING);
    assert.deepEqual(chains, ["KUBE-MARK-DROP", "KUBE-POSTROUTING"]);
    assert.deepEqual(
      jumps.map((rule) => rule.join(" ")),
      [
        "PREROUTING -m comment --comment kubernetes service portals -j KUBE-SERVICES",
        "POSTROUTING -m comment --comment kubernetes postrouting rules -j KUBE-POSTROUTING",
      ],
    );
  });
});
