#!/usr/bin/env node
// `npm run setup-host`: makes this machine a libvirt/QEMU node for development, tests and CI.
//
//  1. installs the Debian packages that are missing (libvirt daemon without systemd, QEMU, tini, and the
//     programs virt-handler runs: qemu-img and an ISO writer; it never installs them itself);
//  2. writes the test-environment QEMU settings into /etc/libvirt/qemu.conf, but only when that file is
//     still the packaged one (or already carries our marker): a libvirt someone configured is left alone;
//  3. starts libvirtd under tini (as a subreaper, so destroyed QEMU processes are reaped at once) when no
//     libvirtd runs, and waits until it answers;
//  4. finds out whether KVM really runs guests (a boot probe, not the mere presence of /dev/kvm) and says
//     which accelerator VMs will get.
//
// Idempotent: on a machine where everything is in place it only checks (well under a second) and reports.
// Options: --probe-kvm boots a kernel under KVM even when the CPU shows no virtualisation extensions;
// --kvm-kernel PATH names the kernel to boot (default: /boot/vmlinuz-*, /var/lib/libvirt/images/**/vmlinuz*).
// Why each setting: shared/reference/libvirt-here.md §1-§4.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

const PACKAGES = [
  "libvirt-daemon-system",
  "libvirt-daemon-system-sysv", // init scripts instead of systemd units: keeps systemd out
  "libvirt-clients",
  "qemu-system-x86",
  "qemu-utils", // qemu-img: virt-handler's disk overlays and empty disks
  "genisoimage", // virt-handler's cloud-init ISOs (xorriso would do too); isoinfo reads them in tests
  "nftables", // nft: virt-handler's masquerade NAT inside a launcher pod's network namespace
  "iproute2", // ip: the pod side of a VM's network (and the dev cluster's pod network)
  "procps", // sysctl: forwarding settings inside a launcher pod's network namespace
  "busybox", // udhcpd: the launcher serves its guest's DHCP answer
  "openssh-client", // ssh-keygen and ssh: the tests that log into the test guest with a key
  "passt", // passt: virt-handler runs it in a launcher pod's network namespace for the passt binding
  "tini",
  "docker-registry", // CNCF distribution 2.8: the dev cluster's local image registry (dev-cluster/registry/)
  "zstd", // zstd-compressed OCI layers in the image tests (test/oci-image/)
  "apache2-utils", // htpasswd: bcrypt lines for the registry tests with Basic auth
  "syslinux", // with mtools and dosfstools: the self-booting disk of the cirros stand-in (test/guest/bootable-disk.ts)
  "syslinux-common", // its MBR code (/usr/lib/syslinux/mbr/mbr.bin): only recommended by syslinux
  "mtools",
  "dosfstools",
  "skopeo", // the images benchmark's reference puller (bench/images.ts)
  // npm run images and npm start -- --real-kubernetes (real-kubernetes/README.md):
  "podman", // builds the component images (images/build/)
  "runc", // podman's runtime here (crun refuses this host's hybrid cgroups) and containerd's
  "debootstrap", // the local stand-in of the Debian base image
  "containerd", // the real kubelet's container runtime
  "containernetworking-plugins", // its bridge, host-local, portmap and loopback CNI plugins
  "etcd-server", // the real control plane's store
  "iptables", // kube-proxy's and the kubelet's rules
  "xz-utils", // the Kubernetes binaries come xz-compressed
];
const QEMU_CONF = "/etc/libvirt/qemu.conf";
const MARKER =
  "# kubevirt-ts setup-host: test-environment settings (see shared/reference/libvirt-here.md §2)";
/** Root QEMU without confinement: right for throwaway test machines, not for production nodes. */
const QEMU_SETTINGS = {
  user: '"root"', // /dev/kvm is root-only here; another user makes libvirt re-probe QEMU on every start (~4 s)
  group: '"root"',
  dynamic_ownership: "0", // never chown kernels and disks; images may live anywhere
  security_driver: '"none"', // the kernel has neither AppArmor nor SELinux
  stdio_handler: '"file"', // QEMU logs straight to /var/log/libvirt/qemu/, no virtlogd needed
};
const LIBVIRTD_LOG = "/var/log/libvirt/libvirtd.stderr";
const LIBVIRTD_PIDFILE = "/run/libvirtd-tini.pid"; // stop with: kill "$(cat /run/libvirtd-tini.pid)"
const SOCKET = "/run/libvirt/libvirt-sock";
const QEMU_BINARY = "/usr/bin/qemu-system-x86_64";

const started = performance.now();
const say = (what, text) => process.stdout.write(`setup-host: ${what.padEnd(12)} ${text}\n`);
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main() {
  if (process.platform !== "linux" || !existsSync("/usr/bin/dpkg-query")) {
    fail("this script sets up Debian hosts (dpkg and apt-get); install libvirt and QEMU by hand elsewhere");
  }
  if (process.getuid?.() !== 0) fail("run as root: it installs packages and starts libvirtd");
  const wasRunning = libvirtdPids();
  ensurePackages();
  configureQemu(wasRunning.length > 0);
  configurePodman();
  ensureLibvirtd(libvirtdPids());
  await reportAccelerator(process.argv.includes("--probe-kvm"));
  say("done", `in ${seconds(started)}`);
}

function fail(message) {
  process.stderr.write(`setup-host: ${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
}

// ---- 1. packages -------------------------------------------------------------------------------

function missingPackages() {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax
  const result = spawnSync("dpkg-query", ["-W", "-f", "${Package} ${db:Status-Status}\\n", ...PACKAGES], {
    encoding: "utf8",
  });
  const installed = new Set(
    result.stdout
      .split("\n")
      .filter((line) => line.endsWith(" installed"))
      .map((line) => line.split(" ")[0]),
  );
  return PACKAGES.filter((name) => !installed.has(name));
}

function ensurePackages() {
  const missing = missingPackages();
  if (missing.length === 0) {
    say("packages", `all ${PACKAGES.length} present (${PACKAGES.join(", ")})`);
    return;
  }
  const since = performance.now();
  say("packages", `installing ${missing.join(", ")} (with --no-install-recommends, no systemd)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    run("apt-get", ["update", "-qq"], { env });
    // The whole set, so apt also keeps the sysv variant when the daemon package is the one missing.
    run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...PACKAGES], { env });
  } catch (err) {
    fail(`apt-get failed: ${err.stderr || err.message}`);
  }
  const still = missingPackages();
  if (still.length > 0) fail(`packages still missing after apt-get: ${still.join(", ")}`);
  say("packages", `installed in ${seconds(since)}`);
}

// ---- 2. qemu.conf ------------------------------------------------------------------------------

/** The `key = value` lines that are in force (not comments). */
function activeSettings(text) {
  const settings = new Map();
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Za-z_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) settings.set(match[1], match[2]);
  }
  return settings;
}

/** True when qemu.conf is the file the package shipped: same checksum as dpkg recorded, or nothing set. */
function isStockQemuConf(text) {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax
  const conffiles = spawnSync("dpkg-query", ["-W", "-f", "${Conffiles}\\n", "libvirt-daemon-driver-qemu"], {
    encoding: "utf8",
  }).stdout;
  const recorded = new RegExp(`^\\s*${QEMU_CONF.replaceAll(".", "\\.")}\\s+([0-9a-f]{32})`, "m").exec(
    conffiles,
  )?.[1];
  const actual = createHash("md5").update(text).digest("hex");
  return recorded === actual || activeSettings(text).size === 0;
}

function describeSettings(settings) {
  const found = Object.keys(QEMU_SETTINGS).map((key) => `${key}=${settings.get(key) ?? "(default)"}`);
  return found.join(", ");
}

function configureQemu(libvirtdWasRunning) {
  if (!existsSync(QEMU_CONF)) fail(`${QEMU_CONF} is missing although libvirt-daemon-system is installed`);
  const text = readFileSync(QEMU_CONF, "utf8");
  const settings = activeSettings(text);
  if (text.includes(MARKER)) {
    say("qemu.conf", `our settings are in place (${describeSettings(settings)})`);
    return;
  }
  if (libvirtdWasRunning || !isStockQemuConf(text)) {
    // Someone else set this libvirt up: report, change nothing.
    const why = libvirtdWasRunning ? "libvirtd was already running" : "it has settings of its own";
    say("qemu.conf", `left unchanged (${why}): ${describeSettings(settings)}`);
    warnAboutForeignSettings(settings);
    return;
  }
  const block = Object.entries(QEMU_SETTINGS).map(([key, value]) => `${key} = ${value}`);
  appendFileSync(QEMU_CONF, `\n${MARKER}\n${block.join("\n")}\n`);
  say("qemu.conf", `appended ${block.join(", ")}`);
}

function warnAboutForeignSettings(settings) {
  const handler = settings.get("stdio_handler") ?? '"logd"';
  if (handler.includes("logd") && !processesNamed("virtlogd").length) {
    say(
      "warning",
      "stdio_handler is logd but virtlogd is not running: domain starts will fail (start `virtlogd -d`)",
    );
  }
  if ((settings.get("user") ?? '"libvirt-qemu"') !== '"root"') {
    say("warning", "QEMU runs as a non-root user: /dev/kvm and image files must be accessible to it");
  }
}

// ---- 2b. containers.conf -----------------------------------------------------------------------

const CONTAINERS_CONF = "/etc/containers/containers.conf";

/** podman's RUN steps fail here unless containers.conf drops its default ulimits (this host refuses raising them). */
function configurePodman() {
  const text = existsSync(CONTAINERS_CONF) ? readFileSync(CONTAINERS_CONF, "utf8") : "";
  if (/^\s*default_ulimits\s*=\s*\[\s*\]/m.test(text)) {
    say("podman", `${CONTAINERS_CONF} has default_ulimits = []`);
    return;
  }
  if (/^\s*\[containers\]/m.test(text)) {
    say(
      "warning",
      `${CONTAINERS_CONF} has a [containers] table of its own: add default_ulimits = [] to it for podman builds`,
    );
    return;
  }
  mkdirSync("/etc/containers", { recursive: true });
  appendFileSync(
    CONTAINERS_CONF,
    `${text && !text.endsWith("\n") ? "\n" : ""}[containers]\ndefault_ulimits = []\n`,
  );
  say("podman", `appended [containers] default_ulimits = [] to ${CONTAINERS_CONF}`);
}

// ---- 3. libvirtd -------------------------------------------------------------------------------

function processesNamed(name) {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === name) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

const libvirtdPids = () => processesNamed("libvirtd");

function parentName(pid) {
  try {
    const ppid = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1];
    return readFileSync(`/proc/${ppid}/comm`, "utf8").trim();
  } catch {
    return "unknown";
  }
}

function libvirtdAnswers() {
  return (
    spawnSync("virsh", ["-q", "-c", "qemu:///system", "version"], { stdio: "ignore", timeout: 30_000 })
      .status === 0
  );
}

function ensureLibvirtd(pids) {
  if (pids.length > 0) {
    const parent = parentName(pids[0]);
    say("libvirtd", `already running (pid ${pids.join(", ")}, parent ${parent})`);
    if (parent !== "tini")
      say("note", "libvirtd has no subreaper: each destroy waits ~1.7 s for PID 1 to reap QEMU");
    if (!libvirtdAnswers()) fail("libvirtd runs but `virsh -c qemu:///system version` fails");
    return;
  }
  const since = performance.now();
  const log = openSync(LIBVIRTD_LOG, "a");
  const child = spawn("tini", ["-s", "--", "libvirtd"], { detached: true, stdio: ["ignore", log, log] });
  closeSync(log);
  writeFileSync(LIBVIRTD_PIDFILE, `${child.pid}\n`);
  child.unref();
  waitForLibvirtd(child.pid);
  say(
    "libvirtd",
    `started under tini (pid ${child.pid}, ${LIBVIRTD_PIDFILE}, log ${LIBVIRTD_LOG}) in ${seconds(since)}`,
  );
}

function waitForLibvirtd(tiniPid) {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    if (!existsSync(`/proc/${tiniPid}`)) fail(`libvirtd exited at start; see ${LIBVIRTD_LOG}`);
    // The first answer includes QEMU's one-time capability probe (about 1.3 s).
    if (existsSync(SOCKET) && libvirtdAnswers()) return;
    spawnSync("sleep", ["0.05"]);
  }
  fail(`libvirtd did not answer within 60 s; see ${LIBVIRTD_LOG}`);
}

// ---- 4. accelerator ----------------------------------------------------------------------------

/**
 * Kernels a boot probe can use: --kvm-kernel PATH, then the host's and the test guest's Debian kernels.
 * A home-made long-mode probe is not enough: under kvm_pvm it runs, while a Linux guest hangs in its
 * decompressor. So the probe boots a real kernel and waits for its first console line.
 */
function probeKernelCandidates() {
  const flag = process.argv.indexOf("--kvm-kernel");
  const given = flag >= 0 ? [process.argv[flag + 1]] : [];
  const found = (dir, pattern) =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true })
          .filter((f) => pattern.test(String(f)))
          .map((f) => join(dir, String(f)))
      : [];
  return [
    ...given,
    ...found("/boot", /^vmlinuz-/),
    ...found("/var/lib/libvirt/images", /(^|\/)vmlinuz[^/]*$/),
  ].filter((file) => file && existsSync(file));
}

/** Boots `kernel` with the given accelerator; resolves true once it prints "Linux version" on ttyS0. */
function bootProbe(kernel, accel, timeoutMs) {
  return new Promise((resolve) => {
    const args = [
      "-accel",
      accel,
      "-M",
      "pc",
      "-m",
      "128",
      "-nodefaults",
      "-no-user-config",
      "-display",
      "none",
    ];
    args.push("-no-reboot", "-serial", "stdio", "-kernel", kernel, "-append", "console=ttyS0 panic=-1");
    const qemu = spawn(QEMU_BINARY, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let stderr = "";
    const finish = (ok) => {
      clearTimeout(timer);
      qemu.kill("SIGKILL");
      resolve({ ok, stderr: stderr.trim() });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    qemu.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Linux version")) finish(true);
    });
    qemu.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    qemu.on("exit", () => finish(output.includes("Linux version")));
  });
}

function kvmHardwareHint() {
  const cpuFlags = /^flags\s*:(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.split(" ") ?? [];
  if (cpuFlags.includes("vmx") || cpuFlags.includes("svm")) return null;
  const pvm = existsSync("/sys/module/kvm_pvm")
    ? "; kvm_pvm is loaded, which runs only PVM-enabled guest kernels"
    : "";
  return `the CPU has no vmx/svm${pvm}`;
}

async function reportAccelerator(forceProbe) {
  const tcg = "VMs get TCG (software emulation): generate <domain type='qemu'>";
  if (!existsSync("/dev/kvm")) return say("accelerator", `${tcg}; there is no /dev/kvm`);
  const hint = kvmHardwareHint();
  if (hint && !forceProbe)
    return say("accelerator", `${tcg}; KVM unusable: ${hint} (/dev/kvm exists regardless)`);
  const kernel = probeKernelCandidates()[0];
  if (!kernel) {
    const why = hint ?? "the CPU has vmx/svm";
    return say("accelerator", `${tcg}; KVM not verified (${why}; no kernel to boot: pass --kvm-kernel PATH)`);
  }
  const since = performance.now();
  const kvm = await bootProbe(kernel, "kvm", 10_000);
  if (kvm.ok)
    return say("accelerator", `VMs can get KVM: ${kernel} printed its banner under KVM in ${seconds(since)}`);
  const qemuSaid = kvm.stderr ? ` (QEMU: ${kvm.stderr.split("\n").at(-1)})` : "";
  say(
    "accelerator",
    `${tcg}; ${kernel} printed nothing under KVM within 10 s${qemuSaid}${hint ? `; ${hint}` : ""}`,
  );
  if (forceProbe) {
    const control = await bootProbe(kernel, "tcg", 20_000);
    say(
      "probe",
      `the same kernel under TCG ${control.ok ? "printed its banner" : `failed too: ${control.stderr}`}`,
    );
  }
}

await main();
