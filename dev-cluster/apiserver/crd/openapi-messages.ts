import type { StatusCause } from "../api-error.js";
import type { JsonValue } from "../json.js";
import { child, invalid, notSupported, required, tooLong, tooMany, typeInvalid } from "./field-errors.js";
import { goQuote } from "./go-format.js";

/**
 * The errors of kube-openapi's schema validator, already turned into field errors the way
 * apiextensions does (kubeOpenAPIResultToFieldErrors). `name` is the validator's path of the
 * value (`spec.replicas`, `spec.items[0]`, `` for the root); the field of the cause is that path
 * below `prefix`, with a leading dot dropped.
 */
export class OpenApiErrors {
  readonly causes: StatusCause[] = [];

  constructor(private readonly prefix: string) {}

  /** An empty list with the same prefix, for trying junctor branches. */
  fork(): OpenApiErrors {
    return new OpenApiErrors(this.prefix);
  }

  merge(other: OpenApiErrors): void {
    this.causes.push(...other.causes);
  }

  get valid(): boolean {
    return this.causes.length === 0;
  }

  private field(name: string): string {
    return name === "" || name === "." ? this.prefix : child(this.prefix, name.replace(/^\./, ""));
  }

  /** errors.InvalidType: `<name> in body must be of type <type>: "<found>"`. */
  invalidType(name: string, expected: string, found: string): void {
    this.causes.push(
      typeInvalid(this.field(name), found, `${name} in body must be of type ${expected}: ${goQuote(found)}`),
    );
  }

  required(name: string): void {
    this.causes.push(required(this.field(name)));
  }

  enumFail(name: string, value: JsonValue, allowed: readonly JsonValue[]): void {
    const supported = allowed.map((option) => (typeof option === "string" ? option : JSON.stringify(option)));
    this.causes.push(notSupported(this.field(name), value, supported));
  }

  tooLong(name: string, max: number): void {
    this.causes.push(tooLong(this.field(name), max));
  }

  tooMany(name: string, actual: number, max: number): void {
    this.causes.push(tooMany(this.field(name), actual, max));
  }

  /** Every other failed check: `Invalid value: <value>: <name> in body <what>`. */
  failed(name: string, value: JsonValue, what: string): void {
    this.causes.push(invalid(this.field(name), value, `${name} in body ${what}`));
  }

  forbiddenProperty(name: string, property: string): void {
    this.causes.push(
      invalid(this.field(name), property, `${name}.${property} in body is a forbidden property`),
    );
  }

  /** The junctor errors are not field errors upstream, so they land on the prefix with an empty value. */
  composite(message: string): void {
    this.causes.push(invalid(this.prefix, "", message));
  }
}
