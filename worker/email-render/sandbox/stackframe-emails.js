// `@stackframe/emails` inside the sandbox: the marker components a template declares its subject and
// notification category with (read back by find-component-value.js), and the project logo helpers a
// theme may use. Templates written for the reference import these by the same names.
import { Img } from "@react-email/components";
import { createElement } from "react";

export function Subject() {
  return null;
}
Subject.__stackComponent = "Subject";

export function NotificationCategory() {
  return null;
}
NotificationCategory.__stackComponent = "NotificationCategory";

export function Logo(props) {
  return createElement(
    "div",
    { className: "flex gap-2 items-center" },
    createElement(Img, { src: props.logoUrl, alt: "Logo", className: "h-8" }),
  );
}

export function FullLogo(props) {
  return createElement(Img, { src: props.logoFullUrl, alt: "Full Logo", className: "h-16" });
}

/** The project's logo for a light or dark theme: the full logo when there is one, else the square one, else nothing. */
export function ProjectLogo(props) {
  const dark = (props.mode ?? "light") === "dark";
  const data = props.data ?? {};
  const full = dark ? data.logoFullDarkModeUrl : data.logoFullUrl;
  const square = dark ? data.logoDarkModeUrl : data.logoUrl;
  if (full) return createElement(FullLogo, { logoFullUrl: full });
  if (square) return createElement(Logo, { logoUrl: square });
  return null;
}
