// An interface's `dhcpOptions`, as the launcher's udhcpd offers them (KubeVirt's prepareDHCPOptions):
// 67 boot file, 66 TFTP server, 42 NTP servers, and the private options 224–254, whose values go
// out as the string's bytes. Every value becomes a line of udhcpd's configuration, so none may
// carry a line break or a space: such a value is refused rather than written.
import type { Interface } from "../../api/index.js";

export class DhcpOptionError extends Error {
  override readonly name = "DhcpOptionError";
  readonly reason = "InvalidSpec";
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const WORD = /^[\x21-\x7e]+$/;

export function dhcpOptionLines(iface: Pick<Interface, "name" | "dhcpOptions">): string[] {
  const options = iface.dhcpOptions;
  if (options === undefined) return [];
  const lines: string[] = [];
  const word = (field: string, value: string): string => {
    if (!WORD.test(value)) {
      throw new DhcpOptionError(
        `interface ${iface.name}: dhcpOptions.${field} "${value}" must be printable ASCII without spaces`,
      );
    }
    return value;
  };
  if (options.bootFileName) lines.push(`opt bootfile ${word("bootFileName", options.bootFileName)}`);
  if (options.tftpServerName) lines.push(`opt tftp ${word("tftpServerName", options.tftpServerName)}`);
  if (options.ntpServers && options.ntpServers.length > 0) {
    for (const server of options.ntpServers) {
      if (!IPV4.test(server)) {
        throw new DhcpOptionError(`interface ${iface.name}: NTP server "${server}" is not an IPv4 address`);
      }
    }
    lines.push(`opt ntpsrv ${options.ntpServers.join(" ")}`);
  }
  for (const option of options.privateOptions ?? []) {
    if (!Number.isInteger(option.option) || option.option < 224 || option.option > 254) {
      throw new DhcpOptionError(
        `interface ${iface.name}: DHCP option ${option.option} is not a private option (224-254)`,
      );
    }
    if (!option.value) {
      throw new DhcpOptionError(`interface ${iface.name}: DHCP option ${option.option} has no value`);
    }
    lines.push(`opt 0x${option.option.toString(16)} ${Buffer.from(option.value).toString("hex")}`);
  }
  return lines;
}
