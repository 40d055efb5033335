/**
 * The members of a string union as a runtime list, checked at compile time: leaving a member out (or adding
 * one the union lacks) is a type error. `enumValues<DiskBus>()("virtio", "sata", …)`.
 */
export function enumValues<T extends string>() {
  return <const A extends readonly T[]>(
    ...values: A & ([T] extends [A[number]] ? unknown : never)
  ): readonly T[] => values;
}
