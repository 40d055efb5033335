import type { StatusCause } from "../api-error.js";
import { isJsonObject } from "../json.js";
import { child, index, invalid, notSupported, required } from "./field-errors.js";
import type { SchemaNode } from "./schema-nodes.js";

const SUPPORTED_REASONS = [
  "FieldValueDuplicate",
  "FieldValueForbidden",
  "FieldValueInvalid",
  "FieldValueRequired",
];
const LINE_BREAK = /[\n\r]+/;

function stringField(rule: Record<string, unknown>, name: string): string {
  const value = rule[name];
  return typeof value === "string" ? value : "";
}

/**
 * The shape of `x-kubernetes-validations` entries (rule present, messages on one line, a known
 * reason). The CEL expressions themselves are neither compiled nor evaluated by this server.
 */
export function validationRuleErrors(schema: SchemaNode, path: string): StatusCause[] {
  const rules = schema["x-kubernetes-validations"];
  if (!Array.isArray(rules)) return [];
  const causes: StatusCause[] = [];
  rules.forEach((rule, position) => {
    if (!isJsonObject(rule)) return;
    const rulePath = index(child(path, "x-kubernetes-validations"), position);
    const expression = stringField(rule, "rule").trim();
    const message = stringField(rule, "message");
    if (expression === "") causes.push(required(child(rulePath, "rule"), "rule is not specified"));
    else if (message !== "" && message.trim() === "") {
      causes.push(invalid(child(rulePath, "message"), message, "message must be non-empty if specified"));
    } else if (LINE_BREAK.test(message.trim())) {
      causes.push(invalid(child(rulePath, "message"), message, "message must not contain line breaks"));
    } else if (LINE_BREAK.test(expression) && message.trim() === "") {
      causes.push(
        required(child(rulePath, "message"), "message must be specified if rule contains line breaks"),
      );
    }
    const messageExpression = stringField(rule, "messageExpression");
    if (messageExpression !== "" && messageExpression.trim() === "") {
      causes.push(
        required(child(rulePath, "messageExpression"), "messageExpression must be non-empty if specified"),
      );
    }
    const reason = rule.reason;
    if (typeof reason === "string" && !SUPPORTED_REASONS.includes(reason)) {
      causes.push(notSupported(child(rulePath, "reason"), reason, SUPPORTED_REASONS));
    }
    const fieldPath = stringField(rule, "fieldPath");
    if (fieldPath !== "" && fieldPath.trim() === "") {
      causes.push(
        invalid(child(rulePath, "fieldPath"), fieldPath, "fieldPath must be non-empty if specified"),
      );
    }
    if (LINE_BREAK.test(fieldPath)) {
      causes.push(invalid(child(rulePath, "fieldPath"), fieldPath, "fieldPath must not contain line breaks"));
    }
  });
  return causes;
}
