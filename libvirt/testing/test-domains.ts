// Domain XML for tests against libvirt's built-in test driver (test:///default).

/** A persistent test-driver domain with one disk (vda) and one interface (MAC 52:54:00:00:00:01). */
export function testDomainXml(name: string): string {
  return `<domain type='test'>
  <name>${name}</name>
  <memory unit='MiB'>64</memory>
  <vcpu>2</vcpu>
  <os><type>hvm</type></os>
  <devices>
    <disk type='file' device='disk'><source file='/images/${name}.img'/><target dev='vda'/></disk>
    <interface type='network'><source network='default'/><mac address='52:54:00:00:00:01'/></interface>
  </devices>
</domain>`;
}

/** A name no other test in the process uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
