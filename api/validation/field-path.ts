/**
 * Field paths written the way apimachinery's field.Path prints them: `spec.volumes[0].name`,
 * `spec.nodeSelector[kubernetes.io/hostname]`. Paths are plain strings so causes compare and
 * print without a wrapper.
 */

/** `base.a.b`; an empty base yields `a.b`. */
export function child(base: string, ...names: string[]): string {
  return names.reduce((path, name) => (path === "" ? name : `${path}.${name}`), base);
}

/** `base[3]` */
export function index(base: string, position: number): string {
  return `${base}[${position}]`;
}

/** `base[key]`: map keys are not quoted. */
export function key(base: string, name: string): string {
  return `${base}[${name}]`;
}
