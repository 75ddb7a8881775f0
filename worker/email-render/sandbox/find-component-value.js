// Reads the value of a marker component (<Subject value="…"/>, <NotificationCategory value="…"/>)
// from what the template returns, by calling the template function once more outside React.
import { isValidElement } from "react";

export function findComponentValue(element, marker) {
  const matches = [];
  const visit = (node) => {
    if (!isValidElement(node)) return;
    if (typeof node.type === "function" && node.type.__stackComponent === marker) matches.push(node);
    const children = node.props?.children;
    if (Array.isArray(children)) children.forEach(visit);
    else if (children) visit(children);
  };
  visit(element.type(element.props || {}));
  if (matches.length === 0) return undefined;
  if (matches.length > 1) throw new Error(`Expected exactly one occurrence of component "${marker}", found ${matches.length}.`);
  const value = matches[0].props?.value;
  if (typeof value !== "string") throw new Error(`The "value" prop of "${marker}" must be a string.`);
  return value;
}
