// The sandbox's library bundle: evaluated once into each fresh QuickJS context, before the owner's
// theme and template. It defines one global, __doorman (frozen, not writable), with:
//   define(name, factory)  registers a compiled module ("theme" or "template"), a CommonJS factory
//   render(inputJson)      runs them and answers a JSON string { html, text, subject, notificationCategory }
// The only modules a theme or template can import are the ones the reference's sandbox offers.
// The host trusts none of the answer: it checks its shape and size again (render.ts).
import "./host-classes.js";
import "./performance.js";
import "./arktype-config.js";
import * as components from "@react-email/components";
import * as arktype from "arktype";
import * as arktypeConfig from "arktype/config";
import React from "react";
import jsxRuntime from "react/jsx-runtime";
import { findComponentValue } from "./find-component-value.js";
import { renderHtmlSync, toPlainText } from "./react-email-render.js";
import * as stackframeEmails from "./stackframe-emails.js";

// Taken before any owner's code runs: a theme or template may replace the globals, not these.
const { parse, stringify } = JSON;
const defineProperty = Object.defineProperty;
const freeze = Object.freeze;

/** The host refuses a bigger email anyway (render.ts); stopping here spares html-to-text a huge document. */
const MAX_OUTPUT_CHARS = 1024 * 1024;

// @react-email/code-block (CodeBlock and its Prism themes) loads on first use: its import is an
// empty stand-in (code-block-lazy.js) and `require` here is esbuild's lazy module initialiser.
// __CODE_BLOCK_EXPORTS__ is its export names, listed by the build script.
const reactEmail = { ...components };
let codeBlock;
for (const name of __CODE_BLOCK_EXPORTS__) {
  Object.defineProperty(reactEmail, name, {
    enumerable: true,
    get() {
      codeBlock ??= require("doorman-code-block");
      return codeBlock[name];
    },
  });
}
// Marked as an ES module, so that sucrase's `import * as components from "@react-email/components"`
// takes this object as it is instead of copying every property, which read the getters above and
// loaded Prism (~2,000 interrupt checks, more than the CPU budget). `default` keeps a default import
// giving the whole object, as it did.
defineProperty(reactEmail, "__esModule", { value: true });
defineProperty(reactEmail, "default", { value: reactEmail });

const libraries = {
  react: React,
  "react/jsx-runtime": jsxRuntime,
  "react/jsx-dev-runtime": { ...jsxRuntime, jsxDEV: jsxRuntime.jsx },
  "@react-email/components": reactEmail,
  arktype,
  "arktype/config": arktypeConfig,
  "@stackframe/emails": stackframeEmails,
};

// arktype's callables (type, scope, every Type) are functions whose prototype chain skips
// Function.prototype, so they have no .call/.apply/.bind; sucrase compiles an imported call
// `type({...})` to `_arktype.type.call(void 0, {...})`. Give their root prototype Function's methods.
for (const lib of [arktype, arktypeConfig, components, React, jsxRuntime, stackframeEmails]) {
  for (const key of Object.keys(lib)) {
    const value = lib[key];
    if (typeof value !== "function" || value instanceof Function) continue;
    let root = Object.getPrototypeOf(value);
    while (root && Object.getPrototypeOf(root) !== Object.prototype && Object.getPrototypeOf(root) !== null)
      root = Object.getPrototypeOf(root);
    if (!root || root === Object.prototype || Object.hasOwn(root, "call")) continue;
    for (const method of ["call", "apply", "bind"])
      Object.defineProperty(root, method, { value: Function.prototype[method], writable: true, configurable: true });
  }
}

function requireLibrary(name) {
  if (Object.hasOwn(libraries, name)) return libraries[name];
  throw new Error(`Cannot import "${name}": themes and templates can import ${Object.keys(libraries).join(", ")}`);
}

/** "No theme" (the reference's theme_id: false): the template alone in a bare document. */
function NoTheme({ children }) {
  const { Html, Tailwind, Body } = components;
  return React.createElement(Html, null, React.createElement(Tailwind, null, React.createElement(Body, null, children)));
}

const factories = {};

function load(name) {
  const module = { exports: {} };
  factories[name](module.exports, requireLibrary, module);
  return module.exports;
}

function exported(moduleExports, name, file) {
  const value = moduleExports[name];
  if (typeof value !== "function") throw new Error(`${file} must export a function ${name}`);
  return value;
}

function tooLarge() {
  return new Error("Rendering was stopped: the rendered email is larger than 1 MB.");
}

function render(inputJson) {
  const input = parse(inputJson);
  const preview = input.previewMode === true;
  const EmailTheme = input.hasTheme ? exported(load("theme"), "EmailTheme", "The theme") : NoTheme;
  const template = load("template");
  const EmailTemplate = exported(template, "EmailTemplate", "The template");

  const given = { ...(preview ? (EmailTemplate.PreviewVariables ?? {}) : {}), ...(input.variables ?? {}) };
  const schema = template.variablesSchema;
  const variables = typeof schema === "function" ? schema(given) : {};
  if (variables instanceof arktype.type.errors) throw new Error(variables.summary);

  // Doorman's addition to the reference's props: the reader's locale ("de", "pt-BR", …) when the email has one.
  const locale = typeof input.locale === "string" ? input.locale : undefined;
  const themeProps = {
    unsubscribeLink: input.unsubscribeLink ?? undefined,
    projectLogos: {},
    ...(locale ? { locale } : {}),
    ...(preview ? (EmailTheme.PreviewProps ?? {}) : {}),
  };
  const templateProps = { variables, user: input.user, project: input.project, ...(locale ? { locale } : {}) };
  const templateElement = React.createElement(EmailTemplate, templateProps);
  const children = preview ? (EmailTheme.PreviewProps?.children ?? templateElement) : templateElement;
  const email = React.createElement(EmailTheme, themeProps, children);

  const html = renderHtmlSync(email);
  if (typeof html !== "string" || html.length > MAX_OUTPUT_CHARS) throw tooLarge();
  const text = toPlainText(html.replace(/^<!DOCTYPE.*?>/, ""));
  if (typeof text !== "string" || html.length + text.length > MAX_OUTPUT_CHARS) throw tooLarge();
  return stringify({
    html,
    text,
    subject: findComponentValue(templateElement, "Subject"),
    notificationCategory: findComponentValue(templateElement, "NotificationCategory"),
  });
}

/**
 * One render at boot, before the host snapshots the instance: Tailwind builds its context for the
 * default config and caches it, and arktype compiles its first schema, so every later render
 * (restored from the snapshot) starts with that work done.
 */
function warmUp() {
  const { Button, Container, Heading, Hr, Section, Text } = components;
  const schema = arktype.type({ name: "string" });
  const variables = schema({ name: "warm-up" });
  const h = React.createElement;
  const html = renderHtmlSync(
    h(
      NoTheme,
      null,
      h(
        Container,
        { className: "bg-white p-[45px] rounded-lg max-w-[600px] mx-auto" },
        h(Heading, { className: "text-xl font-bold text-center text-black" }, variables.name),
        h(Section, { className: "py-4 px-6" }, h(Text, { className: "text-sm text-[#474849] leading-6" }, "text")),
        h(Button, { href: "https://example.com", className: "bg-[#f0f0f0] rounded-md px-5 py-3 no-underline" }, "button"),
        h(Hr, { className: "opacity-20" }),
      ),
    ),
  );
  return toPlainText(html).length;
}

defineProperty(globalThis, "__doorman", {
  value: freeze({
    define(name, factory) {
      factories[name] = factory;
    },
    render,
    warmUp,
  }),
  writable: false,
  configurable: false,
  enumerable: false,
});
