import {
  type LabelMatcher,
  labelMatcherFromObject,
  labelMatcherFromText,
} from "../../../runtime/labels/label-matcher.js";
import { LabelSelectorError } from "../../../runtime/labels/label-requirement.js";
import { badRequest } from "../api-error.js";

export type { LabelMatcher };

/**
 * Parses the `labelSelector` query parameter syntax (`a=b`, `a!=b`, `a in (x,y)`, `!a`, ...).
 * An empty selector selects everything. Invalid syntax, keys or values → ApiError 400.
 */
export function parseLabelSelector(text: string): LabelMatcher {
  try {
    return labelMatcherFromText(text);
  } catch (error) {
    if (error instanceof LabelSelectorError) {
      throw badRequest(`unable to parse label selector ${JSON.stringify(text)}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Converts a metav1.LabelSelector (`matchLabels` + `matchExpressions`) as LabelSelectorAsSelector
 * does: `{}` selects everything, null/undefined selects nothing. Malformed → ApiError 400.
 */
export function labelSelectorFromObject(selector: unknown): LabelMatcher {
  try {
    return labelMatcherFromObject(selector);
  } catch (error) {
    if (error instanceof LabelSelectorError) {
      throw badRequest(`invalid label selector ${JSON.stringify(selector)}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}
