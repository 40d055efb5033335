// Sequential I/O inside the test guest (busybox, TCG): 128 MiB written with `dd oflag=direct`, then
// read back with `dd iflag=direct`, on an emptyDisk (a qcow2 in virt-handler's state directory) and
// on a disk on a PersistentVolumeClaim (a raw disk.img on the local-path volume), 256Mi each. The
// guest times each dd by its own clock in µs (busybox adjtimex: Debian's busybox-static dd prints no
// rate, `date` has no %N and `time` counts 10 ms steps, too coarse for 128 MiB in well under a
// second); the host's time around the console command is printed beside it.
import { stringify } from "yaml";
import type { Kubectl } from "../test/dev-cluster/testing/kubectl.js";
import { guestShell } from "../test/e2e/testing/guest-shell.js";
import type { KubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import type { GuestConsole, RunDomains } from "../test/e2e/testing/run-domains.js";
import { RunObjects } from "../test/e2e/testing/run-objects.js";
import { tinyVm } from "../test/e2e/testing/vm-manifests.js";
import { TEST_GUEST_BANNER } from "../test/guest/guest-console.js";
import type { Metric } from "./bench-report.js";

export const GUEST_IO_VM = "storage-io";
const CLAIM = "storage-io-data";
const MIB = 1024 * 1024;
const TRANSFER_MIB = 128;
/** emptyDisk.capacity 256Mi: 524288 sectors of 512 bytes. */
const EMPTY_DISK_SECTORS = (256 * MIB) / 512;
/** A 256Mi claim less the dev cluster's 6 % file system share, in whole MiB: 240 MiB (some slack). */
const CLAIM_DISK_SECTORS = { min: (200 * MIB) / 512, max: (256 * MIB) / 512 };
const BOOT_MS = 180_000;
const DD_TIMEOUT_MS = 300_000;

/** examples/vm-tiny.yaml with a 256Mi emptyDisk and a disk on the claim. */
function ioVm(stack: KubevirtStack, namespace: string) {
  const vm = tinyVm(stack.repoRoot, { name: GUEST_IO_VM, namespace, terminationGracePeriodSeconds: 0 });
  const template = vm.spec.template.spec as unknown as {
    domain: { devices: { disks: object[] } };
    volumes: object[];
  };
  template.domain.devices.disks.push(
    { name: "scratch", disk: { bus: "virtio" } },
    { name: "data", disk: { bus: "virtio" } },
  );
  template.volumes.push(
    { name: "scratch", emptyDisk: { capacity: "256Mi" } },
    { name: "data", persistentVolumeClaim: { claimName: CLAIM } },
  );
  return vm;
}

/**
 * The /dev/vdX whose size (of `name size` lines from /sys/block, in 512-byte sectors) is within
 * `sectors`, other than `except`.
 */
function deviceSized(listing: string, sectors: { min: number; max: number }, except?: string): string {
  const match = [...listing.matchAll(/\b(vd[a-z])\s+(\d+)\b/g)].find(
    (m) => Number(m[2]) >= sectors.min && Number(m[2]) <= sectors.max && `/dev/${m[1]}` !== except,
  );
  if (!match) {
    throw new Error(`no guest disk has ${sectors.min}-${sectors.max} sectors; the guest listed:\n${listing}`);
  }
  return `/dev/${match[1]}`;
}

/** The guest's clock, in µs, as busybox adjtimex prints it (`date` has no %N here). */
const STAMP = "adjtimex | grep tv_";

/** Every stamp's seconds of the guest's clock, in order. */
function stampsOf(output: string): number[] {
  return [...output.matchAll(/tv_sec:\s+(\d+)\s+time\.tv_usec:\s+(\d+)/g)].map(
    (m) => Number(m[1]) + Number(m[2]) / 1e6,
  );
}

/** Seconds between two stamps with nothing between them: what every measurement carries too. */
async function stampOverhead(guest: GuestConsole): Promise<number> {
  const pairs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const [from, to] = stampsOf(await guestShell(guest, `${STAMP}; ${STAMP}`));
    if (from === undefined || to === undefined) throw new Error("busybox adjtimex printed no time");
    pairs.push(to - from);
  }
  return pairs.sort((x, y) => x - y)[1] ?? 0;
}

/** Seconds `command` (a dd of 128 MiB) took in the guest, less the stamps' own overhead. */
async function timedDd(
  guest: GuestConsole,
  label: string,
  command: string,
  overhead: number,
): Promise<number> {
  const started = process.hrtime.bigint();
  const output = await guestShell(guest, `${STAMP}; ${command}; ${STAMP}`, DD_TIMEOUT_MS);
  const hostSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!new RegExp(`${TRANSFER_MIB}\\+0 records out`).test(output)) {
    throw new Error(`dd did not copy ${TRANSFER_MIB} MiB:\n${output}`);
  }
  const [from, to] = stampsOf(output);
  if (from === undefined || to === undefined)
    throw new Error(`no guest time stamps around ${command}:\n${output}`);
  const guestSeconds = to - from - overhead;
  process.stdout.write(
    `  ${label.padEnd(16)} guest ${guestSeconds.toFixed(3)} s, host around the console command ${hostSeconds.toFixed(3)} s\n`,
  );
  return guestSeconds;
}

export async function measureGuestIo(
  stack: KubevirtStack,
  domains: RunDomains,
  kubectl: Kubectl,
  namespace: string,
): Promise<Record<string, Metric>> {
  const claim = {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: CLAIM, namespace },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "256Mi" } } },
  };
  await kubectl.ok(["apply", "-f", "-"], { input: stringify(claim) });
  await kubectl.ok(["apply", "-f", "-"], { input: stringify(ioVm(stack, namespace)) });
  await new RunObjects(stack.client, namespace).waitForVmiPhase(GUEST_IO_VM, "Running", {
    timeoutMs: BOOT_MS,
  });
  const guest = await domains.attachConsole(domains.domainName(GUEST_IO_VM), { timeoutMs: BOOT_MS });
  try {
    await guest.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    const listing = await guestShell(
      guest,
      "cd /sys/block && for d in vd*; do echo $d $(cat $d/size); done; cd /",
    );
    const emptyDisk = deviceSized(listing, { min: EMPTY_DISK_SECTORS, max: EMPTY_DISK_SECTORS });
    const cases = [
      ["emptydisk", emptyDisk],
      ["pvc", deviceSized(listing, CLAIM_DISK_SECTORS, emptyDisk)],
    ] as const;
    process.stdout.write(
      `\nguest disks (sectors):\n${listing.trim()}\nemptyDisk ${cases[0][1]}, claim ${cases[1][1]}\n`,
    );
    const metrics: Record<string, Metric> = {};
    const overhead = await stampOverhead(guest);
    process.stdout.write(
      `\nguest dd, ${TRANSFER_MIB} MiB, bs=1M, O_DIRECT (stamp overhead ${(overhead * 1000).toFixed(1)} ms, subtracted)\n`,
    );
    for (const [name, device] of cases) {
      const write = await timedDd(
        guest,
        `${name} write`,
        `dd if=/dev/zero of=${device} bs=1M count=${TRANSFER_MIB} oflag=direct`,
        overhead,
      );
      const read = await timedDd(
        guest,
        `${name} read`,
        `dd if=${device} of=/dev/null bs=1M count=${TRANSFER_MIB} iflag=direct`,
        overhead,
      );
      const rate = (seconds: number) => (TRANSFER_MIB * MIB) / 1e6 / seconds;
      metrics[`guest_${name}_seq_write`] = { value: rate(write), unit: "MB/s (dd oflag=direct, 128 MiB)" };
      metrics[`guest_${name}_seq_read`] = { value: rate(read), unit: "MB/s (dd iflag=direct, 128 MiB)" };
    }
    return metrics;
  } finally {
    guest.close();
  }
}
