// What the test guest prints on its serial console (ttyS0), for tests that watch the console. The guest's
// scripts are generated from these constants, so a test and the guest can never disagree on them.

/** Printed once the guest is fully up: the power button works and the shell is about to start. */
export const TEST_GUEST_BANNER = "kubevirt-ts test guest: ready";
/** The shell prompt on ttyS0. */
export const TEST_GUEST_PROMPT = "guest# ";
/** Printed when the guest starts to shut down (power button, `poweroff` or `reboot`). */
export const TEST_GUEST_SHUTDOWN_MESSAGE = "kubevirt-ts test guest: shutting down";
/** Starts the line printed just before the banner: `… root=<device|initramfs> cidata=<device|none>`. */
export const TEST_GUEST_STATUS_PREFIX = "kubevirt-ts test guest: status ";
/** The file-system label of the guest's root disk; kernel argument `root=LABEL=guest-root` boots from it. */
export const TEST_GUEST_ROOT_LABEL = "guest-root";

/** The NoCloud files the guest echoes, in this order, when it finds a `cidata` volume. */
export const CIDATA_FILES = ["meta-data", "user-data", "network-config"] as const;
export type CidataFile = (typeof CIDATA_FILES)[number];

export function cidataBeginMarker(file: CidataFile): string {
  return `----- BEGIN CIDATA ${file} -----`;
}

export function cidataEndMarker(file: CidataFile): string {
  return `----- END CIDATA ${file} -----`;
}

/** Serial consoles turn "\n" into "\r\n"; tests compare with "\n". */
function normaliseLineEnds(text: string): string {
  return text.replace(/\r+\n/g, "\n");
}

/**
 * The content of a cidata file as the guest echoed it between its markers, or undefined when the markers
 * are not (yet) in the console output. The guest prints `cat FILE; echo`, so exactly one newline before the
 * end marker is the guest's own and is removed: the result is the file's content, byte for byte, apart
 * from line ends.
 */
export function extractCidataFile(consoleText: string, file: CidataFile): string | undefined {
  const text = normaliseLineEnds(consoleText);
  const begin = `${cidataBeginMarker(file)}\n`;
  const start = text.indexOf(begin);
  if (start < 0) return undefined;
  const contentStart = start + begin.length;
  const end = text.indexOf(`\n${cidataEndMarker(file)}`, contentStart);
  if (end < 0) return undefined;
  return text.slice(contentStart, end);
}

export interface TestGuestStatus {
  /** The root file system's device, or "initramfs". */
  root: string;
  /** The cidata volume's device, or undefined when the guest found none. */
  cidata: string | undefined;
}

/** Reads the status line the guest prints before its banner; undefined when it is not (yet) there. */
export function parseTestGuestStatus(consoleText: string): TestGuestStatus | undefined {
  const text = normaliseLineEnds(consoleText);
  const start = text.indexOf(TEST_GUEST_STATUS_PREFIX);
  if (start < 0) return undefined;
  const lineEnd = text.indexOf("\n", start);
  if (lineEnd < 0) return undefined;
  const match = /^root=(\S+) cidata=(\S+)$/.exec(
    text.slice(start + TEST_GUEST_STATUS_PREFIX.length, lineEnd),
  );
  if (!match?.[1] || !match[2]) return undefined;
  return { root: match[1], cidata: match[2] === "none" ? undefined : match[2] };
}
