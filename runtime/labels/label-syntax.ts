/**
 * Label key and value rules of k8s.io/apimachinery/pkg/util/validation, with its messages:
 * selectors are refused with the same words kube-apiserver uses.
 */

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_NAME_PART = 63;
const MAX_PREFIX = 253;
const MAX_LABEL_VALUE = 63;

const NAME_PART_RULE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const QUALIFIED_NAME_RULE =
  "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
const PREFIX_RULE =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** Problems with a label key (IsQualifiedName); empty when the key is valid. */
export function qualifiedNameErrors(key: string): string[] {
  const parts = key.split("/");
  if (parts.length > 2) return [QUALIFIED_NAME_RULE];
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  const errors: string[] = [];
  if (prefix !== undefined) {
    if (prefix.length === 0) errors.push("prefix part must be non-empty");
    else if (prefix.length > MAX_PREFIX)
      errors.push(`prefix part must be no more than ${MAX_PREFIX} characters`);
    else if (!DNS1123_SUBDOMAIN.test(prefix)) errors.push(PREFIX_RULE);
  }
  if (name === undefined || name.length === 0) errors.push("name part must be non-empty");
  else if (name.length > MAX_NAME_PART)
    errors.push(`name part must be no more than ${MAX_NAME_PART} characters`);
  else if (!NAME_PART.test(name)) errors.push(NAME_PART_RULE);
  return errors;
}

/** Problems with a label value (IsValidLabelValue); empty when the value is valid. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > MAX_LABEL_VALUE) errors.push(`must be no more than ${MAX_LABEL_VALUE} characters`);
  if (!LABEL_VALUE.test(value)) errors.push(LABEL_VALUE_RULE);
  return errors;
}
